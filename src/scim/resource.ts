import { createHash } from 'node:crypto';
import { invalidValue } from './errors.js';
import { canonical, isPlainObject, LIST_SCHEMA, type ScimObject } from './attributes.js';

/** At most this many resources per list answer (ServiceProviderConfig `filter.maxResults`). */
export const MAX_RESULTS = 200;

/** `meta` (RFC 7643 §3.1): `version` is a weak entity tag of the representation. */
export function withMeta(
  resource: ScimObject,
  meta: { resourceType: string; created: string; lastModified?: string; location: string },
): ScimObject {
  const version = `W/"${createHash('sha256').update(JSON.stringify(resource)).digest('hex').slice(0, 20)}"`;
  return {
    ...resource,
    meta: {
      resourceType: meta.resourceType,
      created: meta.created,
      lastModified: meta.lastModified ?? meta.created,
      location: meta.location,
      version,
    },
  };
}

/** `startIndex` (1-based, default 1; below 1 counts as 1) and `count` (default and at most 200; below 0 counts as 0), RFC 7644 §3.4.2.4. */
export function paging(query: Record<string, string | undefined>): { startIndex: number; count: number } {
  const number = (name: string, fallback: number) => {
    const raw = query[name];
    if (raw === undefined || raw === '') return fallback;
    if (!/^-?\d{1,15}$/.test(raw)) throw invalidValue(`${name}: an integer is required, got "${raw}"`);
    return Number(raw);
  };
  return { startIndex: Math.max(1, number('startIndex', 1)), count: Math.min(MAX_RESULTS, Math.max(0, number('count', MAX_RESULTS))) };
}

export function listResponse(resources: ScimObject[], total: number, startIndex: number) {
  return { schemas: [LIST_SCHEMA], totalResults: total, startIndex, itemsPerPage: resources.length, Resources: resources };
}

/**
 * `attributes` / `excludedAttributes` (RFC 7644 §3.4.2.5), at the top level: `id`, `schemas` and
 * `meta` always stay (they are "returned always"); `excludedAttributes=members` is what Entra ID sends.
 */
export function project(resource: ScimObject, query: Record<string, string | undefined>): ScimObject {
  const names = (raw: string | undefined) =>
    (raw ?? '')
      .split(',')
      .map((name) => canonical(name.trim().split('.')[0]!))
      .filter(Boolean);
  const wanted = names(query.attributes);
  const excluded = names(query.excludedAttributes);
  if (wanted.length === 0 && excluded.length === 0) return resource;
  const always = new Set(['id', 'schemas', 'meta']);
  const out: ScimObject = {};
  for (const [key, value] of Object.entries(resource)) {
    if (always.has(key) || ((wanted.length === 0 || wanted.includes(key)) && !excluded.includes(key))) out[key] = value;
  }
  return out;
}

/** The body of a POST or PUT: an object, its attribute names canonical. */
export function resourceBody(body: unknown): ScimObject {
  if (!isPlainObject(body)) throw invalidValue('the body must be a SCIM resource (a JSON object)');
  return body;
}
