import type { EventTitle } from '../eventlog/titles.js';

/** The events this kind writes: each one's title (the OpenAPI's list where it has one, the same style where it has none — marked "new") and `eventType`. */
export const DEFINITION_TITLES = {
  definitionCreated: { title: 'Building Block Definition Created', eventType: 'Created' },
  definitionModified: { title: 'Building Block Definition Modified', eventType: 'Changed' },
  definitionDeleted: { title: 'Building Block Definition Deleted', eventType: 'Deleted' },
  versionAdded: { title: 'Building Block Definition Version Added', eventType: 'Added' },
  versionModified: { title: 'Building Block Definition Version Modified', eventType: 'Changed' },
  versionReleased: { title: 'Building Block Definition Version Released', eventType: 'Changed' },
  publicationRequested: { title: 'Building Block Definition Marketplace Publication Request', eventType: 'Requested' },
  publicationApproved: { title: 'Building Block Definition Marketplace Publication Request Approved', eventType: 'Approved' },
  publicationRejected: { title: 'Building Block Definition Marketplace Publication Request Rejected', eventType: 'Rejected' },
} as const satisfies Record<string, EventTitle>;
