import { IMPORT_JSON, IMPORT_YAML } from '../import/routes.js';
import { formatMediaType } from '../lib/media-types.js';
import { refusalMessage, type ServerClient } from './client.js';
import { CliError } from './errors.js';
import type { Printer } from './get.js';
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

/**
 * `blockyard apply -f <file>`: the declarative import (`PUT /api/meshobjects`), every object created
 * or updated by its identity. Prints one row per object; answers whether all succeeded.
 */
export async function applyObjects(client: ServerClient, text: string, options: { collection?: string; owner?: string }, printer: Printer): Promise<boolean> {
  const { contentType, body } = importBody(text);
  const query = new URLSearchParams();
  if (options.collection !== undefined) query.set('meshObjectCollection', options.collection);
  if (options.owner !== undefined) query.set('owner', options.owner);
  const answer = await withProgress('applying', () =>
    client.request('PUT', `/api/meshobjects${query.size > 0 ? `?${query.toString()}` : ''}`, { contentType, accept: media(IMPORT_JSON), body }),
  );
  if (answer.status !== 200) throw new CliError(refusalMessage('apply', answer));
  const results = JSON.parse(answer.body) as ImportResult[];
  const rows = results.map((result) => [result.meshObject, result.status, result.resultCode ?? '', [result.message ?? '', ...(result.remarks ?? [])].filter(Boolean).join('; ')]);
  printer.out(renderTable(['OBJECT', 'STATUS', 'RESULT CODE', 'MESSAGE'], rows, printer.table));
  const failed = results.filter((result) => result.status !== 'SUCCESS').length;
  if (failed > 0) printer.note(`${failed} of ${results.length} objects failed\n`);
  return failed === 0;
}
