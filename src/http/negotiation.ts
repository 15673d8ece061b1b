import { notAcceptable, unsupportedMediaType } from '../lib/errors.js';
import {
  acceptedRanges,
  essence,
  formatMediaType,
  parseVersionedMediaType,
  type MediaRef,
  type RouteMedia,
  type VersionedMediaType,
  type VersionRef,
} from '../lib/media-types.js';
import { isRetired, retiredMessage, type LifecycleEntry } from '../lib/versions.js';
import { REST_VERSIONS } from '../lifecycle.js';

export interface Negotiated {
  /** The vendor segment the client used; responses answer in it. */
  vendor: string;
  /** The Content-Type of the answer (the produced representation in the client's vendor segment). */
  answerType?: string;
  produces?: MediaRef;
  consumes?: MediaRef;
  /** Lifecycle entries of the negotiated versions that are deprecated (not retired). */
  deprecated: LifecycleEntry[];
}

const same = (a: VersionRef, b: VersionRef) => a.kind === b.kind && a.version === b.version;

function describe(refs: readonly MediaRef[], vendor: string): string {
  return refs.map((ref) => formatMediaType(vendor, ref.kind, ref.version, ref.format)).join(', ');
}

/** The retired version a media type names (of any kind: its client learns that it is retired, and why). */
function retiredOf(parsed: VersionedMediaType | undefined, now: Date): LifecycleEntry | undefined {
  const entry = parsed && REST_VERSIONS.of(parsed);
  return entry && isRetired(entry, now) ? entry : undefined;
}

function match(parsed: VersionedMediaType | undefined, offered: readonly MediaRef[], now: Date) {
  if (!parsed) return undefined;
  const retired = retiredOf(parsed, now);
  if (retired) return { retired };
  const ref = offered.find((o) => o.kind === parsed.kind && o.version === parsed.version && (o.format ?? 'hal+json') === parsed.format);
  return ref ? { ref, entry: REST_VERSIONS.of(parsed) } : undefined;
}

/**
 * For a path of a kind this server does not serve (yet): the 406 (Accept) or 415 (Content-Type) a
 * request naming a retired version gets, with the retirement message, as on every route; undefined
 * otherwise (the path then answers 404).
 */
export function retiredVersionNamed(
  headers: { accept?: string; 'content-type'?: string },
  vendors: readonly string[],
  now: Date = new Date(),
) {
  for (const range of acceptedRanges(headers.accept ?? '')) {
    const entry = retiredOf(parseVersionedMediaType(range, vendors), now);
    if (entry) return notAcceptable(retiredMessage(entry));
  }
  const contentType = headers['content-type'];
  const entry = contentType === undefined ? undefined : retiredOf(parseVersionedMediaType(contentType, vendors), now);
  return entry ? unsupportedMediaType(retiredMessage(entry)) : undefined;
}

/**
 * Chooses the representation of a request from its Accept and Content-Type headers, or throws
 * 406 (Accept) / 415 (Content-Type) with a message that names what the route serves.
 */
export function negotiate(
  headers: { accept?: string; 'content-type'?: string },
  media: RouteMedia,
  vendors: readonly string[],
  now: Date = new Date(),
): Negotiated {
  const result: Negotiated = { vendor: vendors[0] ?? 'vendor', deprecated: [] };

  // Accept first: a request without it is 406 whatever else is wrong (spec §7 rule 1).
  if (media.produces) {
    const header = headers.accept;
    if (header === undefined || header.trim() === '') {
      throw notAcceptable(`the Accept header is required; send one of: ${describe(media.produces, result.vendor)}`);
    }
    let retired: LifecycleEntry | undefined;
    for (const range of acceptedRanges(header)) {
      const parsed = parseVersionedMediaType(range, vendors);
      const found = match(parsed, media.produces, now);
      if (found?.retired) retired ??= found.retired;
      if (found?.ref && parsed) {
        result.produces = found.ref;
        result.vendor = parsed.vendor;
        if (found.entry) result.deprecated.push(found.entry);
        break;
      }
    }
    if (result.produces)
      result.answerType = formatMediaType(result.vendor, result.produces.kind, result.produces.version, result.produces.format);
    else {
      if (retired) throw notAcceptable(retiredMessage(retired));
      throw notAcceptable(`Accept "${header}" names no version served here; send one of: ${describe(media.produces, result.vendor)}`);
    }
  }

  const plain = media.plainBodies?.includes(essence(headers['content-type']));
  if (media.plainBodies && !plain && !media.consumes) {
    throw unsupportedMediaType(
      `Content-Type "${essence(headers['content-type'])}" is not supported here; send one of: ${media.plainBodies.join(', ')}`,
    );
  }
  if (media.consumes && !plain) {
    const header = headers['content-type'];
    const parsed = header === undefined ? undefined : parseVersionedMediaType(header, vendors);
    const found = match(parsed, media.consumes, now);
    if (found?.retired) throw unsupportedMediaType(retiredMessage(found.retired));
    if (!found?.ref || !parsed) {
      const sent = header === undefined ? 'no Content-Type' : `Content-Type "${essence(header)}"`;
      throw unsupportedMediaType(`${sent} is not supported here; send one of: ${describe(media.consumes, result.vendor)}`);
    }
    result.consumes = found.ref;
    if (!result.produces) result.vendor = parsed.vendor;
    if (found.entry && !result.deprecated.some((e) => same(e, found.ref))) result.deprecated.push(found.entry);
  }

  return result;
}

/** How long a negotiated result is reused: versions are deprecated and retired on dates, so not forever. */
const REMEMBER_MS = 1000;
const REMEMBERED_PER_ROUTE = 256;
/** By the configured vendors (one array per server), then by route. */
const remembered = new WeakMap<readonly string[], WeakMap<RouteMedia, Map<string, { until: number; negotiated: Readonly<Negotiated> }>>>();

/**
 * `negotiate`, remembered per route and (Accept, Content-Type) pair for a second: clients send the
 * same few header values again and again, and parsing them costs more than the lookup. Only
 * successes are remembered (a refusal builds its own error each time).
 */
export function negotiateRemembered(
  headers: { accept?: string; 'content-type'?: string },
  media: RouteMedia,
  vendors: readonly string[],
): Readonly<Negotiated> {
  let byRoute = remembered.get(vendors);
  if (!byRoute) remembered.set(vendors, (byRoute = new WeakMap()));
  let byHeaders = byRoute.get(media);
  if (!byHeaders) byRoute.set(media, (byHeaders = new Map()));
  const key = `${headers.accept ?? '\u0000'}\n${headers['content-type'] ?? '\u0000'}`;
  const now = Date.now();
  const hit = byHeaders.get(key);
  if (hit && hit.until > now) return hit.negotiated;
  const negotiated = Object.freeze(negotiate(headers, media, vendors, new Date(now)));
  if (byHeaders.size >= REMEMBERED_PER_ROUTE) byHeaders.clear();
  byHeaders.set(key, { until: now + REMEMBER_MS, negotiated });
  return negotiated;
}
