import type { EventCodec } from '../codec.js';
import type { EventDraft, EventType } from './model.js';

/**
 * Every event this server writes, once: its title (the OpenAPI's list where it has one, the same
 * style where it has none — marked "new") and its `eventType`. Services name an event by its key.
 */
export const EVENT_TITLES = {
  workspaceCreated: { title: 'Workspace Created', eventType: 'Created' },
  workspaceNameChanged: { title: 'Workspace Name Changed', eventType: 'Changed' },
  workspaceTagsChanged: { title: 'Workspace Tags Changed', eventType: 'Changed' },
  /** new: a change of neither name nor tags (`platformBuilderAccessEnabled`). */
  workspaceChanged: { title: 'Workspace Changed', eventType: 'Changed' },
  workspaceDeleted: { title: 'Workspace Deleted', eventType: 'Deleted' },

  projectCreated: { title: 'Project Created', eventType: 'Created' },
  projectNameChanged: { title: 'Project Name Changed', eventType: 'Changed' },
  projectTagsChanged: { title: 'Project Tags Changed', eventType: 'Changed' },
  /** new */
  projectChanged: { title: 'Project Changed', eventType: 'Changed' },
  projectDeleted: { title: 'Project Deleted', eventType: 'Deleted' },

  /** new (the OpenAPI's list has no locations) */
  locationCreated: { title: 'Location Created', eventType: 'Created' },
  /** new */
  locationChanged: { title: 'Location Changed', eventType: 'Changed' },
  /** new */
  locationDeleted: { title: 'Location Deleted', eventType: 'Deleted' },

  platformCreated: { title: 'Platform Created', eventType: 'Created' },
  platformNameChanged: { title: 'Platform Name Changed', eventType: 'Changed' },
  platformConfigurationChanged: { title: 'Platform Configuration Changed', eventType: 'Changed' },
  platformSettingsChanged: { title: 'Platform Settings Changed', eventType: 'Changed' },
  platformDeleted: { title: 'Platform Deleted', eventType: 'Deleted' },

  tenantCreated: { title: 'Tenant Created', eventType: 'Created' },
  /** new */
  tenantChanged: { title: 'Tenant Changed', eventType: 'Changed' },
  tenantDeleted: { title: 'Tenant Deleted', eventType: 'Deleted' },
  tenantPurged: { title: 'Tenant Purged', eventType: 'Deleted' },

  runnerCreated: { title: 'Building Block Runner Created', eventType: 'Created' },
  runnerChanged: { title: 'Building Block Runner Changed', eventType: 'Changed' },
  runnerDeleted: { title: 'Building Block Runner Deleted', eventType: 'Deleted' },

  definitionCreated: { title: 'Building Block Definition Created', eventType: 'Created' },
  definitionModified: { title: 'Building Block Definition Modified', eventType: 'Changed' },
  definitionDeleted: { title: 'Building Block Definition Deleted', eventType: 'Deleted' },
  versionAdded: { title: 'Building Block Definition Version Added', eventType: 'Added' },
  versionModified: { title: 'Building Block Definition Version Modified', eventType: 'Changed' },
  versionReleased: { title: 'Building Block Definition Version Released', eventType: 'Changed' },
  publicationRequested: { title: 'Building Block Definition Marketplace Publication Request', eventType: 'Requested' },
  publicationApproved: { title: 'Building Block Definition Marketplace Publication Request Approved', eventType: 'Approved' },
  publicationRejected: { title: 'Building Block Definition Marketplace Publication Request Rejected', eventType: 'Rejected' },

  blockCreated: { title: 'Building Block Created', eventType: 'Created' },
  /** new: a PUT (inputs, version, name) */
  blockChanged: { title: 'Building Block Changed', eventType: 'Changed' },
  /** new: the block follows its run (PENDING → IN_PROGRESS → SUCCEEDED …) */
  blockStatusChanged: { title: 'Building Block Status Changed', eventType: 'Changed' },
  /** new: DELETE accepted (the block is marked; a DESTROY run may follow) */
  blockDeletionRequested: { title: 'Building Block Deletion Requested', eventType: 'Requested' },
  blockDeleted: { title: 'Building Block Deleted', eventType: 'Deleted' },
  runRequested: { title: 'Building Block Run Requested', eventType: 'Requested' },
  /** new */
  runClaimed: { title: 'Building Block Run Claimed', eventType: 'Changed' },
  /** new: a status report changed the run's status */
  runStatusChanged: { title: 'Building Block Run Status Changed', eventType: 'Changed' },
  /** new: a status report changed steps, messages or outputs but not the status */
  runStepsChanged: { title: 'Building Block Run Steps Changed', eventType: 'Changed' },
  /** new: a run aborted (its block was purged) */
  runCancelled: { title: 'Building Block Run Cancelled', eventType: 'Cancelled' },

  apiKeyCreated: { title: 'API Key Created', eventType: 'Created' },
  apiKeyChanged: { title: 'API Key Changed', eventType: 'Changed' },
  /** new (like "API User Password Rotated") */
  apiKeySecretRotated: { title: 'API Key Secret Rotated', eventType: 'Changed' },
  apiKeyDeleted: { title: 'API Key Deleted', eventType: 'Deleted' },

  apiUserCreated: { title: 'API User Created', eventType: 'Created' },
  apiUserChanged: { title: 'API User Changed', eventType: 'Changed' },
  apiUserPasswordRotated: { title: 'API User Password Rotated', eventType: 'Changed' },
  apiUserDeleted: { title: 'API User Deleted', eventType: 'Deleted' },
  userCreated: { title: 'User Created', eventType: 'Created' },
  userChanged: { title: 'User Changed', eventType: 'Changed' },
  /** its group memberships and bindings go with it (the description says so) */
  userDeleted: { title: 'User Deleted', eventType: 'Deleted' },

  /** new */
  groupCreated: { title: 'Workspace Group Created', eventType: 'Created' },
  groupMembersAdded: { title: 'Workspace Group Members Added', eventType: 'Added' },
  groupMembersRemoved: { title: 'Workspace Group Members Removed', eventType: 'Removed' },
  /** new: a change of anything but the members (display name, egid, tags) */
  groupChanged: { title: 'Workspace Group Changed', eventType: 'Changed' },
  /** new: with its memberships and the bindings naming it */
  groupDeleted: { title: 'Workspace Group Deleted', eventType: 'Deleted' },

  workspaceUserRoleAdded: { title: 'Workspace User Role Added', eventType: 'Added' },
  workspaceUserRoleChanged: { title: 'Workspace User Role Changed', eventType: 'Changed' },
  workspaceUserRoleRemoved: { title: 'Workspace User Role Removed', eventType: 'Removed' },
  workspaceGroupRoleAdded: { title: 'Workspace Group Role Added', eventType: 'Added' },
  workspaceGroupRoleChanged: { title: 'Workspace Group Role Changed', eventType: 'Changed' },
  workspaceGroupRoleRemoved: { title: 'Workspace Group Role Removed', eventType: 'Removed' },
  projectUserRoleAdded: { title: 'Project User Role Added', eventType: 'Added' },
  projectUserRoleChanged: { title: 'Project User Role Changed', eventType: 'Changed' },
  projectUserRoleRemoved: { title: 'Project User Role Removed', eventType: 'Removed' },
  projectGroupRoleAdded: { title: 'Project Group Role Added', eventType: 'Added' },
  projectGroupRoleChanged: { title: 'Project Group Role Changed', eventType: 'Changed' },
  projectGroupRoleRemoved: { title: 'Project Group Role Removed', eventType: 'Removed' },

  projectRoleCreated: { title: 'Project Role Created', eventType: 'Created' },
  projectRoleChanged: { title: 'Project Role Changed', eventType: 'Changed' },
  projectRoleDeleted: { title: 'Project Role Deleted', eventType: 'Deleted' },

  /** new */
  collectionCreated: { title: 'Object Collection Created', eventType: 'Created' },
  /** new */
  collectionDeleted: { title: 'Object Collection Deleted', eventType: 'Deleted' },
  tagDefinitionCreated: { title: 'Tag Definition Created', eventType: 'Created' },
  tagDefinitionChanged: { title: 'Tag Definition Changed', eventType: 'Changed' },
  tagDefinitionDeleted: { title: 'Tag Definition Deleted', eventType: 'Deleted' },
  paymentMethodCreated: { title: 'Payment Method Created', eventType: 'Created' },
  paymentMethodChanged: { title: 'Payment Method Changed', eventType: 'Changed' },
  paymentMethodDeleted: { title: 'Payment Method Deleted', eventType: 'Deleted' },
  /** new */
  platformTypeCreated: { title: 'Platform Type Created', eventType: 'Created' },
  /** new */
  platformTypeChanged: { title: 'Platform Type Changed', eventType: 'Changed' },
  /** new: DELETE deactivates */
  platformTypeDeactivated: { title: 'Platform Type Deactivated', eventType: 'Changed' },
  landingZoneCreated: { title: 'Landing Zone Created', eventType: 'Created' },
  landingZoneChanged: { title: 'Landing Zone Changed', eventType: 'Changed' },
  /** DELETE disables the zone */
  landingZoneDeleted: { title: 'Landing Zone Deleted', eventType: 'Deleted' },
  integrationCreated: { title: 'Integration Created', eventType: 'Created' },
  integrationChanged: { title: 'Integration Changed', eventType: 'Changed' },
  integrationDeleted: { title: 'Integration Deleted', eventType: 'Deleted' },

  /** new (the OpenAPI's list has no service instances) */
  serviceInstanceCreated: { title: 'Service Instance Created', eventType: 'Created' },
  /** new */
  serviceInstanceChanged: { title: 'Service Instance Changed', eventType: 'Changed' },
  /** new: DELETE accepted; the instance is DELETING until it is gone */
  serviceInstanceDeleted: { title: 'Service Instance Deleted', eventType: 'Deleted' },
  communicationDefinitionCreated: { title: 'Communication Definition Created', eventType: 'Created' },
  communicationDefinitionUpdated: { title: 'Communication Definition Updated', eventType: 'Changed' },
  communicationDefinitionDeleted: { title: 'Communication Definition Deleted', eventType: 'Deleted' },
  /** each of the three moves the definition's counters (the description says how they stand in the receiving workspace) */
  communicationCreated: { title: 'Communication Created', eventType: 'Created' },
  communicationResolved: { title: 'Communication Resolved', eventType: 'Changed' },
  communicationDeleted: { title: 'Communication Deleted', eventType: 'Deleted' },
} as const satisfies Record<string, { title: string; eventType: EventType }>;

export type EventKey = keyof typeof EVENT_TITLES;

/** Every title this server writes (README, tests). */
export const ALL_TITLES: readonly string[] = [...new Set(Object.values(EVENT_TITLES).map((entry) => entry.title))];

/** What an event says about the changed object. */
export interface EventSubject<T> {
  /** The kind's event codec: the only way an object becomes event content. */
  codec: EventCodec<T>;
  /** Its identity as clients name it (name, uuid, full identifier). */
  id: string;
  /** Its workspace: the members (and admins) see the event, so the codec answers as to them. */
  workspace?: string | undefined;
  /** The object after the change (before it, for a deletion). */
  object: T;
  /** The object before the change (only `Changed` events keep it). */
  previous?: T;
  /** A sentence replacing the generated description. */
  description?: string;
}

const VERB: Record<EventType, string> = {
  Added: 'was added',
  Approved: 'was approved',
  Cancelled: 'was cancelled',
  Changed: 'was changed',
  Created: 'was created',
  Deleted: 'was deleted',
  Rejected: 'was rejected',
  Removed: 'was removed',
  Requested: 'was requested',
};

/** The draft of event `key` about `subject`: e.g. "Workspace Created", "meshWorkspace my-team was created". */
export function eventOf<T>(key: EventKey, subject: EventSubject<T>): EventDraft {
  const { title, eventType } = EVENT_TITLES[key];
  const { codec } = subject;
  return {
    title,
    eventType,
    description: subject.description ?? `${codec.kind} ${subject.id} ${VERB[eventType]}`,
    ...(subject.workspace !== undefined ? { workspace: subject.workspace } : {}),
    content: codec.encode(subject.object),
    ...(eventType === 'Changed' && subject.previous !== undefined ? { previousContent: codec.encode(subject.previous) } : {}),
  };
}

/** JSON text with object keys sorted: equal values give equal text whatever order their keys were set in. */
function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) =>
    item !== null && typeof item === 'object' && !Array.isArray(item)
      ? Object.fromEntries(Object.entries(item).sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0)))
      : item,
  );
}

/** Whether two objects differ as JSON, key order aside (a PUT that changes nothing writes no event). */
export const differs = (a: unknown, b: unknown) => canonicalJson(a) !== canonicalJson(b);
