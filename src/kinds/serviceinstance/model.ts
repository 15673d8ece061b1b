import type { SentObject } from '../document.js';

/** Its collection path. */
export const SERVICE_INSTANCES_PATH = '/api/meshobjects/meshserviceinstances';

/**
 * The internal service instance (meshServiceInstance v2): identified by its `instanceId`
 * (unique on the server), owned by a project of a workspace. A DELETE marks it: it stays readable,
 * in the DELETING state, until `goneOn`, then it is gone (this server brokers no service, so
 * deprovisioning takes a fixed time).
 */
export interface ServiceInstance {
  instanceId: string;
  workspace: string;
  project: string;
  marketplace: string;
  serviceId: string;
  planId: string;
  /** The creator's username when the caller who created it could see that meshUser, else `Unknown` (as the published examples answer). */
  creator: string;
  markedForDeletionOn?: string;
  goneOn?: string;
  createdOn: string;
  /** `metadata` and `spec` as sent. */
  document: SentObject;
}

export type ServiceInstanceInput = Pick<
  ServiceInstance,
  'instanceId' | 'workspace' | 'project' | 'marketplace' | 'serviceId' | 'planId' | 'creator' | 'document'
>;

/** How long a deleted instance stays readable in the DELETING state. */
export const DEPROVISIONING_SECONDS = 5;

/** The creator shown when the sent username names no meshUser the caller can see. */
export const UNKNOWN_CREATOR = 'Unknown';

export const isDeleting = (instance: ServiceInstance) => instance.markedForDeletionOn !== undefined;
