import type { EventTitle } from '../eventlog/titles.js';

/** The events this kind writes: each one's title (the OpenAPI's list where it has one, the same style where it has none — marked "new") and `eventType`. */
export const LOCATION_TITLES = {
  /** new (the OpenAPI's list has no locations) */
  locationCreated: { title: 'Location Created', eventType: 'Created' },
  /** new */
  locationChanged: { title: 'Location Changed', eventType: 'Changed' },
  /** new */
  locationDeleted: { title: 'Location Deleted', eventType: 'Deleted' },
} as const satisfies Record<string, EventTitle>;
