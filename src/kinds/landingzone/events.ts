import type { EventTitle } from '../eventlog/titles.js';

/** The events this kind writes: each one's title (the OpenAPI's list where it has one, the same style where it has none — marked "new") and `eventType`. */
export const LANDING_ZONE_TITLES = {
  landingZoneCreated: { title: 'Landing Zone Created', eventType: 'Created' },
  landingZoneChanged: { title: 'Landing Zone Changed', eventType: 'Changed' },
  /** DELETE disables the zone */
  landingZoneDeleted: { title: 'Landing Zone Deleted', eventType: 'Deleted' },
} as const satisfies Record<string, EventTitle>;
