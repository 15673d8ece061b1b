import {
  canonical,
  canonicalKeys,
  isPlainObject,
  matches,
  MULTI_VALUED,
  parsePath,
  PATCH_SCHEMA,
  type Filter,
  type PatchPath,
  type ScimObject,
} from './attributes.js';
import { invalidSyntax, invalidValue, noTarget } from './errors.js';

type Op = 'add' | 'replace' | 'remove';

/** At most this many operations per PATCH (one request stays bounded). */
export const MAX_OPERATIONS = 1000;

/**
 * Applies a PATCH body (RFC 7644 §3.5.2) to a resource's SCIM representation, as Entra ID and Okta
 * send it: `op` in any case (`Replace`), path-less `add`/`replace` whose value object names attributes
 * or whole paths (`{"name.givenName": "Jane", "active": false}`), `emails[type eq "work"].value`
 * (creating the element when none matches), `members` add/remove with value lists, and
 * `members[value eq "…"]` remove. The caller maps the result back and checks what may not change.
 */
export function applyPatch(resource: ScimObject, body: unknown): ScimObject {
  if (!isPlainObject(body)) throw invalidSyntax('the body must be a PatchOp object');
  const schemas = body.schemas ?? body.Schemas;
  if (schemas !== undefined && (!Array.isArray(schemas) || !schemas.includes(PATCH_SCHEMA)))
    throw invalidSyntax(`schemas must name ${PATCH_SCHEMA}`);
  const operations = body.Operations ?? body.operations;
  if (!Array.isArray(operations) || operations.length === 0) throw invalidSyntax('Operations: a non-empty list of operations is required');
  if (operations.length > MAX_OPERATIONS) throw invalidSyntax(`Operations: at most ${MAX_OPERATIONS} operations per request`);
  const result = structuredClone(resource);
  operations.forEach((operation, index) => {
    if (!isPlainObject(operation)) throw invalidSyntax(`Operations[${index}]: an object is required`);
    const op = String(operation.op ?? operation.Op ?? '').toLowerCase();
    if (op !== 'add' && op !== 'replace' && op !== 'remove')
      throw invalidSyntax(`Operations[${index}].op: add, replace or remove, got ${JSON.stringify(operation.op ?? null)}`);
    const path = operation.path ?? operation.Path;
    const value = canonicalKeys(operation.value ?? operation.Value);
    if (path !== undefined && path !== null && typeof path !== 'string')
      throw invalidSyntax(`Operations[${index}].path: a string is required`);
    if (path === undefined || path === null || path === '') {
      if (op === 'remove') throw noTarget(`Operations[${index}]: remove needs a path`);
      if (!isPlainObject(value))
        throw invalidValue(`Operations[${index}].value: an object of attributes is required when there is no path`);
      for (const [key, child] of Object.entries(value)) applyAt(result, op, parsePath(key), child);
      return;
    }
    if (op !== 'remove' && value === undefined) throw invalidValue(`Operations[${index}].value is required for ${op}`);
    applyAt(result, op, parsePath(path), value);
  });
  return result;
}

function applyAt(resource: ScimObject, op: Op, path: PatchPath, value: unknown): void {
  let container = resource;
  if (path.extension) {
    const existing = resource[path.extension];
    container = isPlainObject(existing) ? existing : {};
    resource[path.extension] = container;
    if (path.attr === '') {
      if (op === 'remove') return void delete resource[path.extension];
      if (!isPlainObject(value)) throw invalidValue(`${path.extension}: an object of attributes is required`);
      for (const [key, child] of Object.entries(value)) applyAt(container, op, { attr: canonical(key) }, child);
      return;
    }
  }
  const { attr, filter, sub } = path;
  if (filter) return applyFiltered(container, op, attr, filter, sub, value);
  if (sub !== undefined) {
    const current = container[attr];
    if (Array.isArray(current)) {
      for (const element of current) if (isPlainObject(element)) setOrRemove(element, op, sub, value);
      return;
    }
    if (op === 'remove') {
      if (isPlainObject(current)) delete current[sub];
      return;
    }
    const target = isPlainObject(current) ? current : {};
    container[attr] = target;
    target[sub] = value;
    return;
  }
  setOrRemove(container, op, attr, value);
}

/** `attr` of an object: add appends to lists (skipping equal values) and merges objects; replace merges objects, sets the rest; remove deletes (a list's given values only, when a value is sent). */
function setOrRemove(container: ScimObject, op: Op, attr: string, value: unknown): void {
  const current = container[attr];
  const multi = MULTI_VALUED.has(attr) || Array.isArray(current);
  if (op === 'remove') {
    if (value !== undefined && value !== null && Array.isArray(current)) {
      const gone = (Array.isArray(value) ? value : [value]).map(identity);
      container[attr] = current.filter((element) => !gone.includes(identity(element)));
    } else delete container[attr];
    return;
  }
  if (multi) {
    const values = Array.isArray(value) ? value : [value];
    if (op === 'replace' || !Array.isArray(current)) {
      container[attr] = dedupe(values);
      return;
    }
    container[attr] = dedupe([...current, ...values]);
    return;
  }
  if (isPlainObject(value) && isPlainObject(current)) container[attr] = { ...current, ...value };
  else container[attr] = value;
}

/** `attr[filter]` and `attr[filter].sub`. A filter of `eq` comparisons that matches nothing creates the element on add/replace. */
function applyFiltered(container: ScimObject, op: Op, attr: string, filter: Filter, sub: string | undefined, value: unknown): void {
  const current = Array.isArray(container[attr]) ? (container[attr] as unknown[]) : [];
  const hits = current.filter((element) => matches(element, filter));
  if (op === 'remove') {
    if (sub === undefined) container[attr] = current.filter((element) => !hits.includes(element));
    else for (const hit of hits) if (isPlainObject(hit)) delete hit[sub];
    return;
  }
  if (hits.length === 0) {
    if (!filter.every((comparison) => comparison.op === 'eq' && !comparison.attr.includes('.')))
      throw noTarget(`no value of ${attr} matches the filter`);
    const created: ScimObject = Object.fromEntries(filter.map((comparison) => [comparison.attr, comparison.value]));
    if (sub !== undefined) created[sub] = value;
    else if (isPlainObject(value)) Object.assign(created, value);
    else throw invalidValue(`${attr}: an object is required`);
    container[attr] = [...current, created];
    return;
  }
  for (const hit of hits) {
    if (!isPlainObject(hit)) continue;
    if (sub !== undefined) hit[sub] = value;
    else if (isPlainObject(value)) {
      if (op === 'replace') for (const key of Object.keys(hit)) delete hit[key];
      Object.assign(hit, value);
    } else throw invalidValue(`${attr}: an object is required`);
  }
}

/** What makes two values of a list the same: their `value` when they have one (members, emails), else the whole value. */
function identity(element: unknown): string {
  if (isPlainObject(element) && element.value !== undefined) return `v:${String(element.value).toLowerCase()}`;
  return `j:${JSON.stringify(element)}`;
}

function dedupe(values: unknown[]): unknown[] {
  const seen = new Set<string>();
  return values.filter((value) => {
    const key = identity(value);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
