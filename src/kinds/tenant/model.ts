import type { SentObject } from '../document.js';
import type { PlatformReference } from '../platform/model.js';

/** Its collection path. */
export const TENANTS_PATH = '/api/meshobjects/meshtenants';

/** The internal tenant (meshTenant v4): one per project and platform, identified by uuid. */
export interface Tenant {
  uuid: string;
  workspace: string;
  project: string;
  platform: { uuid: string; name: string; location: string; platformType: string };
  platformTenantId: string;
  /** The landing zone's identifier (v4 `spec.landingZoneRef.name`, v4-preview and v3 `spec.landingZoneIdentifier`). */
  landingZone?: string;
  createdOn: string;
  /** Set once deleted; the record stays (lifecycle DELETED) until purged. */
  deletedOn?: string;
  document: SentObject;
}

export interface TenantInput {
  workspace: string;
  project: string;
  /** `spec.platformRef.uuid` and/or `spec.platformIdentifier` as sent (v4 and v4-preview). */
  platformRefs: PlatformReference[];
  platformTenantId?: string;
  landingZone?: string;
  document: SentObject;
}

/** `<workspace>.<project>.<platform>.<location>` (spec §2.4). */
export const tenantName = (tenant: Pick<Tenant, 'workspace' | 'project' | 'platform'>) =>
  `${tenant.workspace}.${tenant.project}.${tenant.platform.name}.${tenant.platform.location}`;

export function parseTenantName(name: string): { workspace: string; project: string; platform: string; location: string } | undefined {
  const parts = name.split('.');
  if (parts.length !== 4 || parts.some((part) => part === '')) return undefined;
  const [workspace, project, platform, location] = parts as [string, string, string, string];
  return { workspace, project, platform, location };
}

/**
 * A tenant's `status.lifecycle.state` (the list's `state` filter, OpenAPI). There is no replication
 * here, so a tenant goes from ACTIVE to DELETED at once and is never MARKED_FOR_DELETION.
 */
export const TENANT_STATES = ['ACTIVE', 'MARKED_FOR_DELETION', 'DELETED'] as const;
export type TenantState = (typeof TENANT_STATES)[number];

/** The older single-valued `deletionState` filter: the states, or ALL of them. */
export const TENANT_DELETION_STATES = [...TENANT_STATES, 'ALL'] as const;

/** A tenant's applied quotas as the OpenAPI shows them (`spec.quotas`): `[{key, value}]`, `[]` when none. */
export interface TenantQuota {
  key: string;
  value: number;
}

/** The quotas a tenant requested: `spec.quotas` as sent (v4-preview, v3), else v4's `spec.requestedQuotas` map. */
export function quotasOf(tenant: Pick<Tenant, 'document'>): TenantQuota[] {
  const { quotas, requestedQuotas } = tenant.document.spec as {
    quotas?: TenantQuota[];
    requestedQuotas?: Record<string, { value: number }>;
  };
  if (Array.isArray(quotas)) return quotas;
  if (requestedQuotas !== undefined) return Object.entries(requestedQuotas).map(([key, quota]) => ({ key, value: quota.value }));
  return [];
}

/** The quotas a tenant got (`status.appliedQuotas`); a tenant written before they were kept: its requested ones. */
export function appliedQuotasOf(tenant: Pick<Tenant, 'document'>): Record<string, { value: number }> {
  const kept = tenant.document.status?.appliedQuotas as Record<string, { value: number }> | undefined;
  return kept ?? Object.fromEntries(quotasOf(tenant).map(({ key, value }) => [key, { value }]));
}

/** The applied quotas as the OpenAPI lists them (`spec.quotas`). */
export const appliedQuotaList = (tenant: Pick<Tenant, 'document'>): TenantQuota[] =>
  Object.entries(appliedQuotasOf(tenant)).map(([key, { value }]) => ({ key, value }));
