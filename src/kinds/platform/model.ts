import type { SentObject } from '../document.js';

/** Its collection path. */
export const PLATFORMS_PATH = '/api/meshobjects/meshplatforms';

/**
 * The internal platform: identified by uuid; `<name>.<location>` is its full platform identifier
 * (COMPAT §7). `document.spec.config` holds its secrets sealed (crypto/secret-values.ts).
 */
export interface Platform {
  uuid: string;
  name: string;
  location: string;
  ownedByWorkspace: string;
  /** `spec.displayName`. */
  displayName: string;
  /** `AZURE`, `AWS`, … (upper-cased `config.type`), `CUSTOM` without a config. */
  platformType: string;
  /** `spec.availability.restriction`, PRIVATE when not sent. */
  restriction: PlatformRestriction;
  /** Offered to every workspace: the restriction is `PUBLIC`. */
  isPublic: boolean;
  /** `spec.availability.publicationState` (v1: `marketplaceStatus`), UNPUBLISHED when not sent. A label: it decides nothing here. */
  publicationState: PublicationState;
  /** `spec.contributingWorkspaces`: workspace identifiers, a label for the list filter. */
  contributingWorkspaces: string[];
  createdOn: string;
  document: SentObject;
}

/** `spec.availability.restriction` (OpenAPI): who may book tenants on the platform. */
export const PLATFORM_RESTRICTIONS = ['PUBLIC', 'RESTRICTED', 'PRIVATE'] as const;
export type PlatformRestriction = (typeof PLATFORM_RESTRICTIONS)[number];

/** `spec.availability.publicationState` (OpenAPI's list filter names these four). */
export const PUBLICATION_STATES = ['UNPUBLISHED', 'PUBLISHED', 'REQUESTED', 'REJECTED'] as const;
export type PublicationState = (typeof PUBLICATION_STATES)[number];

/** At most this many contributing workspaces per platform. */
export const MAX_CONTRIBUTING_WORKSPACES = 100;

export type PlatformInput = Omit<Platform, 'uuid' | 'createdOn'>;

/**
 * May tenants of `workspace` stand on the platform? Its own workspace's, PUBLIC ones, and RESTRICTED
 * ones naming the workspace in `spec.availability.restrictedToWorkspaces`.
 */
export function isAvailableTo(platform: Platform, workspace: string): boolean {
  if (platform.ownedByWorkspace === workspace || platform.isPublic) return true;
  const availability = platform.document.spec.availability as { restriction?: unknown; restrictedToWorkspaces?: unknown } | undefined;
  return (
    availability?.restriction === 'RESTRICTED' &&
    Array.isArray(availability.restrictedToWorkspaces) &&
    availability.restrictedToWorkspaces.includes(workspace)
  );
}

export const fullPlatformIdentifier = (platform: Pick<Platform, 'name' | 'location'>) => `${platform.name}.${platform.location}`;

/** `<platform>.<location>` → its two parts, or undefined when it has another shape. */
export function parseFullPlatformIdentifier(identifier: string): { name: string; location: string } | undefined {
  const parts = identifier.split('.');
  if (parts.length !== 2 || parts[0] === '' || parts[1] === '') return undefined;
  return { name: parts[0]!, location: parts[1]! };
}

/** How a body names a platform: by uuid (v4 tenants) or by `<platform>.<location>` (v4-preview). */
export type PlatformReference = { uuid: string } | { identifier: string };
