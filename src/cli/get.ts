import { refusalMessage, type ServerClient } from './client.js';
import { CliError } from './errors.js';
import { filterQuery } from './filters.js';
import { CLI_KINDS, kindNamed, nearestKindName, type CliKind, type Column } from './kinds.js';
import { cell, renderData, renderTable, valueAt, type OutputFormat, type TableStyle } from './output.js';
import { withProgress } from './progress.js';

type WireObject = Record<string, unknown> & { _links?: { self?: { href: string } } };

interface HalPage {
  _embedded?: Record<string, WireObject[]>;
  _links?: { next?: { href: string } };
}

export interface Printer {
  out(text: string): void;
  /** Notes for people (nothing found, what happened) on stderr. */
  note(text: string): void;
  table: TableStyle;
}

export function requireKind(name: string, kinds: readonly CliKind[] = CLI_KINDS): CliKind {
  const kind = kindNamed(name, kinds);
  if (kind) return kind;
  const nearest = nearestKindName(name, kinds);
  if (nearest !== undefined) throw new CliError(`unknown kind "${name}"; did you mean ${nearest}? (blockyard kinds lists them)`);
  throw new CliError(`unknown kind "${name}"; the kinds: ${kinds.map((candidate) => candidate.names[0]).join(', ')}`);
}

/** A column's value in an object: its first path with a value. */
function columnValue(object: WireObject, column: Column): string {
  for (const path of typeof column.path === 'string' ? [column.path] : column.path) {
    const text = cell(valueAt(object, path));
    if (text !== '') return text;
  }
  return '';
}

/** The identifier the object's own `self` link names it by: what `get <kind> <id>` and `delete` take. */
export function idOf(object: WireObject): string {
  const href = object._links?.self?.href;
  return href === undefined ? '' : decodeURIComponent(new URL(href).pathname.split('/').pop()!);
}

const COMMON_COLUMNS: readonly Column[] = [
  { header: 'DISPLAY NAME', path: 'spec.displayName' },
  { header: 'WORKSPACE', path: 'metadata.ownedByWorkspace' },
];
const COMMON_WIDE_COLUMNS: readonly Column[] = [
  { header: 'UUID', path: 'metadata.uuid' },
  { header: 'CREATED', path: 'metadata.createdOn' },
];

/** The table of `objects`: the id, then the kind's columns; a column empty in every row is left out. */
export function objectTable(kind: CliKind, objects: readonly WireObject[], wide: boolean): { headers: string[]; rows: string[][] } {
  const columns = [...COMMON_COLUMNS, ...kind.columns, ...(wide ? [...COMMON_WIDE_COLUMNS, ...kind.wide] : [])];
  const ids = objects.map(idOf);
  const cells = columns.map((column) =>
    objects.map((object, row) => {
      const text = columnValue(object, column);
      // A uuid column beside an id that is the uuid says nothing new.
      return text === ids[row] ? '' : text;
    }),
  );
  const shown = columns.map((_, index) => index).filter((index) => cells[index]!.some((text) => text !== ''));
  return {
    headers: ['ID', ...shown.map((index) => columns[index]!.header)],
    rows: objects.map((_, row) => [ids[row]!, ...shown.map((index) => cells[index]![row]!)]),
  };
}

/**
 * The path and query of a page's `next` link: followed on the server the login names, never on a host
 * a response names (the credentials go only there; a public URL behind a proxy is another origin).
 */
function nextPath(href: string | undefined): string | undefined {
  if (href === undefined) return undefined;
  const next = new URL(href);
  return `${next.pathname}${next.search}`;
}

/** An object for scripts: as the server sent it, without its HAL links. */
const withoutLinks = ({ _links: _ignored, ...object }: WireObject) => object;

/** Every object of a list, its pages followed (`_links.next`), with a spinner on a terminal. */
export async function listAll(client: ServerClient, kind: CliKind, query: URLSearchParams): Promise<WireObject[]> {
  const plural = kind.names[0]!;
  return withProgress(`listing ${plural}`, async (update) => {
    const found: WireObject[] = [];
    for (let url: string | undefined = `${kind.path}${query.size > 0 ? `?${query.toString()}` : ''}`; url !== undefined;) {
      const page: HalPage = await client.getJson<HalPage>(url, kind.accept, `listing ${plural}`);
      // A list embeds one array, named after the kind.
      found.push(...(Object.values(page._embedded ?? {})[0] ?? []));
      url = nextPath(page._links?.next?.href);
      update(`listing ${plural}: ${found.length}`);
    }
    return found;
  });
}

export interface GetOptions {
  output: OutputFormat;
  filter: string[];
  pageSize?: number;
}

/** `blockyard get <kind> [id]`: one object, or every page of the list (`_links.next` followed). */
export async function getObjects(
  client: ServerClient,
  kindName: string,
  id: string | undefined,
  options: GetOptions,
  printer: Printer,
  /** The kinds it knows: the registry's (a test adds its own). */
  kinds: readonly CliKind[] = CLI_KINDS,
): Promise<void> {
  const kind = requireKind(kindName, kinds);
  const plural = kind.names[0]!;
  let objects: WireObject[];
  if (id !== undefined) {
    if (options.filter.length > 0) throw new CliError('--filter applies to lists; give no id with it');
    objects = [await client.getJson<WireObject>(`${kind.path}/${encodeURIComponent(id)}`, kind.accept, `${kind.kind} ${id}`)];
  } else {
    const query = filterQuery(options.filter, kind.filters, plural);
    if (options.pageSize !== undefined) query.set('size', String(options.pageSize));
    objects = await listAll(client, kind, query);
  }
  if (options.output === 'json' || options.output === 'yaml') {
    const data = objects.map(withoutLinks);
    printer.out(renderData(options.output, id !== undefined ? data[0] : data, id !== undefined));
    return;
  }
  if (objects.length === 0) {
    printer.note(`No ${plural} found.\n`);
    return;
  }
  const { headers, rows } = objectTable(kind, objects, options.output === 'wide');
  printer.out(renderTable(headers, rows, printer.table));
}

/** `blockyard delete <kind> <id>`: 204 deleted, 202 accepted (the deletion goes on, e.g. a block's DESTROY run). */
export async function deleteObject(client: ServerClient, kindName: string, id: string, printer: Printer): Promise<void> {
  const kind = requireKind(kindName);
  const answer = await client.request('DELETE', `${kind.path}/${encodeURIComponent(id)}`, { accept: kind.accept });
  if (answer.status === 204 || answer.status === 200) printer.out(`${kind.kind} ${id} deleted\n`);
  else if (answer.status === 202) printer.out(`${kind.kind} ${id} deletion accepted\n`);
  else throw new CliError(refusalMessage(`deleting ${kind.kind} ${id}`, answer));
}
