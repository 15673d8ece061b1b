/**
 * The versioned media types of the API (spec §4, §9):
 *   application/vnd.<vendor>.api.<kind>.<version>.hal+json   (resources)
 *   application/vnd.<vendor>.api.<version>.hal+json          (the top-level index: kind "")
 *   application/vnd.<vendor>.api.<kind>.<version>+json|+yaml (the declarative import)
 * Matched case-insensitively (real clients send camelCase kinds); parameters such as
 * `charset=UTF-8` are allowed and ignored.
 */

/** A versioned kind: `meshbuildingblock` + `v2-preview` (the lower-case media-type segment). */
export interface VersionRef {
  /** Lower-case media-type kind segment, e.g. `meshbuildingblock`; "" for the top-level index. */
  kind: string;
  version: string;
}

/** A representation a route speaks: a versioned kind, as HAL+JSON unless another format is named. */
export interface MediaRef extends VersionRef {
  format?: VersionedMediaType['format'];
  /**
   * Served under this vendor segment only, where it takes the place of the representation without one
   * (a form the original answers today under its own segment, COMPAT §1 "Colliding forms").
   */
  vendor?: string;
}

/** What a route speaks. */
export interface RouteMedia {
  /** Representations the route answers with: the Accept header must name one (spec §7 rule 1). */
  produces?: readonly MediaRef[];
  /** Representations the route takes as body: the Content-Type must name one (spec §7 rule 2). */
  consumes?: readonly MediaRef[];
  /** Unversioned body types a route takes as well (login: forms and plain JSON), as essences. */
  plainBodies?: readonly string[];
}

export interface VersionedMediaType {
  vendor: string;
  /** Lower-case kind segment, "" for the top-level index. */
  kind: string;
  version: string;
  /** `hal+json`, `json` or `yaml`. */
  format: 'hal+json' | 'json' | 'yaml';
}

const VERSIONED = /^application\/vnd\.([a-z0-9-]+)\.api\.(?:([a-z][a-z0-9]*)\.)?(v\d+(?:-preview)?)(?:\.hal\+json|\+(json|yaml))$/;

/** The media type without parameters, lower-cased, or "" when the header is empty. */
export function essence(header: string | undefined): string {
  if (header === undefined) return '';
  const semi = header.indexOf(';');
  return (semi === -1 ? header : header.slice(0, semi)).trim().toLowerCase();
}

/** Parses one media range (no commas); undefined when it is not a versioned type of a known vendor. */
export function parseVersionedMediaType(value: string, vendors: readonly string[]): VersionedMediaType | undefined {
  const match = VERSIONED.exec(essence(value));
  if (!match) return undefined;
  const [, vendor, kind, version, suffix] = match as unknown as [string, string, string | undefined, string, string | undefined];
  if (!vendors.includes(vendor)) return undefined;
  return { vendor, kind: kind ?? '', version, format: suffix === undefined ? 'hal+json' : (suffix as 'json' | 'yaml') };
}

export function formatMediaType(vendor: string, kind: string, version: string, format: VersionedMediaType['format'] = 'hal+json'): string {
  const base = kind === '' ? `application/vnd.${vendor}.api.${version}` : `application/vnd.${vendor}.api.${kind}.${version}`;
  return format === 'hal+json' ? `${base}.hal+json` : `${base}+${format}`;
}

/** Splits an Accept header into media ranges ordered by quality (stable for equal q); q=0 ranges are dropped. */
export function acceptedRanges(header: string): string[] {
  const ranges: { value: string; q: number; index: number }[] = [];
  header.split(',').forEach((part, index) => {
    const value = part.trim();
    if (value === '') return;
    const q = /;\s*q=([0-9.]+)/i.exec(value);
    const quality = q ? Number(q[1]) : 1;
    if (!(quality > 0)) return;
    ranges.push({ value, q: quality, index });
  });
  return ranges.sort((a, b) => b.q - a.q || a.index - b.index).map((r) => r.value);
}

export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';
