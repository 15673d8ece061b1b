import type { SentObject } from '../document.js';

/** Its collection path. */
export const LOCATIONS_PATH = '/api/meshobjects/meshlocations';

/** The internal location: identified by its name; its uuid is informational (COMPAT §7). */
export interface Location {
  name: string;
  uuid: string;
  displayName: string;
  ownedByWorkspace?: string;
  createdOn: string;
  /** Whether a public platform stands at this location (computed on read). */
  isPublic: boolean;
  document: SentObject;
}

export interface LocationInput {
  name: string;
  displayName: string;
  ownedByWorkspace?: string;
  document: SentObject;
}
