/**
 * The access-control matrix (issue 9, item 5): every route of the server's route table, filled with
 * real objects of two workspaces, planned as one plausible request, and the credential cases it is
 * tried with. The plan is derived from the route table: a route whose path the table below cannot
 * fill (an unknown collection or path parameter) is an error, so no route goes untested.
 */
import assert from 'node:assert/strict';
import { generateKeyPair, SignJWT, decodeJwt, decodeProtectedHeader } from 'jose';
import { PERMISSION_CODES } from '../../src/auth/permissions.js';
import type { ApiClient, Response } from './client.js';
import { media } from './client.js';
import { createKey, login, type KeyCredentials } from './identity.js';
import { versionSpec } from './definitions.js';
import {
  claimRun,
  createBlock,
  register,
  report,
  RUN,
  runnerBody,
  runnerDefinition,
  RUNNER,
  RUNNERS,
  RUNS,
  tenantTarget,
  TENANT_LEVEL,
} from './runs.js';
import {
  createLocation,
  createPlatform,
  createProject,
  createTenant,
  createWorkspace,
  io,
  LANDING_ZONE,
  landingZoneBody,
  unique,
  type Json,
} from './structure.js';
import { basic, TEST_ADMIN } from './server.js';

export { RUN, RUNNER, RUNNERS, RUNS };

// ---------------------------------------------------------------------------------------------
// The route table

/** A route's access rule as the server declares it (`config.access`). */
export type AccessRule =
  | 'public'
  | 'authenticated'
  | 'admin'
  | { resource: string; action: string; adminOnly?: boolean; orManaged?: boolean }
  | { managed: string }
  | { code: string };

export interface RouteEntry {
  /** `METHOD /path` as in the route table. */
  key: string;
  method: string;
  path: string;
  access: AccessRule;
}

/**
 * The route table without the SCIM routes (access `scim`): those open to a SCIM token only, and every
 * API credential is 401 there in SCIM's format (test/scim.test.ts, test/identity.test.ts).
 */
export function routesOf(table: Map<string, unknown>): RouteEntry[] {
  return [...table.entries()]
    .filter(([, access]) => access !== 'scim')
    .map(([key, access]) => {
      const space = key.indexOf(' ');
      return { key, method: key.slice(0, space), path: key.slice(space + 1), access: access as AccessRule };
    });
}

/** The routes the README names as open to anonymous callers (with single sign-on configured, as the matrix's server has it). */
export const PUBLIC_PATHS = [
  '/healthz',
  '/readyz',
  '/api/login',
  '/oauth/token',
  '/oauth/jwks',
  '/.well-known/openid-configuration',
  '/mesh/info',
  '/api/openapi.json',
  '/api/openapi.yaml',
  '/console',
  '/console/*',
  '/auth/session',
  '/auth/oidc/login',
  '/auth/oidc/callback',
];
/** A signed-in person's session: switching its workspace, signing out (docs/sso.md). */
export const SESSION_PATHS = ['/auth/session/workspace', '/auth/logout'];
/** Indexes any authenticated caller may read (spec endpoints 1 and 3, the metadata API). */
export const INDEX_PATHS = ['/api', '/api/meshobjects', '/api/metadata'];
/**
 * Paths of the deprecation list's kinds not served here: 404 (README, "Version lifecycle"), or
 * 406/415 for a retired version of the kind — the matrix names none.
 */
export const GONE_COLLECTIONS = ['meshcustomers', 'meshcustomerusergroups', 'meshchargebacks'];

/** Every non-admin permission code: what a workspace key can hold at most. */
export const NON_ADMIN_CODES = [...PERMISSION_CODES].filter((code) => !code.startsWith('ADM_')).sort();

// ---------------------------------------------------------------------------------------------
// The objects the matrix acts on

/** One workspace's objects. */
export interface Side {
  workspace: string;
  project: string;
  /** A second project (the tenant-create body targets it: one live tenant per project and platform). */
  project2: string;
  location: string;
  platform: string;
  platformUuid: string;
  /** A value inside the platform's `config`. */
  configMarker: string;
  tenantUuid: string;
  runnerUuid: string;
  definitionUuid: string;
  /** The released version 1 of the definition. */
  versionUuid: string;
  /** A block whose APPLY run SUCCEEDED (the target of block writes). */
  block: string;
  doneRun: string;
  /** A block whose run is claimed and IN_PROGRESS (the target of run endpoints). */
  liveBlock: string;
  run: string;
  runToken: string;
  /** The source registered on `run`. */
  source: string;
  /** A block whose run waits for a claim (what a leaking claim would take). */
  waitingBlock: string;
  waitingRun: string;
  /** An API key of the workspace (the target of key endpoints). */
  key: KeyCredentials;
  /** A meshUser bound to the workspace (Workspace Member), a member of its group. */
  user: string;
  /** A workspace user group (`name`, of `workspace`). */
  group: string;
  /** Bindings of the workspace and its project: of the user, of the group. */
  wsUserBinding: string;
  wsGroupBinding: string;
  prjUserBinding: string;
  prjGroupBinding: string;
  /** A project role (roles belong to no workspace). */
  projectRole: string;
  /** The catalogue (issue 20): a payment method of the workspace, a custom platform type and a tag definition (both global). */
  paymentMethod: string;
  platformType: string;
  tagDefinition: string;
  landingZone: string;
  integration: string;
  /** An event of the workspace (its creation, at least). */
  event: string;
  /** Issue 21: a service instance of `project`, a communication definition sent (only) to the workspace, and that communication (OPEN). */
  serviceInstance: string;
  communicationDefinition: string;
  communication: string;
}

export interface World {
  a: Side;
  b: Side;
  /** An API user (the target of `DELETE /api/admin/apiusers/:username`). */
  apiUser: string;
}

async function ok(response: Promise<Response>, status: number, what: string): Promise<Json> {
  const r = await response;
  assert.equal(r.status, status, `${what}: ${r.status} ${r.text}`);
  return r.text === '' ? {} : r.json;
}

/** A workspace with everything the route table can name, created by the admin. */
export async function createSide(admin: ApiClient, prefix: string): Promise<Side> {
  const workspace = unique(`${prefix}-ws`);
  const project = unique(`${prefix}-prj`);
  const project2 = unique(`${prefix}-prj`);
  const location = unique(`${prefix}-loc`);
  const platform = unique(`${prefix}-plf`);
  await createWorkspace(admin, workspace);
  await Promise.all([
    createProject(admin, workspace, project),
    createProject(admin, workspace, project2),
    createLocation(admin, location, { metadata: { ownedByWorkspace: workspace } }),
  ]);
  // A config only the platform's workspace (PLATFORMINSTANCE_LIST) and admins may read (README, "Who may do what").
  const configMarker = unique(`${prefix}-config`);
  const platformUuid = await createPlatform(admin, workspace, platform, location, {
    spec: { config: { type: 'custom', custom: { platformTypeRef: { name: 'CUSTOM' }, note: configMarker } } },
  });
  const tenantUuid = (await createTenant(admin, workspace, project, platformUuid)).metadata.uuid as string;
  const runner = await ok(
    admin.post(RUNNERS, runnerBody(workspace, undefined, { implementationType: 'TERRAFORM' }), { headers: io(RUNNER) }),
    201,
    'POST runner',
  );
  const runnerUuid = runner.metadata.uuid as string;
  const definition = await runnerDefinition(
    admin,
    workspace,
    runnerUuid,
    {},
    { ...TENANT_LEVEL, displayName: unique(`${prefix}-Definition`) },
  );

  const newBlock = async () =>
    (await createBlock(admin, { versionUuid: definition.versionUuid, target: tenantTarget(tenantUuid) })).metadata.uuid as string;
  const block = await newBlock();
  const done = await claimRun(admin, runnerUuid);
  assert.equal(done.spec.buildingBlock.uuid, block);
  const doneClient = admin.with({ authorization: `Bearer ${done.spec.runToken as string}` });
  await ok(
    register(doneClient, done.metadata.uuid, { source: { id: 'matrix-done' }, steps: [{ id: 'apply', displayName: 'Apply' }] }),
    200,
    'register source',
  );
  assert.equal(
    await report(doneClient, done.metadata.uuid, 'matrix-done', { status: 'SUCCEEDED', steps: [{ id: 'apply', status: 'SUCCEEDED' }] }),
    false,
  );

  const liveBlock = await newBlock();
  const live = await claimRun(admin, runnerUuid);
  assert.equal(live.spec.buildingBlock.uuid, liveBlock);
  const source = `matrix-${prefix}-source`;
  await ok(
    register(admin.with({ authorization: `Bearer ${live.spec.runToken as string}` }), live.metadata.uuid, {
      source: { id: source },
      steps: [{ id: 'plan', displayName: 'Plan' }],
    }),
    200,
    'register source',
  );

  const waitingBlock = await newBlock();
  const runs = await ok(
    admin.get(`${RUNS}?buildingBlockUuid=${waitingBlock}`, { headers: { accept: RUN } }),
    200,
    'runs of the waiting block',
  );
  const waiting = runs._embedded.meshBuildingBlockRuns as Json[];
  assert.equal(waiting.length, 1, JSON.stringify(waiting));
  const key = await createKey(admin, workspace, ['BUILDINGBLOCK_LIST']);

  // People: a user bound to the workspace, a group with it, bindings of every kind, a project role.
  const user = unique(`${prefix}-user`);
  await ok(
    admin.post(
      '/api/meshobjects/meshusers',
      {
        apiVersion: 'v2',
        kind: 'meshUser',
        metadata: { name: user },
        spec: { email: `${user}@example.com`, firstName: 'Matrix', lastName: prefix },
      },
      { headers: io(media('meshuser', 'v2')) },
    ),
    201,
    'POST user',
  );
  const group = unique(`${prefix}-group`);
  const imported = await ok(
    admin.put(
      '/api/meshobjects',
      [
        {
          apiVersion: 'v1',
          kind: 'meshWorkspaceUserGroup',
          metadata: { name: group, ownedByWorkspace: workspace },
          spec: { displayName: 'Matrix group', members: [user] },
        },
      ],
      { headers: io('application/vnd.vendor.api.meshobjects.v1+json') },
    ),
    200,
    'import group',
  );
  assert.equal((imported as unknown as Json[])[0]!.status, 'SUCCESS', JSON.stringify(imported));
  const binding = async (path: string, kind: string, version: string, target: Json, role: string, subject: string) => {
    const name = unique(`${prefix}-binding`);
    await ok(
      admin.post(
        `/api/meshobjects/${path}`,
        { apiVersion: version, kind, metadata: { name }, targetRef: target, roleRef: { name: role }, subject: { name: subject } },
        { headers: io(media(kind.toLowerCase(), version)) },
      ),
      201,
      `POST ${kind}`,
    );
    return name;
  };
  const wsUserBinding = await binding(
    'meshworkspacebindings/userbindings',
    'meshWorkspaceUserBinding',
    'v2',
    { name: workspace },
    'Workspace Member',
    user,
  );
  const wsGroupBinding = await binding(
    'meshworkspacebindings/groupbindings',
    'meshWorkspaceGroupBinding',
    'v2',
    { name: workspace },
    'Workspace Member',
    group,
  );
  const prjUserBinding = await binding(
    'meshprojectbindings/userbindings',
    'meshProjectUserBinding',
    'v3',
    { name: project, ownedByWorkspace: workspace },
    'Project Reader',
    user,
  );
  const prjGroupBinding = await binding(
    'meshprojectbindings/groupbindings',
    'meshProjectGroupBinding',
    'v3',
    { name: project, ownedByWorkspace: workspace },
    'Project User',
    group,
  );
  const projectRole = unique(`${prefix}-role`);
  await ok(
    admin.post(
      '/api/meshobjects/meshprojectroles',
      { apiVersion: 'v1', kind: 'meshProjectRole', metadata: { name: projectRole }, spec: { name: `Role ${projectRole}`, rank: 1 } },
      { headers: io(media('meshprojectrole', 'v1')) },
    ),
    201,
    'POST project role',
  );
  const paymentMethod = unique(`${prefix}-pm`);
  await ok(
    admin.post(PAYMENT_METHODS, paymentMethodBody(workspace, paymentMethod), { headers: io(PAYMENT_METHOD) }),
    201,
    'POST payment method',
  );
  const platformType = unique(`${prefix}-type`);
  await ok(admin.post(PLATFORM_TYPES, platformTypeBody(platformType), { headers: io(PLATFORM_TYPE) }), 201, 'POST platform type');
  const tagKey = unique(`${prefix}-tag`);
  await ok(admin.post(TAG_DEFINITIONS, tagDefinitionBody(tagKey), { headers: io(TAG_DEFINITION) }), 201, 'POST tag definition');
  const landingZone = unique(`${prefix}-lz`);
  await ok(admin.post(LANDING_ZONES, landingZoneBody(landingZone, platformUuid), { headers: io(LANDING_ZONE) }), 201, 'POST landing zone');
  const integration = await ok(
    admin.post(INTEGRATIONS, integrationBody(workspace, runnerUuid), { headers: io(INTEGRATION) }),
    201,
    'POST integration',
  );
  const serviceInstance = unique(`${prefix}-si`);
  await ok(
    admin.post(SERVICE_INSTANCES, serviceInstanceBody(workspace, project, serviceInstance), { headers: io(SERVICE_INSTANCE) }),
    200,
    'POST service instance',
  );
  const communicationDefinition = (
    await ok(
      admin.post(COMMUNICATION_DEFINITIONS, communicationDefinitionBody(), { headers: io(COMMUNICATION_DEFINITION) }),
      201,
      'POST communication definition',
    )
  ).metadata.uuid as string;
  const communication = (
    await ok(
      admin.post(COMMUNICATIONS, communicationBody(communicationDefinition, workspace), { headers: io(COMMUNICATION) }),
      201,
      'POST communication',
    )
  ).metadata.uuid as string;
  const events = await ok(
    admin.get(`/api/meshobjects/mesheventlogs?workspaceIdentifier=${workspace}&size=1`, {
      headers: { accept: media('mesheventlog', 'v1-preview') },
    }),
    200,
    'GET events',
  );
  const event = (events._embedded as { meshEventLogs: Json[] }).meshEventLogs[0]!.metadata.uuid as string;
  return {
    event,
    serviceInstance,
    communicationDefinition,
    communication,
    user,
    group,
    wsUserBinding,
    wsGroupBinding,
    prjUserBinding,
    prjGroupBinding,
    projectRole,
    integration: integration.metadata.uuid as string,
    landingZone,
    paymentMethod,
    platformType,
    tagDefinition: `meshPaymentMethod.${tagKey}`,
    workspace,
    project,
    project2,
    location,
    platform,
    platformUuid,
    configMarker,
    tenantUuid,
    runnerUuid,
    definitionUuid: definition.uuid,
    versionUuid: definition.versionUuid,
    block,
    doneRun: done.metadata.uuid,
    liveBlock,
    run: live.metadata.uuid,
    runToken: live.spec.runToken,
    source,
    waitingBlock,
    waitingRun: waiting[0]!.metadata.uuid,
    key,
  };
}

/** Identifiers of a side's objects: none may appear in what another workspace's key lists. */
export function markersOf(side: Side): Record<string, string> {
  return {
    workspace: side.workspace,
    project: side.project,
    project2: side.project2,
    location: side.location,
    platform: side.platform,
    platformUuid: side.platformUuid,
    platformConfig: side.configMarker,
    tenant: side.tenantUuid,
    runner: side.runnerUuid,
    definition: side.definitionUuid,
    version: side.versionUuid,
    block: side.block,
    doneRun: side.doneRun,
    liveBlock: side.liveBlock,
    run: side.run,
    waitingBlock: side.waitingBlock,
    paymentMethod: side.paymentMethod,
    landingZone: side.landingZone,
    integration: side.integration,
    waitingRun: side.waitingRun,
    user: side.user,
    group: side.group,
    wsUserBinding: side.wsUserBinding,
    wsGroupBinding: side.wsGroupBinding,
    prjUserBinding: side.prjUserBinding,
    prjGroupBinding: side.prjGroupBinding,
    key: side.key.uuid,
    clientId: side.key.clientId,
    event: side.event,
    serviceInstance: side.serviceInstance,
    communicationDefinition: side.communicationDefinition,
    communication: side.communication,
  };
}

// ---------------------------------------------------------------------------------------------
// What each path of the route table means

/** How another workspace's key may see A's object of a collection (README, "Design"). */
export type Visibility = 'hidden' | 'marketplace';

export interface CollectionSpec {
  /** The value of the collection's `:param` (A's object); by param name. */
  params: Record<string, (w: World) => string>;
  /** What a key of workspace B may see of A's object: hidden (404) or in the marketplace (200). */
  visibility: Visibility;
  /** Readable by every authenticated key without a permission (locations, platforms). */
  openRead?: boolean;
  /** The query that makes the collection's list name A's objects (admins then see `listMarker`). */
  listQuery?: (w: World) => string;
  listMarker?: (w: World) => string;
  /** Markers of A a key of B may see in this collection (the marketplace). */
  allowedMarkers?: string[];
  /** What a key of workspace B gets for the A-targeting list, when the README names a denial instead of a filtered list. */
  bListStatus?: number;
  /** Permission codes that grant the route when the route table names none (per-object rules in services). */
  objectCodes?: { read?: string[]; write?: string[] };
  /** The body of `POST <collection>` creating an object of workspace A. */
  create?: (w: World) => unknown;
  /** What a key of workspace B gets for that create when the body names A's objects rather than owning one in A (issue 14: invisible references are 422). */
  bCreateStatus?: number;
  /** Routes (`METHOD :param/suffix`) the README reserves for admins although the route table names a workspace code. */
  adminOnly?: string[];
  /** The list needs its query (project bindings): there is no unfiltered list to try. */
  queryRequired?: boolean;
}

const MARKET = ['workspace', 'location', 'platform', 'platformUuid'];

const PAYMENT_METHODS = '/api/meshobjects/meshpaymentmethods';
const PAYMENT_METHOD = media('meshpaymentmethod', 'v2');
const PLATFORM_TYPES = '/api/meshobjects/meshplatformtypes';
const PLATFORM_TYPE = media('meshplatformtype', 'v1');
const LANDING_ZONES = '/api/meshobjects/meshlandingzones';
const INTEGRATIONS = '/api/meshobjects/meshintegrations';
const INTEGRATION = media('meshintegration', 'v1');
const integrationBody = (workspace: string, runnerUuid: string) => ({
  apiVersion: 'v1',
  kind: 'meshIntegration',
  metadata: { ownedByWorkspace: workspace },
  spec: {
    displayName: 'matrix',
    config: {
      type: 'gitlab',
      gitlab: { baseUrl: 'https://gitlab.example.com', runnerRef: { kind: 'meshBuildingBlockRunner', uuid: runnerUuid } },
    },
  },
});
const TAG_DEFINITIONS = '/api/meshobjects/meshtagdefinitions';
const TAG_DEFINITION = media('meshtagdefinition', 'v1');
const paymentMethodBody = (workspace: string, name: string) => ({
  apiVersion: 'v2',
  kind: 'meshPaymentMethod',
  metadata: { name, ownedByWorkspace: workspace },
  spec: { displayName: 'matrix', tags: {} },
});
const platformTypeBody = (name: string) => ({
  apiVersion: 'v1',
  kind: 'meshPlatformType',
  metadata: { name },
  spec: { displayName: 'matrix', category: 'CUSTOM', icon: 'data:image/png;base64,AAAA' },
});
const tagDefinitionBody = (key: string) => ({
  apiVersion: 'v1',
  kind: 'meshTagDefinition',
  metadata: { name: `meshPaymentMethod.${key}` },
  spec: { targetKind: 'meshPaymentMethod', key, valueType: { string: {} }, description: 'matrix', displayName: 'matrix' },
});

const SERVICE_INSTANCES = '/api/meshobjects/meshserviceinstances';
const SERVICE_INSTANCE = media('meshserviceinstance', 'v2');
const serviceInstanceBody = (workspace: string, project: string, instanceId: string) => ({
  apiVersion: 'v2',
  kind: 'meshServiceInstance',
  metadata: { ownedByProject: project, ownedByWorkspace: workspace, marketplaceIdentifier: 'matrix', instanceId },
  spec: { displayName: 'matrix', serviceId: 'matrix-service', planId: 'matrix-plan', creator: 'matrix' },
});
const COMMUNICATION_DEFINITIONS = '/api/meshobjects/meshcommunicationdefinitions';
const COMMUNICATION_DEFINITION = media('meshcommunicationdefinition', 'v1-preview');
const communicationDefinitionBody = () => ({
  apiVersion: 'v1-preview',
  kind: 'meshCommunicationDefinition',
  spec: { communication: { title: 'matrix', message: 'matrix', type: 'ACTION_REQUIRED', dueDate: '2099-01-01' } },
});
const COMMUNICATIONS = '/api/meshobjects/meshcommunications';
const COMMUNICATION = media('meshcommunication', 'v1-preview');
const communicationBody = (definitionUuid: string, workspace: string) => ({
  apiVersion: 'v1-preview',
  kind: 'meshCommunication',
  spec: {
    targetMeshObjectRef: { kind: 'meshWorkspace', name: workspace },
    communicationDefinitionRef: { kind: 'meshCommunicationDefinition', uuid: definitionUuid },
  },
});

export const COLLECTIONS: Record<string, CollectionSpec> = {
  meshapikeys: {
    params: { uuid: (w) => w.a.key.uuid },
    visibility: 'hidden',
    listQuery: (w) => `?workspaceIdentifier=${w.a.workspace}`,
    listMarker: (w) => w.a.key.uuid,
    create: (w) => ({
      apiVersion: 'v1-preview',
      kind: 'meshApiKey',
      metadata: { ownedByWorkspace: w.a.workspace },
      spec: { displayName: 'matrix key', permissions: ['BUILDINGBLOCK_LIST'] },
    }),
  },
  apiusers: {
    params: { username: (w) => w.apiUser },
    visibility: 'hidden',
    listMarker: (w) => w.apiUser,
    create: () => ({ username: unique('matrix-user'), password: 'matrix-password-123' }),
  },
  meshworkspaces: {
    params: { id: (w) => w.a.workspace },
    visibility: 'hidden',
    listMarker: (w) => w.a.workspace,
    create: () => ({ apiVersion: 'v2', kind: 'meshWorkspace', metadata: { name: unique('matrix-ws') }, spec: { displayName: 'matrix' } }),
  },
  meshprojects: {
    params: { id: (w) => `${w.a.workspace}.${w.a.project}` },
    visibility: 'hidden',
    listQuery: (w) => `?workspaceIdentifier=${w.a.workspace}`,
    listMarker: (w) => w.a.project,
    create: (w) => ({
      apiVersion: 'v2',
      kind: 'meshProject',
      metadata: { name: unique('matrix-prj'), ownedByWorkspace: w.a.workspace },
      spec: { displayName: 'matrix' },
    }),
  },
  meshlocations: {
    params: { id: (w) => w.a.location },
    visibility: 'marketplace',
    openRead: true,
    listMarker: (w) => w.a.location,
    allowedMarkers: MARKET,
    create: (w) => ({
      apiVersion: 'v1',
      kind: 'meshLocation',
      metadata: { name: unique('matrix-loc'), ownedByWorkspace: w.a.workspace },
      spec: { displayName: 'matrix' },
    }),
  },
  meshplatforms: {
    params: { id: (w) => w.a.platformUuid },
    visibility: 'marketplace',
    openRead: true,
    listMarker: (w) => w.a.platformUuid,
    allowedMarkers: MARKET,
    create: (w) => ({
      apiVersion: 'v2',
      kind: 'meshPlatform',
      metadata: { name: unique('matrix-plf'), ownedByWorkspace: w.a.workspace },
      spec: { displayName: 'matrix', locationRef: { kind: 'meshLocation', name: w.a.location } },
    }),
  },
  meshtenants: {
    params: { id: (w) => w.a.tenantUuid },
    visibility: 'hidden',
    listQuery: (w) => `?workspaceIdentifier=${w.a.workspace}`,
    listMarker: (w) => w.a.tenantUuid,
    create: (w) => ({
      apiVersion: 'v4',
      kind: 'meshTenant',
      metadata: { ownedByWorkspace: w.a.workspace, ownedByProject: w.a.project2 },
      spec: { platformRef: { kind: 'meshPlatform', uuid: w.a.platformUuid } },
    }),
  },
  meshbuildingblockdefinitions: {
    params: { id: (w) => w.a.definitionUuid },
    // A released definition is in the marketplace of every caller who may list definitions.
    visibility: 'marketplace',
    listQuery: (w) => `?workspaceIdentifier=${w.a.workspace}`,
    listMarker: (w) => w.a.definitionUuid,
    allowedMarkers: [...MARKET, 'definition', 'version'],
    create: (w) => ({
      apiVersion: 'v1-preview',
      kind: 'meshBuildingBlockDefinition',
      metadata: { ownedByWorkspace: w.a.workspace },
      spec: { displayName: unique('matrix-Definition'), description: 'matrix', targetType: 'WORKSPACE_LEVEL' },
    }),
  },
  meshbuildingblockdefinitionversions: {
    params: { id: (w) => w.a.versionUuid },
    // A published version is read as offered to every workspace (its inputs, for ordering: no runner,
    // implementation or secrets); its list stays the owner's (403, COMPAT §5).
    visibility: 'marketplace',
    allowedMarkers: [...MARKET, 'definition', 'version'],
    listQuery: (w) => `?buildingBlockDefinitionUuid=${w.a.definitionUuid}`,
    listMarker: (w) => w.a.versionUuid,
    bListStatus: 403,
    create: (w) => ({
      apiVersion: 'v1-preview',
      kind: 'meshBuildingBlockDefinitionVersion',
      spec: versionSpec(w.a.definitionUuid, 2, 'terraform', { runnerRef: { kind: 'meshBuildingBlockRunner', uuid: w.a.runnerUuid } }),
    }),
  },
  meshbuildingblocks: {
    params: { id: (w) => w.a.block },
    visibility: 'hidden',
    listQuery: (w) => `?workspaceIdentifier=${w.a.workspace}`,
    listMarker: (w) => w.a.block,
    // README, "Deletion": "Purge (admins) removes it whatever runs".
    adminOnly: ['DELETE :id/purge'],
    // The body targets A's tenant, which B cannot see: a reference that does not exist.
    bCreateStatus: 422,
    create: (w) => ({
      apiVersion: 'v2-preview',
      kind: 'meshBuildingBlock',
      spec: {
        displayName: 'matrix block',
        buildingBlockDefinitionVersionRef: { kind: 'meshBuildingBlockDefinitionVersion', uuid: w.a.versionUuid },
        targetRef: { kind: 'meshTenant', uuid: w.a.tenantUuid },
        inputs: [],
        parentBuildingBlocks: [],
      },
    }),
  },
  meshbuildingblockrunners: {
    params: { id: (w) => w.a.runnerUuid },
    visibility: 'hidden',
    listQuery: (w) => `?workspaceIdentifier=${w.a.workspace}`,
    listMarker: (w) => w.a.runnerUuid,
    create: (w) => runnerBody(w.a.workspace, undefined, { implementationType: 'TERRAFORM' }),
  },
  meshusers: {
    params: { id: (w) => w.a.user },
    visibility: 'hidden',
    listQuery: (w) => `?workspaceIdentifier=${w.a.workspace}`,
    listMarker: (w) => w.a.user,
    create: () => ({
      apiVersion: 'v2',
      kind: 'meshUser',
      metadata: { name: unique('matrix-user') },
      spec: { email: 'matrix@example.com', firstName: 'Matrix', lastName: 'User' },
    }),
  },
  meshworkspaceusergroups: {
    params: { id: (w) => `${w.a.workspace}.${w.a.group}` },
    visibility: 'hidden',
    listQuery: (w) => `?workspaceIdentifier=${w.a.workspace}`,
    listMarker: (w) => w.a.group,
  },
  meshprojectroles: {
    params: { id: (w) => w.a.projectRole },
    // Roles belong to no workspace: every caller reads them, admins write them.
    visibility: 'marketplace',
    openRead: true,
    listQuery: () => '?size=350',
    listMarker: (w) => w.a.projectRole,
    allowedMarkers: MARKET,
    create: () => ({
      apiVersion: 'v1',
      kind: 'meshProjectRole',
      metadata: { name: unique('matrix-role') },
      spec: { name: unique('Matrix role'), rank: 1 },
    }),
  },
  'meshworkspacebindings/userbindings': {
    params: { id: (w) => w.a.wsUserBinding },
    visibility: 'hidden',
    listQuery: (w) => `?workspaceIdentifier=${w.a.workspace}`,
    listMarker: (w) => w.a.wsUserBinding,
    create: (w) => ({
      apiVersion: 'v2',
      kind: 'meshWorkspaceUserBinding',
      metadata: { name: unique('matrix-b') },
      targetRef: { name: w.a.workspace },
      roleRef: { name: 'Workspace Manager' },
      subject: { name: w.a.user },
    }),
  },
  'meshworkspacebindings/groupbindings': {
    params: { id: (w) => w.a.wsGroupBinding },
    visibility: 'hidden',
    listQuery: (w) => `?workspaceIdentifier=${w.a.workspace}`,
    listMarker: (w) => w.a.wsGroupBinding,
    create: (w) => ({
      apiVersion: 'v2',
      kind: 'meshWorkspaceGroupBinding',
      metadata: { name: unique('matrix-b') },
      targetRef: { name: w.a.workspace },
      roleRef: { name: 'Workspace Manager' },
      subject: { name: w.a.group },
    }),
  },
  'meshprojectbindings/userbindings': {
    params: { id: (w) => w.a.prjUserBinding },
    visibility: 'hidden',
    listQuery: (w) => `?workspaceIdentifier=${w.a.workspace}&projectIdentifier=${w.a.project}`,
    listMarker: (w) => w.a.prjUserBinding,
    queryRequired: true,
    create: (w) => ({
      apiVersion: 'v3',
      kind: 'meshProjectUserBinding',
      metadata: { name: unique('matrix-b') },
      targetRef: { name: w.a.project2, ownedByWorkspace: w.a.workspace },
      roleRef: { name: 'Project Admin' },
      subject: { name: w.a.user },
    }),
  },
  'meshprojectbindings/groupbindings': {
    params: { id: (w) => w.a.prjGroupBinding },
    visibility: 'hidden',
    listQuery: (w) => `?workspaceIdentifier=${w.a.workspace}&projectIdentifier=${w.a.project}`,
    listMarker: (w) => w.a.prjGroupBinding,
    queryRequired: true,
    create: (w) => ({
      apiVersion: 'v3',
      kind: 'meshProjectGroupBinding',
      metadata: { name: unique('matrix-b') },
      targetRef: { name: w.a.project2, ownedByWorkspace: w.a.workspace },
      roleRef: { name: 'Project Admin' },
      subject: { name: w.a.group },
    }),
  },
  // The platform catalogue (issue 20): writes are admin routes; tag definitions and platform types belong to no workspace.
  meshpaymentmethods: {
    params: { id: (w) => w.a.paymentMethod },
    visibility: 'hidden',
    listQuery: (w) => `?workspaceIdentifier=${w.a.workspace}`,
    listMarker: (w) => w.a.paymentMethod,
    create: (w) => paymentMethodBody(w.a.workspace, unique('matrix-pm')),
  },
  meshintegrations: {
    params: { id: (w) => w.a.integration },
    visibility: 'hidden',
    listQuery: (w) => `?ownedByWorkspace=${w.a.workspace}`,
    listMarker: (w) => w.a.integration,
    create: (w) => integrationBody(w.a.workspace, w.a.runnerUuid),
  },
  meshlandingzones: {
    params: { id: (w) => w.a.landingZone },
    visibility: 'hidden',
    listQuery: (w) => `?ownedByWorkspace=${w.a.workspace}`,
    listMarker: (w) => w.a.landingZone,
    // On A's platform (in every caller's marketplace): B may not make zones in A's workspace.
    create: (w) => landingZoneBody(unique('matrix-lz'), w.a.platformUuid),
  },
  // Issue 21: instances belong to a project's workspace; definitions to no workspace (a workspace sees those sent to it); communications to their target's workspace.
  meshserviceinstances: {
    params: { id: (w) => w.a.serviceInstance },
    visibility: 'hidden',
    listQuery: (w) => `?workspaceIdentifier=${w.a.workspace}`,
    listMarker: (w) => w.a.serviceInstance,
    create: (w) => serviceInstanceBody(w.a.workspace, w.a.project2, unique('matrix-si')),
  },
  meshcommunicationdefinitions: {
    params: { id: (w) => w.a.communicationDefinition },
    visibility: 'hidden',
    listQuery: () => '?type=ACTION_REQUIRED&size=350',
    listMarker: (w) => w.a.communicationDefinition,
    create: () => communicationDefinitionBody(),
  },
  meshcommunications: {
    params: { id: (w) => w.a.communication },
    visibility: 'hidden',
    listQuery: (w) => `?communicationDefinitionUuid=${w.a.communicationDefinition}`,
    listMarker: (w) => w.a.communication,
    create: (w) => communicationBody(w.a.communicationDefinition, w.a.workspace),
  },
  mesheventlogs: {
    params: { id: (w) => w.a.event },
    visibility: 'hidden',
    // A whole page: the keys the matrix makes in A (one per set of granting codes) are newer events.
    listQuery: (w) => `?workspaceIdentifier=${w.a.workspace}&size=350`,
    listMarker: (w) => w.a.event,
  },
  meshtagdefinitions: {
    params: { id: (w) => w.a.tagDefinition },
    visibility: 'marketplace',
    openRead: true,
    listMarker: (w) => w.a.tagDefinition,
    allowedMarkers: MARKET,
    create: () => tagDefinitionBody(unique('matrix-tag')),
  },
  meshplatformtypes: {
    params: { id: (w) => w.a.platformType },
    visibility: 'marketplace',
    openRead: true,
    listMarker: (w) => w.a.platformType,
    allowedMarkers: MARKET,
    create: () => platformTypeBody(unique('matrix-type')),
  },
  meshbuildingblockruns: {
    params: { id: (w) => w.a.run, sourceId: (w) => w.a.source },
    visibility: 'hidden',
    listQuery: (w) => `?buildingBlockUuid=${w.a.liveBlock}`,
    listMarker: (w) => w.a.run,
    // README, "Runs"/"Runners": reading needs BUILDINGBLOCK_LIST of the block's workspace or MANAGED_BUILDINGBLOCKRUN_LIST of the
    // definition's; reporting the run token or MANAGED_BUILDINGBLOCKRUNSOURCE_SAVE of the definition's workspace.
    objectCodes: { read: ['BUILDINGBLOCK_LIST', 'MANAGED_BUILDINGBLOCKRUN_LIST'], write: ['MANAGED_BUILDINGBLOCKRUNSOURCE_SAVE'] },
  },
};

// ---------------------------------------------------------------------------------------------
// Planning one request per route

export type Operation =
  /** No credentials needed. */
  | 'public'
  /** A retired kind: 404 for every authenticated caller. */
  | 'gone'
  | 'index'
  | 'list'
  | 'read'
  | 'write'
  | 'create'
  /** Claiming a run of A's runner. */
  | 'claim'
  /** The declarative import. */
  | 'import'
  /** The Terraform state of A's live block (its run's token opens it). */
  | 'tfstate'
  /** A signed-in person's session (only a session cookie names one). */
  | 'session';

export interface Plan {
  route: RouteEntry;
  operation: Operation;
  /** The collection segment (`meshbuildingblocks`, `apiusers`), when the path has one. */
  collection?: string;
  spec?: CollectionSpec;
  /** Path and query with A's objects filled in. */
  url: string;
  /** A run endpoint of A's live run (GET, logs, status): run tokens are judged on it. */
  runEndpoint: boolean;
  /** Reserved for admins by the README (beyond what the route table says). */
  adminOnly?: boolean;
  /** GETs (as admin) whose answers must not change when the request is refused. */
  targets: string[];
  /** The body sent (null: none); built once the media types are known. */
  body: unknown;
  accept?: string;
  contentType?: string;
}

export class UnmappedRoute extends Error {}

const isWrite = (method: string) => !['GET', 'HEAD'].includes(method);

/** Turns one route of the table into a request against A's objects; throws UnmappedRoute when the table above cannot fill it. */
export function planRoute(route: RouteEntry, world: World): Plan {
  const { method, path } = route;
  const base: Omit<Plan, 'operation' | 'url'> = { route, runEndpoint: false, targets: [], body: null };
  if (route.access === 'public') {
    if (!PUBLIC_PATHS.includes(path)) throw new UnmappedRoute(`${route.key} is public, but the README names no such public route`);
    return { ...base, operation: 'public', url: path };
  }
  if (PUBLIC_PATHS.includes(path))
    throw new UnmappedRoute(`${route.key} should be public (README) but requires ${JSON.stringify(route.access)}`);
  if (SESSION_PATHS.includes(path) && method === 'POST') {
    // Switching to A: where a person of A acts already, so the switch changes nothing.
    return { ...base, operation: 'session', url: path, body: path === '/auth/session/workspace' ? { workspace: world.a.workspace } : null };
  }
  if (INDEX_PATHS.includes(path) && (method === 'GET' || method === 'HEAD')) return { ...base, operation: 'index', url: path };
  // The Prometheus metrics (docs/metrics.md): a read, for admins only (the route table says so).
  if (path === '/metrics' && (method === 'GET' || method === 'HEAD')) return { ...base, operation: 'read', url: path };
  if (path === '/api/meshobjects' && method === 'PUT') return { ...base, operation: 'import', url: path };
  // meshObjectCollections: admins only, like the import they serve.
  if (path === '/api/meshobjectcollections') return { ...base, operation: 'import', url: path };
  // The OpenStack project metadata: a POST that changes nothing, for admins only as the import is.
  if (path === '/api/metadata/openstackProjectMetadata') return { ...base, operation: 'import', url: path };

  // The Terraform state backend: A's live block's state, a run endpoint of its live run.
  if (path.startsWith('/api/terraform/state/')) {
    const body = isWrite(method) && method !== 'DELETE' ? {} : null;
    return {
      ...base,
      operation: 'tfstate',
      runEndpoint: true,
      body,
      url: `/api/terraform/state/workspace/${world.a.workspace}/buildingBlock/${world.a.liveBlock}`,
    };
  }

  const match = /^\/api\/(?:meshobjects|admin)\/((?:meshworkspacebindings|meshprojectbindings)\/[^/]+|[^/]+)(\/.*)?$/.exec(path);
  if (!match) throw new UnmappedRoute(`${route.key}: no case mapping for this path`);
  const collection = match[1]!;
  const rest = (match[2] ?? '').split('/').filter((s) => s !== '');
  if (GONE_COLLECTIONS.includes(collection)) {
    if (rest.some((s) => s !== '*')) throw new UnmappedRoute(`${route.key}: unexpected sub-path of a retired kind`);
    // Methods with a body (QUERY must have one) send an empty object.
    const body = ['POST', 'PUT', 'PATCH', 'QUERY'].includes(method) ? {} : null;
    return { ...base, operation: 'gone', collection, url: path.replace('*', 'matrix-x'), body };
  }
  const spec = COLLECTIONS[collection];
  if (!spec) throw new UnmappedRoute(`${route.key}: no case mapping for collection "${collection}"`);
  const filled = rest.map((segment) => {
    if (segment === '*') throw new UnmappedRoute(`${route.key}: wildcard in a served collection`);
    if (!segment.startsWith(':')) return segment;
    const fill = spec.params[segment.slice(1)];
    if (!fill) throw new UnmappedRoute(`${route.key}: no case mapping for path parameter "${segment}"`);
    return encodeURIComponent(fill(world));
  });
  const collectionPath = path.slice(0, path.length - (match[2] ?? '').length);
  const url = [collectionPath, ...filled].join('/');
  const hasParam = rest.some((s) => s.startsWith(':'));
  const planned = { ...base, collection, spec };

  if (!hasParam) {
    if (rest.length === 0 && !isWrite(method)) return { ...planned, operation: 'list', url: `${url}${spec.listQuery?.(world) ?? ''}` };
    if (rest.length === 0 && method === 'POST' && collection === 'meshbuildingblockruns')
      return { ...planned, operation: 'claim', url: `${url}?runnerNodeId=${world.a.runnerUuid}` };
    if (rest.length === 0 && method === 'POST') {
      if (!spec.create) throw new UnmappedRoute(`${route.key}: no create body for collection "${collection}"`);
      return { ...planned, operation: 'create', url, body: spec.create(world) };
    }
    if (rest.join('/') === 'create' && method === 'POST' && collection === 'meshbuildingblockruns')
      return { ...planned, operation: 'claim', url: `${url}?forRunnerUuid=${world.a.runnerUuid}` };
    throw new UnmappedRoute(`${route.key}: no case mapping for this collection-level route`);
  }
  const runEndpoint = collection === 'meshbuildingblockruns';
  const adminOnly = spec.adminOnly?.includes(`${method} ${rest.join('/')}`) === true;
  return { ...planned, operation: isWrite(method) ? 'write' : 'read', url, runEndpoint, adminOnly };
}

// ---------------------------------------------------------------------------------------------
// Media types, by trying (hooks answer 406/415 naming what a route serves, before any permission check)

const PROBE_TYPE = 'application/vnd.vendor.api.accessmatrixprobe.v1.hal+json';

function offered(response: Response): string[] {
  const message = String(response.json.message ?? '');
  const at = message.indexOf('send one of: ');
  assert.ok(at >= 0, `a ${response.status} names what the route serves: ${message}`);
  return message
    .slice(at + 'send one of: '.length)
    .split(', ')
    .map((s) => s.trim());
}

export interface RouteMedia {
  produces: string[];
  consumes: string[];
}

/**
 * Finds the Accept and Content-Type a route takes: a caller whose key holds nothing (so the request
 * is refused at the permission check right after negotiation) sends none, then what the 406 or 415 names.
 */
export async function probeMedia(prober: ApiClient, method: string, url: string): Promise<RouteMedia> {
  const result: RouteMedia = { produces: [], consumes: [] };
  for (let attempt = 0; attempt < 3; attempt++) {
    const headers: Record<string, string | undefined> = { accept: result.produces[0], 'content-type': result.consumes[0] ?? PROBE_TYPE };
    const response = await prober.request(method, url, { headers, body: isWrite(method) ? '{}' : undefined });
    if (method === 'HEAD') return result;
    if (response.status === 406 && result.produces.length === 0) result.produces = offered(response);
    else if (response.status === 415 && result.consumes.length === 0) result.consumes = offered(response);
    else return result;
  }
  return result;
}

/** HEAD answers carry no body: its media types are the GET route's. */
export function mediaFor(plan: Plan, byRoute: Map<string, RouteMedia>): RouteMedia {
  if (plan.route.method === 'HEAD') return byRoute.get(`GET ${plan.route.path}`) ?? { produces: [], consumes: [] };
  return byRoute.get(plan.route.key) ?? { produces: [], consumes: [] };
}

// ---------------------------------------------------------------------------------------------
// Credentials

export interface Credential {
  /** The case (one of the rules of the brief). */
  name: string;
  /** A variant of the case, for messages. */
  label: string;
  authorization?: string;
  /** Other credential headers (a person's session cookie). */
  headers?: Record<string, string>;
  /** Headers sent on state-changing requests only (a browser's Origin). */
  writeHeaders?: Record<string, string>;
}

/** Tokens that must not authenticate: not JWTs, unknown schemes, empty credentials. */
export function malformedTokens(): Credential[] {
  return [
    { name: 'malformed token', label: 'Bearer not-a-token', authorization: 'Bearer not-a-token' },
    { name: 'malformed token', label: 'Bearer a.b.c', authorization: 'Bearer eyJhbGciOiJFUzI1NiJ9.e30.AAAA' },
    { name: 'malformed token', label: 'Bearer (empty)', authorization: 'Bearer ' },
    { name: 'malformed token', label: 'Digest scheme', authorization: 'Digest username="x"' },
  ];
}

const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/**
 * Tokens nobody of ours signed, built from a real one: the same header (kid of a real signing key)
 * and claims signed with a stranger's key, `alg: none`, a real signature over a changed payload, and a
 * forged run token.
 */
export async function forgedTokens(realToken: string, runUuid: string): Promise<Credential[]> {
  const header = decodeProtectedHeader(realToken);
  const claims = decodeJwt(realToken);
  const { privateKey } = await generateKeyPair('ES256');
  const sign = (payload: Json) => new SignJWT(payload).setProtectedHeader({ alg: 'ES256', kid: header.kid, typ: 'JWT' }).sign(privateKey);
  const [h, , s] = realToken.split('.');
  return [
    { name: 'token signed by nobody', label: 'stranger ES256 key, real kid', authorization: `Bearer ${await sign(claims)}` },
    {
      name: 'token signed by nobody',
      label: 'forged run token',
      authorization: `Bearer ${await sign({ ...claims, sub: `run:${runUuid}` })}`,
    },
    {
      name: 'token signed by nobody',
      label: 'alg none',
      authorization: `Bearer ${b64url({ alg: 'none', typ: 'JWT' })}.${b64url(claims)}.`,
    },
    {
      name: 'token signed by nobody',
      label: 'real signature, changed claims',
      authorization: `Bearer ${h}.${b64url({ ...claims, exp: (claims.exp ?? 0) + 86_400 })}.${s}`,
    },
  ];
}

export function wrongBasics(key: KeyCredentials): Credential[] {
  return [
    {
      name: 'Basic with a wrong password',
      label: 'the API user, wrong password',
      authorization: basic(TEST_ADMIN.username, 'wrong-password-123'),
    },
    { name: 'Basic with a wrong password', label: 'an unknown user', authorization: basic('matrix-nobody', TEST_ADMIN.password) },
    {
      name: 'Basic with a wrong password',
      label: 'an API key’s client id and secret',
      authorization: basic(key.clientId, key.clientSecret),
    },
  ];
}

/** A key of the workspace holding the codes, logged in. */
export async function keyToken(
  admin: ApiClient,
  workspace: string,
  permissions: string[],
): Promise<{ key: KeyCredentials; token: string }> {
  const key = await createKey(admin, workspace, permissions);
  return { key, token: await login(admin, key) };
}

/** Routes only admins may call: by the route table or by the README. */
export function adminArea(plan: Plan): boolean {
  const access = plan.route.access;
  return (
    access === 'admin' ||
    (typeof access === 'object' && 'adminOnly' in access && access.adminOnly === true) ||
    (typeof access === 'object' && 'code' in access && access.code.startsWith('ADM_')) ||
    plan.adminOnly === true
  );
}

/** The codes that grant a route, from its access rule (and the collection's per-object rules for `authenticated` routes); none for admin routes. */
export function grantingCodes(plan: Plan): string[] | undefined {
  const access = plan.route.access;
  if (adminArea(plan)) return undefined;
  if (typeof access === 'object' && 'managed' in access) return [`MANAGED_${access.managed}`];
  if (typeof access === 'object' && 'code' in access) return [access.code];
  if (typeof access === 'object')
    return access.adminOnly ? undefined : [`${access.resource}_${access.action}`, `MANAGED_${access.resource}_${access.action}`];
  if (access === 'authenticated' && plan.spec?.objectCodes)
    return isWrite(plan.route.method) ? plan.spec.objectCodes.write : plan.spec.objectCodes.read;
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// Snapshots: "nothing changed"

/** Fields that legitimately differ between two reads of an unchanged object. */
const VOLATILE = new Set<string>([]);

function normalize(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(normalize);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value as Json)
        .filter(([key]) => !VOLATILE.has(key))
        .map(([key, item]) => [key, normalize(item)]),
    );
  }
  return value;
}

/** What an admin reads at a URL, as comparable text. */
export async function snapshot(admin: ApiClient, url: string, accept: string | undefined): Promise<string> {
  const response = await admin.get(url, { headers: { accept } });
  let body: unknown = response.text;
  try {
    body = normalize(JSON.parse(response.text));
  } catch {
    // not JSON: compare the text
  }
  return `${response.status} ${JSON.stringify(body)}`;
}

/** Runs `task` over `items`, at most `limit` at a time. */
export async function pool<T>(items: readonly T[], limit: number, task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const item = items[next++]!;
      await task(item);
    }
  });
  await Promise.all(workers);
}

export const API_USER = media('apiuser', 'v1');
