import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { ApiClient } from './client.js';
import { media } from './client.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = Record<string, any>;

export const WORKSPACE = media('meshworkspace', 'v2');
export const PROJECT = media('meshproject', 'v2');
export const LOCATION = media('meshlocation', 'v1');
export const LOCATION_PREVIEW = media('meshlocation', 'v1-preview');
export const PLATFORM = media('meshplatform', 'v2');
export const PLATFORM_PREVIEW = media('meshplatform', 'v2-preview');
export const TENANT = media('meshtenant', 'v4');
export const TENANT_PREVIEW = media('meshtenant', 'v4-preview');
export const IMPORT_JSON = 'application/vnd.vendor.api.meshobjects.v1+json';
export const IMPORT_YAML = 'application/vnd.vendor.api.meshobjects.v1+yaml';

const BASE = '/api/meshobjects';
export const PATHS = {
  workspaces: `${BASE}/meshworkspaces`,
  projects: `${BASE}/meshprojects`,
  locations: `${BASE}/meshlocations`,
  platforms: `${BASE}/meshplatforms`,
  tenants: `${BASE}/meshtenants`,
  import: BASE,
} as const;

/** Accept and Content-Type of one media type. */
export const io = (type: string) => ({ accept: type, 'content-type': type });

let counter = 0;
/** A fresh identifier (lower-case letters, digits, dashes) that no other test uses. */
export const unique = (prefix: string) => `${prefix}-${(++counter).toString(36)}${randomBytes(3).toString('hex')}`;

/** Fields merged into the default body's metadata and spec. */
export interface Extra {
  metadata?: Json;
  spec?: Json;
}

export const workspaceBody = (name: string, extra: Extra = {}): Json => ({
  apiVersion: 'v2',
  kind: 'meshWorkspace',
  metadata: { name, ...extra.metadata },
  spec: { displayName: `Workspace ${name}`, ...extra.spec },
});

export const projectBody = (workspace: string, name: string, extra: Extra = {}): Json => ({
  apiVersion: 'v2',
  kind: 'meshProject',
  metadata: { name, ownedByWorkspace: workspace, ...extra.metadata },
  spec: { displayName: `Project ${name}`, ...extra.spec },
});

export const locationBody = (name: string, extra: Extra = {}): Json => ({
  apiVersion: 'v1',
  kind: 'meshLocation',
  metadata: { name, ...extra.metadata },
  spec: { displayName: `Location ${name}`, ...extra.spec },
});

export const platformBody = (workspace: string, name: string, location: string, extra: Extra = {}): Json => ({
  apiVersion: 'v2',
  kind: 'meshPlatform',
  metadata: { name, ownedByWorkspace: workspace, ...extra.metadata },
  spec: { displayName: `Platform ${name}`, locationRef: { kind: 'meshLocation', name: location }, ...extra.spec },
});

export const tenantBody = (workspace: string, project: string, platformUuid: string, extra: Extra = {}): Json => ({
  apiVersion: 'v4',
  kind: 'meshTenant',
  metadata: { ownedByWorkspace: workspace, ownedByProject: project, ...extra.metadata },
  spec: { platformRef: { kind: 'meshPlatform', uuid: platformUuid }, ...extra.spec },
});

async function create(client: ApiClient, path: string, type: string, body: Json): Promise<Json> {
  const response = await client.post(path, body, { headers: io(type) });
  assert.equal(response.status, 201, `POST ${path}: ${response.status} ${response.text}`);
  return response.json;
}

export const createWorkspace = (client: ApiClient, name: string, extra?: Extra) =>
  create(client, PATHS.workspaces, WORKSPACE, workspaceBody(name, extra));

export const createProject = (client: ApiClient, workspace: string, name: string, extra?: Extra) =>
  create(client, PATHS.projects, PROJECT, projectBody(workspace, name, extra));

export const createLocation = (client: ApiClient, name: string, extra?: Extra) =>
  create(client, PATHS.locations, LOCATION, locationBody(name, extra));

/** Creates a platform and returns its uuid. */
export async function createPlatform(client: ApiClient, workspace: string, name: string, location: string, extra?: Extra): Promise<string> {
  const json = await create(client, PATHS.platforms, PLATFORM, platformBody(workspace, name, location, extra));
  assert.equal(typeof json.metadata?.uuid, 'string', JSON.stringify(json));
  return json.metadata.uuid;
}

export const createTenant = (client: ApiClient, workspace: string, project: string, platformUuid: string, extra?: Extra) =>
  create(client, PATHS.tenants, TENANT, tenantBody(workspace, project, platformUuid, extra));

export interface Structure {
  workspace: string;
  project: string;
  location: string;
  platform: string;
  platformUuid: string;
}

/** A workspace with a project, and a location with a platform owned by that workspace (no tenant). */
export async function createStructure(client: ApiClient, prefix = 's'): Promise<Structure> {
  const workspace = unique(`${prefix}-ws`);
  const project = unique(`${prefix}-prj`);
  const location = unique(`${prefix}-loc`);
  const platform = unique(`${prefix}-plf`);
  await createWorkspace(client, workspace);
  await createProject(client, workspace, project);
  await createLocation(client, location);
  const platformUuid = await createPlatform(client, workspace, platform, location);
  return { workspace, project, location, platform, platformUuid };
}

export const PAYMENT_METHOD = media('meshpaymentmethod', 'v2');

/** Creates a payment method of the workspace (projects may name only those). */
export const createPaymentMethod = (client: ApiClient, workspace: string, name: string, spec: Json = {}) =>
  create(client, '/api/meshobjects/meshpaymentmethods', PAYMENT_METHOD, {
    apiVersion: 'v2',
    kind: 'meshPaymentMethod',
    metadata: { name, ownedByWorkspace: workspace },
    spec: { displayName: `Payment ${name}`, ...spec },
  });

export const LANDING_ZONE = media('meshlandingzone', 'v1');

export const landingZoneBody = (name: string, platformUuid: string, extra: Extra = {}): Json => ({
  apiVersion: 'v1',
  kind: 'meshLandingZone',
  metadata: { name, tags: {}, ...extra.metadata },
  spec: {
    displayName: `Landing zone ${name}`,
    platformRef: { kind: 'meshPlatform', uuid: platformUuid },
    automateDeletionApproval: false,
    automateDeletionReplication: false,
    quotas: [],
    ...extra.spec,
  },
});

/** Creates a landing zone on the platform (tenants may name only enabled zones of their platform). */
export const createLandingZone = (client: ApiClient, name: string, platformUuid: string, extra?: Extra) =>
  create(client, '/api/meshobjects/meshlandingzones', LANDING_ZONE, landingZoneBody(name, platformUuid, extra));
