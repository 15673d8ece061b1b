import type { EventTitle } from '../eventlog/titles.js';

/** The events this kind writes: each one's title (the OpenAPI's list where it has one, the same style where it has none — marked "new") and `eventType`. */
export const TENANT_TITLES = {
  tenantCreated: { title: 'Tenant Created', eventType: 'Created' },
  /** new */
  tenantChanged: { title: 'Tenant Changed', eventType: 'Changed' },
  tenantDeleted: { title: 'Tenant Deleted', eventType: 'Deleted' },
  tenantPurged: { title: 'Tenant Purged', eventType: 'Deleted' },
} as const satisfies Record<string, EventTitle>;
