import type { AuthorizedApiKeyService } from './apikey/authorized-service.js';
import type { AuthorizedApiUserService } from './apiuser/authorized-service.js';
import type { AuthorizedBindingService } from './binding/authorized-service.js';
import type { BindingKind } from './binding/model.js';
import type { AuthorizedBlockService } from './block/authorized-service.js';
import type { AuthorizedCollectionService } from './collection/authorized-service.js';
import type { AuthorizedCommunicationService } from './communication/authorized-service.js';
import type { AuthorizedCommunicationDefinitionService } from './communicationdefinition/authorized-service.js';
import type { AuthorizedDefinitionService } from './definition/authorized-service.js';
import type { AuthorizedEventLogService } from './eventlog/authorized-service.js';
import type { AuthorizedIntegrationService } from './integration/authorized-service.js';
import type { AuthorizedLandingZoneService } from './landingzone/authorized-service.js';
import type { AuthorizedLocationService } from './location/authorized-service.js';
import type { AuthorizedPaymentMethodService } from './paymentmethod/authorized-service.js';
import type { AuthorizedPlatformService } from './platform/authorized-service.js';
import type { AuthorizedProjectRoleService } from './projectrole/authorized-service.js';
import type { AuthorizedPlatformTypeService } from './platformtype/authorized-service.js';
import type { AuthorizedProjectService } from './project/authorized-service.js';
import type { AuthorizedRunService } from './run/authorized-service.js';
import type { AuthorizedRunnerService } from './runner/authorized-service.js';
import type { AuthorizedServiceInstanceService } from './serviceinstance/authorized-service.js';
import type { AuthorizedTagDefinitionService } from './tagdefinition/authorized-service.js';
import type { AuthorizedTenantService } from './tenant/authorized-service.js';
import type { AuthorizedUserService } from './user/authorized-service.js';
import type { AuthorizedTerraformStateService } from './tfstate/authorized-service.js';
import type { AuthorizedUserGroupService } from './usergroup/authorized-service.js';
import type { AuthorizedWorkspaceService } from './workspace/authorized-service.js';

/**
 * The kinds as callers reach them: only through their authorized services. Routes, the import and the
 * index are given this and nothing else of the kinds.
 */
export interface AuthorizedServices {
  apiKeys: AuthorizedApiKeyService;
  apiUsers: AuthorizedApiUserService;
  workspaces: AuthorizedWorkspaceService;
  projects: AuthorizedProjectService;
  locations: AuthorizedLocationService;
  platforms: AuthorizedPlatformService;
  tenants: AuthorizedTenantService;
  definitions: AuthorizedDefinitionService;
  blocks: AuthorizedBlockService;
  runners: AuthorizedRunnerService;
  runs: AuthorizedRunService;
  events: AuthorizedEventLogService;
  users: AuthorizedUserService;
  userGroups: AuthorizedUserGroupService;
  projectRoles: AuthorizedProjectRoleService;
  /** One per binding kind. */
  bindings: Record<BindingKind, AuthorizedBindingService>;
  collections: AuthorizedCollectionService;
  // The platform catalogue.
  tagDefinitions: AuthorizedTagDefinitionService;
  paymentMethods: AuthorizedPaymentMethodService;
  platformTypes: AuthorizedPlatformTypeService;
  landingZones: AuthorizedLandingZoneService;
  integrations: AuthorizedIntegrationService;
  // Service instances and communications.
  serviceInstances: AuthorizedServiceInstanceService;
  communicationDefinitions: AuthorizedCommunicationDefinitionService;
  communications: AuthorizedCommunicationService;
  /** Building blocks' Terraform states (the state backend of the original's Terraform runner). */
  terraformStates: AuthorizedTerraformStateService;
}
