import type { SentObject } from '../document.js';

/** Its collection path. */
export const PLATFORM_TYPES_PATH = '/api/meshobjects/meshplatformtypes';

/** The categories the OpenAPI lists. */
export const PLATFORM_CATEGORIES = [
  'OPENSTACK',
  'CLOUDFOUNDRY',
  'SERVICEREGISTRY',
  'AWS',
  'OPENSHIFT',
  'KUBERNETES',
  'AZURE',
  'GCP',
  'AZURE_KUBERNETES_SERVICE',
  'AZURE_RESOURCE_GROUP',
  'CUSTOM',
  'GITHUB',
] as const;
export type PlatformCategory = (typeof PLATFORM_CATEGORIES)[number];

export const LIFECYCLE_STATES = ['ACTIVE', 'DEACTIVATED'] as const;
export type LifecycleState = (typeof LIFECYCLE_STATES)[number];

/**
 * A platform type: the built-in ones (seeded by migration 0015, read-only) and CUSTOM ones.
 * Platforms name it by its upper-cased name (`status.platformTypeIdentifier`); a deactivated type
 * takes no new platforms, existing ones keep it.
 */
export interface PlatformType {
  name: string;
  uuid: string;
  category: PlatformCategory;
  lifecycleState: LifecycleState;
  builtIn: boolean;
  createdOn: string;
  document: SentObject;
}

export interface PlatformTypeInput {
  name: string;
  category: PlatformCategory;
  /** Sent as `status.lifecycleState` on a PUT (OpenAPI: a PUT can deactivate); undefined keeps it. */
  lifecycleState?: LifecycleState;
  document: SentObject;
}

/** How platforms name a type: its upper-cased name. */
export const typeKey = (name: string) => name.toUpperCase();
