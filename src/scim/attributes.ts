import { invalidFilter, invalidPath } from './errors.js';

export const USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';
export const GROUP_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Group';
export const ENTERPRISE_SCHEMA = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';
export const LIST_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';
export const PATCH_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';

/** A SCIM resource as plain JSON, with canonical attribute names (the extension under its URN). */
export type ScimObject = Record<string, unknown>;

const NAMES = [
  'schemas',
  'id',
  'externalId',
  'meta',
  'userName',
  'name',
  'formatted',
  'familyName',
  'givenName',
  'middleName',
  'honorificPrefix',
  'honorificSuffix',
  'displayName',
  'nickName',
  'profileUrl',
  'title',
  'userType',
  'preferredLanguage',
  'locale',
  'timezone',
  'active',
  'password',
  'emails',
  'phoneNumbers',
  'ims',
  'photos',
  'addresses',
  'groups',
  'entitlements',
  'roles',
  'x509Certificates',
  'value',
  'display',
  'type',
  'primary',
  '$ref',
  'streetAddress',
  'locality',
  'region',
  'postalCode',
  'country',
  'members',
  'employeeNumber',
  'costCenter',
  'organization',
  'division',
  'department',
  'manager',
  'resourceType',
  'created',
  'lastModified',
  'location',
  'version',
];
const CANONICAL = new Map(NAMES.map((name) => [name.toLowerCase(), name]));
const SCHEMAS = [USER_SCHEMA, GROUP_SCHEMA, ENTERPRISE_SCHEMA];

/** Attributes that hold lists (RFC 7643 §4.1.2, §4.2). */
export const MULTI_VALUED = new Set([
  'emails',
  'phoneNumbers',
  'ims',
  'photos',
  'addresses',
  'groups',
  'entitlements',
  'roles',
  'x509Certificates',
  'members',
  'schemas',
]);

/** Attribute names are case-insensitive (RFC 7643 §2.1): the canonical spelling of a known one, else as sent. */
export function canonical(name: string): string {
  const schema = SCHEMAS.find((urn) => urn.toLowerCase() === name.toLowerCase());
  return schema ?? CANONICAL.get(name.toLowerCase()) ?? name;
}

const isPlainObject = (value: unknown): value is ScimObject => typeof value === 'object' && value !== null && !Array.isArray(value);
export { isPlainObject };

/** A body's keys, at every level, in their canonical spelling (`UserName` → `userName`). */
export function canonicalKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonicalKeys);
  if (!isPlainObject(value)) return value;
  const out: ScimObject = {};
  for (const [key, child] of Object.entries(value)) out[canonical(key)] = canonicalKeys(child);
  return out;
}

/** One comparison of a filter: `attr eq value` or `attr pr` (RFC 7644 §3.4.2.2; the forms identity systems send). */
export interface Comparison {
  /** Canonical path, sub-attribute joined by a dot: `userName`, `emails.value`. */
  attr: string;
  op: 'eq' | 'pr';
  value?: string | number | boolean | null;
}

/** A filter: comparisons joined by `and` (every one must hold). */
export type Filter = Comparison[];

const TOKEN = /\s*(?:(\()|(\))|("(?:[^"\\]|\\.)*")|([^\s()"]+))/y;

/**
 * Parses the filters identity systems send: `<attr> eq <value>` and `<attr> pr`, joined by `and`
 * (Entra ID, Okta: `userName eq "…"`, `externalId eq "…"`, `displayName eq "…"`, `type eq "work"`,
 * `value eq "…"`). Other operators, `or` and `not` are `invalidFilter` (400), said plainly.
 */
export function parseFilter(text: string, stripSchema = true): Filter {
  const tokens: string[] = [];
  TOKEN.lastIndex = 0;
  const rest = text.trim();
  if (rest === '') throw invalidFilter('the filter is empty');
  while (TOKEN.lastIndex < rest.length) {
    const match = TOKEN.exec(rest);
    if (!match) throw invalidFilter(`the filter cannot be parsed near "${rest.slice(TOKEN.lastIndex, TOKEN.lastIndex + 30)}"`);
    const token = match[1] ?? match[2] ?? match[3] ?? match[4]!;
    if (token !== '(' && token !== ')') tokens.push(token);
  }
  const filter: Filter = [];
  let index = 0;
  while (index < tokens.length) {
    const attrToken = tokens[index++]!;
    const op = (tokens[index++] ?? '').toLowerCase();
    const attr = canonicalPath(attrToken, stripSchema);
    if (op === 'pr') filter.push({ attr, op: 'pr' });
    else if (op === 'eq') {
      const raw = tokens[index++];
      if (raw === undefined) throw invalidFilter(`"${attrToken} eq" needs a value`);
      filter.push({ attr, op: 'eq', value: filterValue(raw) });
    } else
      throw invalidFilter(
        op === '' ? `"${attrToken}" needs an operator` : `the operator "${op}" is not supported here; use eq or pr, joined by and`,
      );
    if (index < tokens.length) {
      const joiner = tokens[index++]!.toLowerCase();
      if (joiner !== 'and') throw invalidFilter(`"${joiner}" is not supported here; comparisons are joined by and`);
      if (index >= tokens.length) throw invalidFilter('the filter ends after "and"');
    }
  }
  return filter;
}

function filterValue(raw: string): string | number | boolean | null {
  if (raw.startsWith('"')) {
    try {
      return JSON.parse(raw) as string;
    } catch {
      throw invalidFilter(`${raw} is no valid string`);
    }
  }
  const lower = raw.toLowerCase();
  if (lower === 'true') return true;
  if (lower === 'false') return false;
  if (lower === 'null') return null;
  if (/^-?\d+(\.\d+)?$/.test(raw)) return Number(raw);
  throw invalidFilter(`${raw} is no value: strings are quoted ("…")`);
}

/** `urn:…:User:userName` → `userName`, `Emails.Value` → `emails.value` (filters name attributes of the resource itself). */
function canonicalPath(path: string, stripSchema: boolean): string {
  let rest = path;
  if (stripSchema) {
    const schema = SCHEMAS.find((urn) => rest.toLowerCase().startsWith(`${urn.toLowerCase()}:`));
    if (schema) rest = rest.slice(schema.length + 1);
  }
  if (!/^[A-Za-z$][\w$-]*(\.[A-Za-z$][\w$-]*)?$/.test(rest)) throw invalidFilter(`"${path}" is no attribute path`);
  return rest.split('.').map(canonical).join('.');
}

/** Whether an element of a multi-valued attribute matches a filter (strings compare case-insensitively). */
export function matches(element: unknown, filter: Filter): boolean {
  if (!isPlainObject(element))
    return filter.every((c) => c.attr === 'value' && (c.op === 'pr' ? element !== undefined : same(element, c.value)));
  return filter.every((comparison) => {
    const actual = comparison.attr.split('.').reduce<unknown>((value, key) => (isPlainObject(value) ? value[key] : undefined), element);
    return comparison.op === 'pr' ? actual !== undefined && actual !== null && actual !== '' : same(actual, comparison.value);
  });
}

function same(actual: unknown, expected: unknown): boolean {
  if (typeof actual === 'string' && typeof expected === 'string') return actual.toLowerCase() === expected.toLowerCase();
  if (typeof expected === 'boolean' && typeof actual === 'string') return actual.toLowerCase() === String(expected);
  return actual === expected;
}

/** A PATCH path (RFC 7644 §3.5.2): `attr`, `attr.sub`, `attr[filter]`, `attr[filter].sub`, each optionally after a schema URN. */
export interface PatchPath {
  /** The enterprise extension's attributes live under its URN. */
  extension?: string;
  /** Empty when the path is the extension URN alone. */
  attr: string;
  filter?: Filter;
  sub?: string;
}

export function parsePath(path: string): PatchPath {
  let rest = path.trim();
  let extension: string | undefined;
  const schema = SCHEMAS.find((urn) => rest.toLowerCase() === urn.toLowerCase() || rest.toLowerCase().startsWith(`${urn.toLowerCase()}:`));
  if (schema) {
    if (schema === ENTERPRISE_SCHEMA) extension = schema;
    rest = rest.slice(schema.length + 1);
    if (rest === '') {
      if (!extension) throw invalidPath(`"${path}" names a schema, not an attribute`);
      return { extension, attr: '' };
    }
  }
  const match = /^([A-Za-z$][\w$-]*)(?:\[(.*)\])?(?:\.([A-Za-z$][\w$-]*))?$/s.exec(rest);
  if (!match) throw invalidPath(`"${path}" is no attribute path`);
  const [, attr, filterText, sub] = match;
  let filter: Filter | undefined;
  if (filterText !== undefined) {
    try {
      filter = parseFilter(filterText, false);
    } catch (error) {
      throw invalidPath(`"${path}": ${(error as Error).message}`);
    }
  }
  return {
    ...(extension ? { extension } : {}),
    attr: canonical(attr!),
    ...(filter ? { filter } : {}),
    ...(sub !== undefined ? { sub: canonical(sub) } : {}),
  };
}
