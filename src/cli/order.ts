import { isUuid } from '../lib/validation.js';
import { refusalMessage, type Answer, type ServerClient } from './client.js';
import { CliError } from './errors.js';
import { listAll, requireKind, type Printer } from './get.js';
import { renderData, renderTable, type OutputFormat } from './output.js';

/** The fields of a definition the order reads. */
interface WireDefinition {
  metadata: { uuid: string };
  spec: { displayName: string };
  status: { latestReleasedVersionUuid?: string | null };
}

/** The fields of a block the CLI prints. */
export interface WireBlock {
  metadata: { uuid: string };
  spec: { displayName: string };
  status: { status: string };
}

/** Where a block goes: a tenant (by uuid) or a workspace (by identifier), as v2-preview's `targetRef` names them. */
export type Target = { tenant: string } | { workspace: string };

/**
 * The definition a name or uuid stands for, as the caller sees it: by uuid directly, else the one
 * whose display name is exactly that (then ignoring case). Two of the same name must be told apart by uuid.
 */
async function findDefinition(client: ServerClient, nameOrUuid: string): Promise<WireDefinition> {
  const definitions = requireKind('definitions');
  if (isUuid(nameOrUuid))
    return client.getJson<WireDefinition>(`${definitions.path}/${nameOrUuid}`, definitions.accept, `definition ${nameOrUuid}`);
  const all = (await listAll(client, definitions, new URLSearchParams())) as unknown as WireDefinition[];
  const exact = all.filter((definition) => definition.spec.displayName === nameOrUuid);
  const found =
    exact.length > 0 ? exact : all.filter((definition) => definition.spec.displayName.toLowerCase() === nameOrUuid.toLowerCase());
  if (found.length === 0)
    throw new CliError(`no building block definition named "${nameOrUuid}" is offered to you (blockyard get definitions lists them)`);
  if (found.length > 1)
    throw new CliError(
      `${found.length} definitions are named "${nameOrUuid}": order one by its uuid (${found.map((definition) => definition.metadata.uuid).join(', ')})`,
    );
  return found[0]!;
}

/** `--input key=value …` as v2-preview input rows; values as text (the server types them by the version's inputs). */
export function inputRows(inputs: readonly string[]): { key: string; value: string }[] {
  const rows = new Map<string, string>();
  for (const input of inputs) {
    const equals = input.indexOf('=');
    if (equals <= 0) throw new CliError(`--input "${input}": expected key=value`);
    const key = input.slice(0, equals);
    if (rows.has(key)) throw new CliError(`--input ${key}: given twice`);
    rows.set(key, input.slice(equals + 1));
  }
  return [...rows].map(([key, value]) => ({ key, value }));
}

/** Creates (POST) or, naming `uuid`, updates (PUT) a block from a v2-preview or v1 body: the raw answer. */
export function sendBlock(client: ServerClient, body: Record<string, unknown>, uuid?: string): Promise<Answer> {
  const blocks = requireKind('blocks');
  const version = typeof body.apiVersion === 'string' ? body.apiVersion : 'v2-preview';
  const media = blocks.accept.replace(/\.v2-preview\./, `.${version}.`);
  const path = uuid === undefined ? blocks.path : `${blocks.path}/${encodeURIComponent(uuid)}`;
  return client.request(uuid === undefined ? 'POST' : 'PUT', path, { accept: media, contentType: media, body: JSON.stringify(body) });
}

export interface OrderOptions {
  target: Target;
  inputs: readonly string[];
  name?: string;
  output: OutputFormat;
}

/**
 * `blockyard order <definition> --tenant|--workspace … --input k=v`: a block of the definition's
 * latest released version offered to the caller (`status.latestReleasedVersionUuid` as the caller
 * reads it), named after the definition unless `--name` says otherwise. Prints its uuid and status.
 */
export async function orderBlock(client: ServerClient, definitionName: string, options: OrderOptions, printer: Printer): Promise<void> {
  const definition = await findDefinition(client, definitionName);
  const versionUuid = definition.status.latestReleasedVersionUuid;
  if (!versionUuid)
    throw new CliError(`definition "${definition.spec.displayName}" (${definition.metadata.uuid}) has no released version offered to you`);
  const targetRef =
    'tenant' in options.target
      ? { kind: 'meshTenant', uuid: options.target.tenant }
      : { kind: 'meshWorkspace', identifier: options.target.workspace };
  const answer = await sendBlock(client, {
    apiVersion: 'v2-preview',
    kind: 'meshBuildingBlock',
    spec: {
      displayName: options.name ?? definition.spec.displayName,
      buildingBlockDefinitionVersionRef: { kind: 'meshBuildingBlockDefinitionVersion', uuid: versionUuid },
      targetRef,
      inputs: inputRows(options.inputs),
      parentBuildingBlocks: [],
    },
  });
  if (answer.status !== 201) throw new CliError(refusalMessage(`ordering "${definition.spec.displayName}"`, answer));
  const block = JSON.parse(answer.body) as WireBlock & { _links?: unknown };
  if (options.output === 'json' || options.output === 'yaml') {
    const { _links: _ignored, ...data } = block;
    printer.out(renderData(options.output, data, true));
    return;
  }
  printer.out(
    renderTable(['BLOCK', 'DISPLAY NAME', 'STATUS'], [[block.metadata.uuid, block.spec.displayName, block.status.status]], printer.table),
  );
  printer.note(`Follow its run: blockyard runs logs ${block.metadata.uuid} --follow\n`);
}
