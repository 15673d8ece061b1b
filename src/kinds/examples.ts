import type { MediaRef } from '../lib/media-types.js';

/**
 * Request-body examples of the main kinds' create and update operations, per versioned media type
 *: the served OpenAPI document shows them (`bodiesOf`, operation.ts → http/route-schemas.ts)
 * and the black-box tests send them (test/openapi-document.test.ts validates each against its schema
 * and creates a workspace from its example), so the document's examples are bodies the server takes.
 * They are the bodies of the tests' fixtures (test/support/structure.ts, definitions.ts, blocks.ts,
 * identity.ts), with names and uuids filled in.
 */
export const REQUEST_EXAMPLES: Readonly<Record<string, unknown>> = {
  'meshworkspace/v2': {
    apiVersion: 'v2',
    kind: 'meshWorkspace',
    metadata: { name: 'platform-team', tags: { environment: ['dev'] } },
    spec: { displayName: 'Platform team' },
  },
  'meshproject/v2': {
    apiVersion: 'v2',
    kind: 'meshProject',
    metadata: { name: 'web-shop', ownedByWorkspace: 'platform-team' },
    spec: { displayName: 'Web shop' },
  },
  'meshtenant/v4': {
    apiVersion: 'v4',
    kind: 'meshTenant',
    metadata: { ownedByWorkspace: 'platform-team', ownedByProject: 'web-shop' },
    spec: { platformRef: { kind: 'meshPlatform', uuid: '5f0d3c52-7c2e-4b8b-9a51-3f8e2d6c1a90' } },
  },
  'meshtenant/v4-preview': {
    apiVersion: 'v4-preview',
    kind: 'meshTenant',
    metadata: { ownedByWorkspace: 'platform-team', ownedByProject: 'web-shop' },
    spec: { platformRef: { kind: 'meshPlatform', uuid: '5f0d3c52-7c2e-4b8b-9a51-3f8e2d6c1a90' } },
  },
  'meshlocation/v1': { apiVersion: 'v1', kind: 'meshLocation', metadata: { name: 'eu-west' }, spec: { displayName: 'EU West' } },
  'meshplatform/v2': {
    apiVersion: 'v2',
    kind: 'meshPlatform',
    metadata: { name: 'kubernetes', ownedByWorkspace: 'platform-team' },
    spec: { displayName: 'Kubernetes', locationRef: { kind: 'meshLocation', name: 'eu-west' } },
  },
  'meshpaymentmethod/v2': {
    apiVersion: 'v2',
    kind: 'meshPaymentMethod',
    metadata: { name: 'cost-center-42', ownedByWorkspace: 'platform-team' },
    spec: { displayName: 'Cost center 42' },
  },
  'meshlandingzone/v1': {
    apiVersion: 'v1',
    kind: 'meshLandingZone',
    metadata: { name: 'sandbox', tags: {} },
    spec: {
      displayName: 'Sandbox',
      platformRef: { kind: 'meshPlatform', uuid: '5f0d3c52-7c2e-4b8b-9a51-3f8e2d6c1a90' },
      automateDeletionApproval: false,
      automateDeletionReplication: false,
      quotas: [],
    },
  },
  'meshbuildingblockdefinition/v1-preview': {
    apiVersion: 'v1-preview',
    kind: 'meshBuildingBlockDefinition',
    metadata: { ownedByWorkspace: 'platform-team' },
    spec: { displayName: 'A building block', description: 'Created by the black-box tests', targetType: 'WORKSPACE_LEVEL' },
  },
  'meshbuildingblock/v2-preview': {
    apiVersion: 'v2-preview',
    kind: 'meshBuildingBlock',
    spec: {
      displayName: 'Budget alert',
      buildingBlockDefinitionVersionRef: { kind: 'meshBuildingBlockDefinitionVersion', uuid: '0b8c5a3e-2d41-4f6a-9c7e-8e1f2a3b4c5d' },
      targetRef: { kind: 'meshWorkspace', identifier: 'platform-team' },
      inputs: [],
      parentBuildingBlocks: [],
    },
  },
  'meshapikey/v1-preview': {
    apiVersion: 'v1-preview',
    kind: 'meshApiKey',
    metadata: { ownedByWorkspace: 'platform-team' },
    spec: { displayName: 'CI pipeline', permissions: ['WORKSPACE_LIST'], expiresAt: '2099-12-31' },
  },
  'meshuser/v2': {
    apiVersion: 'v2',
    kind: 'meshUser',
    metadata: { name: 'jdoe' },
    spec: { email: 'jdoe@example.com', firstName: 'Jane', lastName: 'Doe' },
  },
  'meshprojectrole/v1': { apiVersion: 'v1', kind: 'meshProjectRole', metadata: { name: 'reader' }, spec: { name: 'Reader', rank: 1 } },
};

/** The request-body example of a versioned media type, if there is one. */
export const requestExampleOf = (media: MediaRef | string): unknown =>
  typeof media === 'string' || media.format ? undefined : REQUEST_EXAMPLES[`${media.kind}/${media.version}`];
