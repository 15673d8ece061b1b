import { parseAllDocuments } from 'yaml';
import { IMPORT_JSON, IMPORT_YAML } from '../import/routes.js';
import { formatMediaType } from '../lib/media-types.js';
import { messageOf, refusalMessage, type ServerClient } from './client.js';
import { CliError } from './errors.js';
import type { Printer } from './get.js';
import { sendBlock, type WireBlock } from './order.js';
import { renderTable } from './output.js';
import { withProgress } from './progress.js';

/** One entry of the import's answer (COMPAT §7). */
interface ImportResult {
  meshObject: string;
  status: 'SUCCESS' | 'FAILED';
  resultCode: string | null;
  message: string | null;
  remarks?: string[];
}

const media = (ref: typeof IMPORT_JSON | typeof IMPORT_YAML) => formatMediaType('vendor', ref.kind, ref.version, ref.format);

/** JSON when it looks like JSON (an array or an object, made an array); YAML (one or more `---` documents) otherwise. */
export function importBody(text: string): { contentType: string; body: string } {
  const trimmed = text.trimStart();
  if (trimmed.startsWith('[') || trimmed.startsWith('{')) {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      throw new CliError(`not valid JSON: ${(error as Error).message}`);
    }
    return { contentType: media(IMPORT_JSON), body: JSON.stringify(Array.isArray(value) ? value : [value]) };
  }
  return { contentType: media(IMPORT_YAML), body: text };
}

type Document = Record<string, unknown>;

/** The documents of a file (a JSON array or object, or YAML `---` documents); none when its YAML is broken (the server says where). */
function documentsOf(text: string): Document[] {
  const trimmed = text.trimStart();
  if (trimmed.startsWith('[') || trimmed.startsWith('{')) return JSON.parse(importBody(text).body) as Document[];
  const documents = parseAllDocuments(text);
  if (!Array.isArray(documents) || documents.some((document) => document.errors.length > 0)) return [];
  return documents.map((document) => document.toJS() as Document);
}

const isBlock = (document: Document | null) => document !== null && typeof document === 'object' && document.kind === 'meshBuildingBlock';

/**
 * A block is no object of the import (spec §1): it is created by the API (POST, or PUT when the
 * document names its `metadata.uuid`), as its apiVersion (v2-preview, v1) takes it. One result row.
 */
async function applyBlock(client: ServerClient, document: Document): Promise<ImportResult> {
  const { metadata, ...body } = document;
  const uuid = (metadata as { uuid?: unknown } | undefined)?.uuid;
  const named = typeof uuid === 'string' ? uuid : undefined;
  // v1 names its definition and tenant in metadata; v2-preview has none to send.
  const answer = await sendBlock(client, body.apiVersion === 'v1' ? document : body, named);
  if (answer.status === 200 || answer.status === 201) {
    const block = JSON.parse(answer.body) as WireBlock;
    return {
      meshObject: `meshBuildingBlock[${block.metadata.uuid}]`,
      status: 'SUCCESS',
      resultCode: null,
      message: `${answer.status === 201 ? 'created' : 'updated'}: ${block.status.status}`,
    };
  }
  const displayName = (document.spec as { displayName?: unknown } | undefined)?.displayName;
  return {
    meshObject: `meshBuildingBlock[${named ?? (typeof displayName === 'string' ? displayName : '?')}]`,
    status: 'FAILED',
    resultCode: String(answer.status),
    message: messageOf(answer.body),
  };
}

/**
 * `blockyard apply -f <file>`: the declarative import (`PUT /api/meshobjects`), every object created
 * or updated by its identity; then the file's building blocks, created (they may need what the import
 * made). Prints one row per object; answers whether all succeeded.
 */
export async function applyObjects(
  client: ServerClient,
  text: string,
  options: { collection?: string; owner?: string },
  printer: Printer,
): Promise<boolean> {
  const documents = documentsOf(text);
  const blocks = documents.filter(isBlock);
  if (blocks.length > 0 && options.collection !== undefined)
    throw new CliError('--collection: building blocks are not imported, so they cannot belong to a meshObjectCollection');
  const others = documents.filter((document) => !isBlock(document));
  const results: ImportResult[] = [];
  if (blocks.length === 0 || others.length > 0) {
    // The file as written when it holds no block (the server reports its YAML errors by line).
    const { contentType, body } =
      blocks.length === 0 ? importBody(text) : { contentType: media(IMPORT_JSON), body: JSON.stringify(others) };
    const query = new URLSearchParams();
    if (options.collection !== undefined) query.set('meshObjectCollection', options.collection);
    if (options.owner !== undefined) query.set('owner', options.owner);
    const answer = await withProgress('applying', () =>
      client.request('PUT', `/api/meshobjects${query.size > 0 ? `?${query.toString()}` : ''}`, {
        contentType,
        accept: media(IMPORT_JSON),
        body,
      }),
    );
    if (answer.status !== 200) throw new CliError(refusalMessage('apply', answer));
    results.push(...(JSON.parse(answer.body) as ImportResult[]));
  }
  if (results.every((result) => result.status === 'SUCCESS')) {
    for (const block of blocks) results.push(await withProgress('applying building blocks', () => applyBlock(client, block)));
  } else if (blocks.length > 0) {
    printer.note(`${blocks.length} building block(s) not applied: an object before them failed\n`);
  }
  const rows = results.map((result) => [
    result.meshObject,
    result.status,
    result.resultCode ?? '',
    [result.message ?? '', ...(result.remarks ?? [])].filter(Boolean).join('; '),
  ]);
  printer.out(renderTable(['OBJECT', 'STATUS', 'RESULT CODE', 'MESSAGE'], rows, printer.table));
  const failed = results.filter((result) => result.status !== 'SUCCESS').length;
  if (failed > 0) printer.note(`${failed} of ${results.length} objects failed\n`);
  return failed === 0;
}
