import type { SentObject } from '../document.js';

/** Its collection path. */
export const LANDING_ZONES_PATH = '/api/meshobjects/meshlandingzones';

/**
 * A landing zone: named globally, standing on one platform (`spec.platformRef`, immutable)
 * and owned by that platform's workspace. DELETE disables it (`disabledOn`): it stays readable and
 * listed, takes no new tenants, and tenants standing on it keep it.
 */
export interface LandingZone {
  name: string;
  platformUuid: string;
  ownedByWorkspace: string;
  displayName: string;
  restricted: boolean;
  disabledOn?: string;
  createdOn: string;
  document: SentObject;
}

export interface LandingZoneInput {
  name: string;
  platformUuid: string;
  displayName: string;
  restricted: boolean;
  document: SentObject;
}

/** The tagged union of `spec.platformProperties` (OpenAPI): each type with its sub-object's required fields. */
export const PLATFORM_PROPERTIES: Record<string, readonly string[]> = {
  aks: ['kubernetesRoleMappings'],
  aws: ['awsEnrollAccount', 'awsRoleMappings', 'awsTargetOrgUnitId'],
  azure: ['azureManagementGroupId', 'azureRoleMappings'],
  azurerg: ['azureRgLocation', 'azureRgRoleMappings'],
  gcp: ['gcpFolderId', 'gcpRoleMappings'],
  kubernetes: ['kubernetesRoleMappings'],
  openshift: [],
  custom: [],
};
