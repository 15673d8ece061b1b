import type { EventTitle } from '../eventlog/titles.js';

/** The events this kind writes: each one's title (the OpenAPI's list where it has one, the same style where it has none — marked "new") and `eventType`. */
export const SERVICE_INSTANCE_TITLES = {
  /** new (the OpenAPI's list has no service instances) */
  serviceInstanceCreated: { title: 'Service Instance Created', eventType: 'Created' },
  /** new */
  serviceInstanceChanged: { title: 'Service Instance Changed', eventType: 'Changed' },
  /** new: DELETE accepted; the instance is DELETING until it is gone */
  serviceInstanceDeleted: { title: 'Service Instance Deleted', eventType: 'Deleted' },
} as const satisfies Record<string, EventTitle>;
