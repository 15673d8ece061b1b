import type { VersionRef } from './media-types.js';

/**
 * Lifecycle of versions (spec §3.4, §9): the spec's two deprecation lists — media-type versions of
 * the REST endpoints (`LIFECYCLE`) and object versions of the declarative import
 * (`IMPORT_LIFECYCLE`) — drive the Deprecation, Sunset and Link headers, the 406/415 answers for
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
 * The spec's deprecation list (§9). The spec names meshBuildingBlock.v2 as the replacement of v1; this
 * service serves v2-preview, so that is the successor it links to.
 */
export const LIFECYCLE: readonly LifecycleEntry[] = [
  { kind: 'meshuser', version: 'v1', endOfLife: '2025-03-01', replacedBy: 'meshUser.v2' },
  { kind: 'meshcustomer', version: 'v1', endOfLife: '2025-03-01', replacedBy: 'meshWorkspace' },
  { kind: 'meshserviceinstance', version: 'v1', endOfLife: '2025-03-01', replacedBy: 'meshServiceInstance.v2' },
  { kind: 'meshcustomerusergroup', version: 'v1', endOfLife: '2025-03-01', replacedBy: 'meshWorkspaceUserGroup' },
  { kind: 'meshpaymentmethod', version: 'v1', endOfLife: '2025-07-01', replacedBy: 'meshPaymentMethod.v2' },
  {
    kind: 'meshproject',
    version: 'v1',
    endOfLife: '2025-07-01',
    replacedBy: 'meshProject.v2',
    successor: { kind: 'meshproject', version: 'v2' },
  },
  {
    kind: 'meshtenant',
    version: 'v1',
    endOfLife: '2025-07-01',
    replacedBy: 'meshTenant.v3',
    successor: { kind: 'meshtenant', version: 'v4' },
  },
  {
    kind: 'meshtenant',
    version: 'v2',
    endOfLife: '2025-07-01',
    replacedBy: 'meshTenant.v3',
    successor: { kind: 'meshtenant', version: 'v4' },
  },
  { kind: 'meshchargeback', version: 'v1', endOfLife: '2025-10-01', replacedBy: 'meshTenantUsageReport.v3' },
  { kind: 'meshchargeback', version: 'v2', endOfLife: '2025-10-01', replacedBy: 'meshTenantUsageReport.v3' },
  { kind: 'meshchargeback', version: 'v3', endOfLife: '2025-10-01', replacedBy: 'meshTenantUsageReport.v3' },
  { kind: 'meshworkspace', version: 'v1', replacedBy: 'meshWorkspace.v2', successor: { kind: 'meshworkspace', version: 'v2' } },
  { kind: 'meshtenant', version: 'v3', replacedBy: 'meshTenant.v4', successor: { kind: 'meshtenant', version: 'v4' } },
  {
    kind: 'meshbuildingblock',
    version: 'v1',
    replacedBy: 'meshBuildingBlock.v2',
    successor: { kind: 'meshbuildingblock', version: 'v2-preview' },
  },
  {
    kind: 'meshlandingzone',
    version: 'v1-preview',
    replacedBy: 'meshLandingZone.v1',
    successor: { kind: 'meshlandingzone', version: 'v1' },
  },
  { kind: 'meshplatform', version: 'v1', replacedBy: 'meshPlatform.v2', successor: { kind: 'meshplatform', version: 'v2' } },
  { kind: 'meshplatform', version: 'v2-preview', replacedBy: 'meshPlatform.v2', successor: { kind: 'meshplatform', version: 'v2' } },
  {
    kind: 'meshplatformtype',
    version: 'v1-preview',
    replacedBy: 'meshPlatformType.v1',
    successor: { kind: 'meshplatformtype', version: 'v1' },
  },
  {
    kind: 'meshintegration',
    version: 'v1-preview',
    replacedBy: 'meshIntegration.v1',
    successor: { kind: 'meshintegration', version: 'v1' },
  },
  { kind: 'meshlocation', version: 'v1-preview', replacedBy: 'meshLocation.v1', successor: { kind: 'meshlocation', version: 'v1' } },
];

/** The spec's deprecated objects of the declarative import (§9, its second table), by object version. */
export const IMPORT_LIFECYCLE: readonly LifecycleEntry[] = [
  { kind: 'meshcustomer', version: 'v1', endOfLife: '2025-03-01', replacedBy: 'meshWorkspace' },
  { kind: 'meshcustomerusergroup', version: 'v1', endOfLife: '2025-03-01', replacedBy: 'meshWorkspaceUserGroup' },
  { kind: 'meshcustomeruserbinding', version: 'v1', endOfLife: '2025-03-01', replacedBy: 'meshWorkspaceUserBinding.v2' },
  { kind: 'meshcustomergroupbinding', version: 'v1', endOfLife: '2025-03-01', replacedBy: 'meshWorkspaceGroupBinding.v2' },
  { kind: 'meshuser', version: 'v1', endOfLife: '2025-07-01', replacedBy: 'meshUser.v2' },
  { kind: 'meshpaymentmethod', version: 'v1', endOfLife: '2025-07-01', replacedBy: 'meshPaymentMethod.v2' },
  { kind: 'meshproject', version: 'v1', endOfLife: '2025-07-01', replacedBy: 'meshProject.v2' },
  { kind: 'meshtenant', version: 'v1', endOfLife: '2025-07-01', replacedBy: 'meshTenant.v3' },
  { kind: 'meshtenant', version: 'v2', endOfLife: '2025-07-01', replacedBy: 'meshTenant.v3' },
  { kind: 'meshserviceinstance', version: 'v1', endOfLife: '2025-07-01', replacedBy: 'meshServiceInstance.v2' },
  { kind: 'meshprojectuserbinding', version: 'v1', endOfLife: '2025-07-01', replacedBy: 'meshProjectUserBinding.v3' },
  { kind: 'meshprojectgroupbinding', version: 'v1', endOfLife: '2025-07-01', replacedBy: 'meshProjectGroupBinding.v3' },
  { kind: 'meshworkspacegroupbinding', version: 'v1', endOfLife: '2025-07-01', replacedBy: 'meshWorkspaceGroupBinding.v2' },
  { kind: 'meshworkspace', version: 'v1', replacedBy: 'meshWorkspace.v2' },
  { kind: 'meshworkspaceuserbinding', version: 'v1', replacedBy: 'meshWorkspaceUserBinding.v2' },
  { kind: 'meshprojectuserbinding', version: 'v2', replacedBy: 'meshProjectUserBinding.v3' },
  { kind: 'meshprojectgroupbinding', version: 'v2', replacedBy: 'meshProjectGroupBinding.v3' },
  { kind: 'meshtenant', version: 'v3', replacedBy: 'meshTenant.v4' },
];

/**
 * RFC 9745 needs a date for `Deprecation`. The spec's undated entries carry no announcement date, so
 * they report the date this deprecation list was adopted by Blockyard (documented in the README).
 */
export const UNDATED_DEPRECATION_SINCE = '2025-01-01';

const keyOf = (ref: VersionRef) => `${ref.kind.toLowerCase()}.${ref.version}`;
const byKey = new Map(LIFECYCLE.map((entry) => [keyOf(entry), entry]));
const importByKey = new Map(IMPORT_LIFECYCLE.map((entry) => [keyOf(entry), entry]));

/** The REST lifecycle entry of a media-type version (kind case-insensitive). */
export function lifecycleOf(ref: VersionRef): LifecycleEntry | undefined {
  return byKey.get(keyOf(ref));
}

/** The import lifecycle entry of an object version (`meshTenant` + `v3`; kind case-insensitive). */
export function importLifecycleOf(ref: VersionRef): LifecycleEntry | undefined {
  return importByKey.get(keyOf(ref));
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

/** The kinds of the REST deprecation list: their collection paths answer for them even while unbuilt. */
export function lifecycleKinds(): string[] {
  return [...new Set(LIFECYCLE.map((entry) => entry.kind))];
}

/**
 * Kinds whose every version is retired and whose replacement is another kind (meshCustomer →
 * meshWorkspace): their whole path is gone and answers 404 (spec §3.4).
 */
export function retiredKinds(now: Date = new Date()): string[] {
  const kinds = new Set(LIFECYCLE.map((entry) => entry.kind));
  return [...kinds].filter((kind) =>
    LIFECYCLE.filter((e) => e.kind === kind).every((e) => isRetired(e, now) && e.replacedBy.split('.')[0]!.toLowerCase() !== kind),
  );
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
