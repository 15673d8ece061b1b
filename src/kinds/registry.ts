import { apiKeyKind } from './apikey/kind.js';
import { apiUserKind } from './apiuser/kind.js';
import { bindingKind } from './binding/kind.js';
import { blockKind } from './block/kind.js';
import { collectionKind } from './collection/kind.js';
import { communicationKind } from './communication/kind.js';
import { communicationDefinitionKind } from './communicationdefinition/kind.js';
import { definitionKind } from './definition/kind.js';
import { eventLogKind } from './eventlog/kind.js';
import { integrationKind } from './integration/kind.js';
import { landingZoneKind } from './landingzone/kind.js';
import { locationKind } from './location/kind.js';
import type { KindManifest } from './manifest.js';
import { paymentMethodKind } from './paymentmethod/kind.js';
import { platformKind } from './platform/kind.js';
import { platformTypeKind } from './platformtype/kind.js';
import { projectKind } from './project/kind.js';
import { projectRoleKind } from './projectrole/kind.js';
import { runKind } from './run/kind.js';
import { runnerKind } from './runner/kind.js';
import { serviceInstanceKind } from './serviceinstance/kind.js';
import { tagDefinitionKind } from './tagdefinition/kind.js';
import { tenantKind } from './tenant/kind.js';
import { terraformStateKind } from './tfstate/kind.js';
import { userKind } from './user/kind.js';
import { userGroupKind } from './usergroup/kind.js';
import { workspaceKind } from './workspace/kind.js';

/**
 * Every kind this server serves, one line each. Their order is that of the routes, the meshObjects
 * index's links, the CLI's kinds and the references a deletion reports. Only the composition root and
 * the layers above it import this file.
 */
export const KINDS: readonly KindManifest[] = [
  workspaceKind,
  projectKind,
  locationKind,
  platformKind,
  tenantKind,
  definitionKind,
  blockKind,
  runKind,
  runnerKind,
  eventLogKind,
  userKind,
  userGroupKind,
  apiKeyKind,
  apiUserKind,
  projectRoleKind,
  paymentMethodKind,
  tagDefinitionKind,
  platformTypeKind,
  landingZoneKind,
  integrationKind,
  serviceInstanceKind,
  communicationDefinitionKind,
  communicationKind,
  bindingKind,
  collectionKind,
  terraformStateKind,
];

/** Every event title the kinds write. */
export const ALL_TITLES: readonly string[] = [
  ...new Set(KINDS.flatMap((kind) => Object.values(kind.events ?? {}).map((event) => event.title))),
];

/** The request-body examples of the kinds' versions, by `<kind>/<version>` media type (the served OpenAPI shows them). */
export const REQUEST_EXAMPLES: Readonly<Record<string, unknown>> = Object.fromEntries(
  KINDS.flatMap((kind) => kind.examples ?? []).map(({ mediaType, body }) => [mediaType, body]),
);
