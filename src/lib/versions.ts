import type { VersionRef } from './media-types.js';

/**
 * Lifecycle of versions (spec §3.4, §9): the spec's two deprecation lists — media-type versions of
 * the REST endpoints and object versions of the declarative import (`src/lifecycle.ts` joins the
 * kinds' entries with the unserved ones below) — drive the Deprecation, Sunset and Link headers, the 406/415 answers for
 * retired versions, the 404 for retired paths and the import's refusals and remarks. A version whose
 * end-of-life date has passed is retired; one with a future or no date is deprecated.
 */

export interface LifecycleEntry extends VersionRef {
  /** ISO date: the last day the version works; undefined = no date announced. */
  endOfLife?: string;
  /** What clients should use instead, as the spec names it. */
  replacedBy: string;
  /** The version this service serves instead, for the `successor-version` link (same path). */
  successor?: VersionRef;
}

/**
 * The entries of the spec's deprecation lists (§9) whose kinds no route of this server serves: they
 * keep answering as retired (http/retired-paths.ts). Every served kind declares its own entries in
 * its manifest (`kinds/<kind>/kind.ts`); `lifecycle.ts` joins them.
 */
export const UNSERVED_LIFECYCLE: readonly LifecycleEntry[] = [
  { kind: 'meshcustomer', version: 'v1', endOfLife: '2025-03-01', replacedBy: 'meshWorkspace' },
  { kind: 'meshcustomerusergroup', version: 'v1', endOfLife: '2025-03-01', replacedBy: 'meshWorkspaceUserGroup' },
  { kind: 'meshchargeback', version: 'v1', endOfLife: '2025-10-01', replacedBy: 'meshTenantUsageReport.v3' },
  { kind: 'meshchargeback', version: 'v2', endOfLife: '2025-10-01', replacedBy: 'meshTenantUsageReport.v3' },
  { kind: 'meshchargeback', version: 'v3', endOfLife: '2025-10-01', replacedBy: 'meshTenantUsageReport.v3' },
];

/** The import's deprecated object versions of kinds the import does not take (spec §9, second table). */
export const UNSERVED_IMPORT_LIFECYCLE: readonly LifecycleEntry[] = [
  { kind: 'meshcustomer', version: 'v1', endOfLife: '2025-03-01', replacedBy: 'meshWorkspace' },
  { kind: 'meshcustomerusergroup', version: 'v1', endOfLife: '2025-03-01', replacedBy: 'meshWorkspaceUserGroup' },
  { kind: 'meshcustomeruserbinding', version: 'v1', endOfLife: '2025-03-01', replacedBy: 'meshWorkspaceUserBinding.v2' },
  { kind: 'meshcustomergroupbinding', version: 'v1', endOfLife: '2025-03-01', replacedBy: 'meshWorkspaceGroupBinding.v2' },
];

/**
 * RFC 9745 needs a date for `Deprecation`. The spec's undated entries carry no announcement date, so
 * they report the date this deprecation list was adopted by Blockyard (documented in the README).
 */
export const UNDATED_DEPRECATION_SINCE = '2025-01-01';

const keyOf = (ref: VersionRef) => `${ref.kind.toLowerCase()}.${ref.version}`;

/** One deprecation list, looked up by version (kind case-insensitive). */
export class VersionLifecycle {
  private readonly byKey: ReadonlyMap<string, LifecycleEntry>;

  constructor(readonly entries: readonly LifecycleEntry[]) {
    this.byKey = new Map(entries.map((entry) => [keyOf(entry), entry]));
  }

  /** The entry of a version (`meshTenant` + `v3`), if it is deprecated or retired. */
  of(ref: VersionRef): LifecycleEntry | undefined {
    return this.byKey.get(keyOf(ref));
  }

  /** The kinds of the list: their collection paths answer for them even while unbuilt. */
  kinds(): string[] {
    return [...new Set(this.entries.map((entry) => entry.kind))];
  }

  /**
   * Kinds whose every version is retired and whose replacement is another kind (meshCustomer →
   * meshWorkspace): their whole path is gone and answers 404 (spec §3.4).
   */
  retiredKinds(now: Date = new Date()): string[] {
    return this.kinds().filter((kind) =>
      this.entries.filter((e) => e.kind === kind).every((e) => isRetired(e, now) && e.replacedBy.split('.')[0]!.toLowerCase() !== kind),
    );
  }
}

/** Fully functional through the end-of-life date, retired from the next midnight UTC on (spec §3.4). */
export function retirementInstant(entry: LifecycleEntry): number | undefined {
  return entry.endOfLife === undefined ? undefined : Date.parse(`${entry.endOfLife}T00:00:00Z`) + 86_400_000;
}

export function isRetired(entry: LifecycleEntry, now: Date = new Date()): boolean {
  const instant = retirementInstant(entry);
  return instant !== undefined && now.getTime() >= instant;
}

export function retiredMessage(entry: LifecycleEntry): string {
  return `version ${entry.version} of ${entry.kind} was retired on ${entry.endOfLife}; use ${entry.replacedBy} instead`;
}

/** What a deprecated (not yet retired) version's users are told: its end of life and replacement. */
export function deprecatedMessage(entry: LifecycleEntry): string {
  const until =
    entry.endOfLife === undefined ? 'deprecated (no end-of-life date announced)' : `deprecated, works through ${entry.endOfLife}`;
  return `version ${entry.version} of ${entry.kind} is ${until}; use ${entry.replacedBy} instead`;
}

/** Headers for a deprecated (not retired) version: Deprecation (RFC 9745), Sunset (RFC 8594), successor Link. */
export function deprecationHeaders(
  entry: LifecycleEntry,
  resourceUrl: string,
  formatType: (ref: VersionRef) => string,
): Record<string, string> {
  const headers: Record<string, string> = { ...datedHeaders(entry) };
  if (entry.successor) {
    headers.link = `<${resourceUrl}>; rel="successor-version"; type="${formatType(entry.successor)}"`;
  }
  return headers;
}

const DEPRECATION = `@${Date.parse(`${UNDATED_DEPRECATION_SINCE}T00:00:00Z`) / 1000}`;
const datedHeadersOf = new WeakMap<LifecycleEntry, Record<string, string>>();

/** Deprecation and Sunset of an entry: the same for every answer of that version, formatted once. */
function datedHeaders(entry: LifecycleEntry): Record<string, string> {
  let headers = datedHeadersOf.get(entry);
  if (!headers) {
    const sunset = retirementInstant(entry);
    headers = { deprecation: DEPRECATION, ...(sunset !== undefined ? { sunset: new Date(sunset).toUTCString() } : {}) };
    datedHeadersOf.set(entry, headers);
  }
  return headers;
}
