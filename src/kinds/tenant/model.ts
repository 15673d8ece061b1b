import type { SentObject } from '../document.js';
import type { PlatformReference } from '../platform/model.js';

/** The internal tenant (meshTenant v4): one per project and platform, identified by uuid. */
export interface Tenant {
  uuid: string;
  workspace: string;
  project: string;
  platform: { uuid: string; name: string; location: string; platformType: string };
  platformTenantId: string;
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
  document: SentObject;
}

/** `<workspace>.<project>.<platform>.<location>` (spec §2.4). */
export const tenantName = (tenant: Pick<Tenant, 'workspace' | 'project' | 'platform'>) => `${tenant.workspace}.${tenant.project}.${tenant.platform.name}.${tenant.platform.location}`;

export function parseTenantName(name: string): { workspace: string; project: string; platform: string; location: string } | undefined {
  const parts = name.split('.');
  if (parts.length !== 4 || parts.some((part) => part === '')) return undefined;
  const [workspace, project, platform, location] = parts as [string, string, string, string];
  return { workspace, project, platform, location };
}

export const TENANT_DELETION_STATES = ['ACTIVE', 'DELETED', 'ALL'] as const;
export type TenantDeletionState = (typeof TENANT_DELETION_STATES)[number];
