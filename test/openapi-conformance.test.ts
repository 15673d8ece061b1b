/**
 * Conformance with the published OpenAPI (issue 17), derived from `openapi.json`, not from a
 * hand-written list:
 * - every list operation this server serves, in every documented representation, applies every
 *   query parameter the OpenAPI documents for it: a value matching nothing gives an empty page, a
 *   matching value gives exactly the matching objects (fewer than all), repeatable parameters take
 *   any of their values, and unknown parameters change nothing;
 * - every answer of a served operation is valid against its documented response schema (ajv), and
 *   every documented answer of a served operation is produced at least once; the deviations are
 *   listed below and in the README ("OpenAPI conformance"), each with its reason.
 * A documented parameter without a case below fails the test: no filter can be ignored unnoticed.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { before, it } from 'node:test';
import { media, type ApiClient } from './support/client.js';
import { ALL_TITLES } from '../src/kinds/registry.js';
import { createKey } from './support/identity.js';
import {
  checkExchanges,
  coverageKey,
  documentedValues,
  isListOperation,
  isServed,
  openApiOperations,
  recording,
  type Deviation,
  type Exchange,
  type OpenApiOperation,
} from './support/openapi.js';
import { describeEachDatabase } from './support/server.js';
import { unique, type Json } from './support/structure.js';

const mc = (kind: string, version: string) => media(kind, version, 'meshcloud');
const io = (type: string) => ({ accept: type, 'content-type': type });
const BASE = '/api/meshobjects';
const TERRAFORM_RUNNER = '98520496-627d-43e6-82da-ce499179ff3f';

/**
 * Where this server knowingly answers otherwise than the OpenAPI documents (README, "OpenAPI
 * conformance"). An entry that excuses nothing fails the test, so the list stays true.
 */
const DEVIATIONS: Deviation[] = [
  {
    operation: 'PUT /api/meshobjects',
    keyword: 'type',
    reason: 'The import answers a JSON array of results, as the OpenAPI’s own example and COMPAT §7 show; its schema says object.',
  },
  {
    operation: /^(GET|POST|PUT) \/api\/meshobjects\/meshbuildingblockdefinitions/,
    instancePath: /\/spec$/,
    keyword: 'required',
    reason:
      'spec.supportUrl, documentationUrl and supportedPlatforms are answered as sent: optional values the client did not send are not invented (COMPAT §3 echo fidelity; the Terraform provider sends null supportedPlatforms for workspace-level definitions, COMPAT §8; the OpenAPI types the URLs as strings, nullable only in GET answers).',
  },
  {
    operation: /^(GET|POST|PUT) \/api\/meshobjects\/meshbuildingblocks/,
    instancePath: /\/(spec\/inputs|status\/outputs)$/,
    keyword: 'type',
    reason:
      'Under the meshcloud vendor segment v2-preview inputs and outputs are keyed by name, as the original answers them since May 2026 (the Terraform provider decodes maps; COMPAT §1 "Colliding forms"); the published December 2025 OpenAPI shows arrays, which the spec’s vendor segment keeps.',
  },
  {
    operation: 'POST /api/meshobjects/meshbuildingblocks',
    instancePath: /\/spec\/targetRef$/,
    keyword: 'required',
    reason:
      'A workspace-level block targets {kind: meshWorkspace, identifier} (spec §2.5); the OpenAPI’s schema knows only the tenant form {kind, uuid}.',
  },
  {
    operation: /^(GET|POST|PUT) \/api\/meshobjects\/meshplatforms/,
    instancePath: /\/spec$/,
    keyword: 'required',
    reason:
      'spec.config is shown only to admins and the owning workspace’s PLATFORMINSTANCE_LIST holders (README, "Who may do what"), and a platform without a config (CUSTOM) has none.',
  },
  {
    operation: 'POST /api/metadata/openstackProjectMetadata',
    instancePath: /^\/tags$/,
    keyword: 'required',
    reason:
      'tags are the project’s own tags; the OpenAPI’s schema, derived from its example, requires that example’s keys (costCenter, customNumber).',
  },
  {
    operation: /^(GET|POST) \/api\/meshobjects\/meshcommunications/,
    instancePath: /\/status$/,
    keyword: 'required',
    reason:
      'status.resolutionStatus is "only present if the associated communication definition is of type ACTION_REQUIRED", as the OpenAPI’s own description says; its schema lists it as required. A NOTIFICATION has none.',
  },
  {
    operation: /^(GET|POST) \/api\/meshobjects\/meshcommunicationdefinitions/,
    instancePath: /\/status$/,
    keyword: 'required',
    reason:
      'communicationsOpen and communicationsResolved are "only present for communication definitions of type ACTION_REQUIRED", as the OpenAPI’s own description says; its schema lists them as required. A NOTIFICATION definition shows communicationsTotal.',
  },
];

/** How a list's objects are identified and read (the representation the probes read values from). */
interface ListCase {
  embedded: string;
  probeMedia: string;
  identity(item: Json): string;
  /** Parameters the list requires (project bindings): sent first in every query; a probe's own value comes later and wins. */
  base?: string;
}

const byUuid = (item: Json) => item.metadata.uuid as string;
const byName = (item: Json) => item.metadata.name as string;

const LISTS: Record<string, ListCase> = {
  [`${BASE}/meshworkspaces`]: { embedded: 'meshWorkspaces', probeMedia: mc('meshworkspace', 'v2'), identity: byName },
  [`${BASE}/meshprojects`]: {
    embedded: 'meshProjects',
    probeMedia: mc('meshproject', 'v2'),
    identity: (p) => `${p.metadata.ownedByWorkspace}.${p.metadata.name}`,
  },
  [`${BASE}/meshlocations`]: { embedded: 'meshLocations', probeMedia: mc('meshlocation', 'v1-preview'), identity: byName },
  [`${BASE}/meshplatforms`]: { embedded: 'meshPlatforms', probeMedia: mc('meshplatform', 'v2-preview'), identity: byUuid },
  [`${BASE}/meshtenants`]: {
    embedded: 'meshTenants',
    probeMedia: mc('meshtenant', 'v4-preview'),
    identity: (t) => (t.apiVersion === 'v3' ? t.metadata.tenantIdentifier : t.status.tenantName),
  },
  [`${BASE}/meshbuildingblockdefinitions`]: {
    embedded: 'meshBuildingBlockDefinitions',
    probeMedia: mc('meshbuildingblockdefinition', 'v1-preview'),
    identity: byUuid,
  },
  [`${BASE}/meshbuildingblocks`]: { embedded: 'meshBuildingBlocks', probeMedia: mc('meshbuildingblock', 'v2-preview'), identity: byUuid },
  [`${BASE}/mesheventlogs`]: { embedded: 'meshEventLogs', probeMedia: mc('mesheventlog', 'v1-preview'), identity: byUuid },
  [`${BASE}/meshusers`]: { embedded: 'meshUsers', probeMedia: mc('meshuser', 'v2'), identity: byName },
  [`${BASE}/meshworkspaceusergroups`]: {
    embedded: 'meshWorkspaceUserGroups',
    probeMedia: mc('meshworkspaceusergroup', 'v1'),
    identity: (g) => `${g.metadata.ownedByWorkspace}.${g.metadata.name}`,
  },
  [`${BASE}/meshprojectroles`]: { embedded: 'meshProjectRoles', probeMedia: mc('meshprojectrole', 'v1'), identity: byName },
  [`${BASE}/meshworkspacebindings/userbindings`]: {
    embedded: 'meshWorkspaceUserBindings',
    probeMedia: mc('meshworkspaceuserbinding', 'v2'),
    identity: byName,
  },
  [`${BASE}/meshworkspacebindings/groupbindings`]: {
    embedded: 'meshWorkspaceGroupBindings',
    probeMedia: mc('meshworkspacegroupbinding', 'v2'),
    identity: byName,
  },
  // The fixtures' bindings are all in one project, the one the required parameters name (set in before()).
  [`${BASE}/meshprojectbindings/userbindings`]: {
    embedded: 'meshProjectUserBindings',
    probeMedia: mc('meshprojectuserbinding', 'v3'),
    identity: byName,
  },
  [`${BASE}/meshprojectbindings/groupbindings`]: {
    embedded: 'meshProjectGroupBindings',
    probeMedia: mc('meshprojectgroupbinding', 'v3'),
    identity: byName,
  },
  // The platform catalogue (issue 20).
  [`${BASE}/meshpaymentmethods`]: { embedded: 'meshPaymentMethods', probeMedia: mc('meshpaymentmethod', 'v2'), identity: byName },
  [`${BASE}/meshtagdefinitions`]: { embedded: 'meshTagDefinitions', probeMedia: mc('meshtagdefinition', 'v1'), identity: byName },
  [`${BASE}/meshplatformtypes`]: { embedded: 'meshPlatformTypes', probeMedia: mc('meshplatformtype', 'v1-preview'), identity: byName },
  [`${BASE}/meshlandingzones`]: { embedded: 'meshLandingZones', probeMedia: mc('meshlandingzone', 'v1-preview'), identity: byName },
  [`${BASE}/meshintegrations`]: { embedded: 'meshIntegrations', probeMedia: mc('meshintegration', 'v1-preview'), identity: byUuid },
  // Service instances and communications (issue 21).
  [`${BASE}/meshserviceinstances`]: {
    embedded: 'meshServiceInstances',
    probeMedia: mc('meshserviceinstance', 'v2'),
    identity: (i) => i.metadata.instanceId,
  },
  [`${BASE}/meshcommunicationdefinitions`]: {
    embedded: 'meshCommunicationDefinitions',
    probeMedia: mc('meshcommunicationdefinition', 'v1-preview'),
    identity: byUuid,
  },
  [`${BASE}/meshcommunications`]: { embedded: 'meshCommunications', probeMedia: mc('meshcommunication', 'v1-preview'), identity: byUuid },
};

/** What the fixtures know beyond what an object shows. */
interface World {
  versions: Map<string, { definitionUuid: string; definitionName: string; versionNumber: number; owner: string }>;
  tenants: Map<string, { project: string; platformIdentifier: string }>;
  /** Every event's `createdAt` once the fixtures are made (`from`/`until` compare against them). */
  eventTimes: string[];
  workspaceDisplayNames: Map<string, string>;
  /** What the fixtures gave each user: workspaces and roles there, projects (of workspace A) and roles, platforms of those projects' tenants. */
  users: Map<
    string,
    { workspaces: string[]; workspaceRoles: string[]; projectsOfA: string[]; projectRoles: string[]; platforms: string[] }
  >;
  /** Members of each group, by group name. */
  groups: Map<string, string[]>;
}

type Value = string | string[] | undefined;

/** How one documented parameter is probed: the object's value, and a value no object has. */
interface Probe {
  value(item: Json, world: World): Value;
  /** A value no object has: a literal, 'documented' (one of the values the description lists that no object has), or null with `noNothing`. */
  nothing: string | 'documented' | null;
  noNothing?: string;
  /** Other spellings of a value (versionNumber `v2`). */
  variants?(value: string): string[];
  /** The query whose objects the value is looked for in (states other than the default). */
  universe?: string;
  /** Why every object may match (the filter cannot narrow here). */
  allMatch?: string;
  /** A repeated parameter must hold for every value (`excludeTitle`), not for any of them. */
  repeatMeansAll?: boolean;
}

const fresh = () => unique('nothing-matches');
const blockVersion = (item: Json, world: World) => world.versions.get(item.spec.buildingBlockDefinitionVersionRef.uuid);
const blockTenant = (item: Json, world: World) =>
  item.spec.targetRef.kind === 'meshTenant' ? world.tenants.get(item.spec.targetRef.uuid) : undefined;

const PROBES: Record<string, Probe> = {
  [`${BASE}/meshprojects?workspaceIdentifier`]: { value: (p) => p.metadata.ownedByWorkspace, nothing: 'no-such-workspace' },
  [`${BASE}/meshprojects?paymentIdentifier`]: { value: (p) => p.spec.paymentMethodIdentifier, nothing: 'no-such-payment-method' },
  [`${BASE}/meshprojects?state`]: {
    value: () => 'ACTIVE',
    nothing: 'documented',
    allMatch: 'deleted projects are forgotten at once: every listed project is ACTIVE',
  },
  [`${BASE}/meshlocations?displayName`]: { value: (l) => l.spec.displayName, nothing: 'No such location' },
  [`${BASE}/meshplatforms?identifier`]: { value: (p) => `${p.metadata.name}.${p.spec.locationRef.name}`, nothing: 'no-such.platform' },
  [`${BASE}/meshplatforms?locationIdentifier`]: { value: (p) => p.spec.locationRef.name, nothing: 'no-such-location' },
  [`${BASE}/meshplatforms?ownedByWorkspace`]: { value: (p) => p.metadata.ownedByWorkspace, nothing: 'no-such-workspace' },
  [`${BASE}/meshplatforms?publicationState`]: { value: (p) => p.spec.availability.publicationState, nothing: 'documented' },
  [`${BASE}/meshplatforms?restriction`]: { value: (p) => p.spec.availability.restriction, nothing: 'documented' },
  [`${BASE}/meshplatforms?displayName`]: { value: (p) => p.spec.displayName, nothing: 'No such platform' },
  [`${BASE}/meshplatforms?contributingWorkspace`]: { value: (p) => p.spec.contributingWorkspaces ?? [], nothing: 'no-such-workspace' },
  [`${BASE}/meshtenants?workspaceIdentifier`]: { value: (t) => t.metadata.ownedByWorkspace, nothing: 'no-such-workspace' },
  [`${BASE}/meshtenants?projectIdentifier`]: { value: (t) => t.metadata.ownedByProject, nothing: 'no-such-project' },
  [`${BASE}/meshtenants?platformIdentifier`]: { value: (t) => t.spec.platformIdentifier, nothing: 'no-such.platform' },
  [`${BASE}/meshtenants?platformTypeIdentifier`]: { value: (t) => t.status.platformTypeIdentifier, nothing: 'OPENSTACK' },
  [`${BASE}/meshtenants?landingZoneIdentifier`]: {
    value: (t) => t.spec.landingZoneIdentifier || undefined,
    nothing: 'no-such-landing-zone',
  },
  [`${BASE}/meshtenants?platformTenantId`]: { value: (t) => t.spec.platformTenantId, nothing: 'no-such-platform-tenant' },
  [`${BASE}/meshtenants?state`]: { value: (t) => t.status.lifecycle.state, nothing: 'documented', universe: 'deletionState=ALL' },
  [`${BASE}/meshtenants?deletionState`]: { value: (t) => t.status.lifecycle.state, nothing: 'documented', universe: 'deletionState=ALL' },
  [`${BASE}/meshbuildingblockdefinitions?workspaceIdentifier`]: { value: (d) => d.metadata.ownedByWorkspace, nothing: 'no-such-workspace' },
  [`${BASE}/meshbuildingblocks?workspaceIdentifier`]: { value: (b) => b.metadata.ownedByWorkspace, nothing: 'no-such-workspace' },
  [`${BASE}/meshbuildingblocks?projectIdentifier`]: { value: (b, w) => blockTenant(b, w)?.project, nothing: 'no-such-project' },
  [`${BASE}/meshbuildingblocks?platformIdentifier`]: {
    value: (b, w) => blockTenant(b, w)?.platformIdentifier,
    nothing: 'no-such.platform',
  },
  [`${BASE}/meshbuildingblocks?name`]: { value: (b) => b.spec.displayName, nothing: 'No such block' },
  [`${BASE}/meshbuildingblocks?definitionName`]: { value: (b, w) => blockVersion(b, w)?.definitionName, nothing: 'No such definition' },
  [`${BASE}/meshbuildingblocks?definitionUuid`]: { value: (b, w) => blockVersion(b, w)?.definitionUuid, nothing: randomUUID() },
  [`${BASE}/meshbuildingblocks?versionNumber`]: {
    value: (b, w) => String(blockVersion(b, w)?.versionNumber),
    nothing: '99',
    variants: (v) => [`v${v}`],
  },
  [`${BASE}/meshbuildingblocks?status`]: { value: (b) => b.status.status, nothing: 'documented' },
  [`${BASE}/meshbuildingblocks?versionUuid`]: { value: (b) => b.spec.buildingBlockDefinitionVersionRef.uuid, nothing: randomUUID() },
  [`${BASE}/meshbuildingblocks?tenantUuid`]: {
    value: (b) => (b.spec.targetRef.kind === 'meshTenant' ? b.spec.targetRef.uuid : undefined),
    nothing: randomUUID(),
  },
  [`${BASE}/meshbuildingblocks?targetRefKind`]: {
    value: (b) => b.spec.targetRef.kind,
    nothing: null,
    noNothing: 'both target kinds are among the fixtures (the narrowing shows the filter applies)',
  },
  [`${BASE}/meshbuildingblocks?managedByWorkspaceIdentifier`]: { value: (b, w) => blockVersion(b, w)?.owner, nothing: 'no-such-workspace' },
  [`${BASE}/meshbuildingblocks?managedByDefinitionUuid`]: { value: (b, w) => blockVersion(b, w)?.definitionUuid, nothing: randomUUID() },
  // The event log: a value "matches" an event when the filter admits it — `from` every instant up to
  // the event's (inclusive), `until` every instant after it (exclusive), `title` every title it contains,
  // `excludeTitle` every title but its own (repeated: all must hold).
  [`${BASE}/mesheventlogs?from`]: {
    value: (e, w) => w.eventTimes.filter((t) => t <= e.metadata.createdAt),
    nothing: '2999-01-01T00:00:00.000Z',
  },
  [`${BASE}/mesheventlogs?until`]: {
    value: (e, w) => w.eventTimes.filter((t) => t > e.metadata.createdAt),
    nothing: '2000-01-01T00:00:00.000Z',
  },
  [`${BASE}/mesheventlogs?title`]: { value: (e) => ALL_TITLES.filter((title) => e.spec.title.includes(title)), nothing: 'No such title' },
  [`${BASE}/mesheventlogs?description`]: { value: (e) => e.spec.description, nothing: 'no event says this' },
  [`${BASE}/mesheventlogs?authorType`]: { value: (e) => e.spec.author.authorType, nothing: 'User' },
  [`${BASE}/mesheventlogs?authorIdentifier`]: { value: (e) => e.spec.author.identifier, nothing: 'no-such-author' },
  [`${BASE}/mesheventlogs?eventType`]: { value: (e) => e.spec.eventType, nothing: 'Cancelled' },
  [`${BASE}/mesheventlogs?workspaceName`]: {
    value: (e, w) => (e.spec.workspaceRef ? w.workspaceDisplayNames.get(e.spec.workspaceRef.name) : undefined),
    nothing: 'No such workspace',
  },
  [`${BASE}/mesheventlogs?workspaceIdentifier`]: { value: (e) => e.spec.workspaceRef?.name, nothing: 'no-such-workspace' },
  [`${BASE}/mesheventlogs?excludeTitle`]: {
    value: (e) => ALL_TITLES.filter((title) => title !== e.spec.title),
    nothing: null,
    noNothing: 'excluding one title never excludes every event',
    repeatMeansAll: true,
  },
  [`${BASE}/meshusers?uuid`]: { value: (u) => u.metadata.uuid, nothing: randomUUID() },
  [`${BASE}/meshusers?euid`]: { value: (u) => u.spec.euid ?? undefined, nothing: 'no-such-euid' },
  [`${BASE}/meshusers?username`]: { value: (u) => u.metadata.name, nothing: 'no-such-user' },
  [`${BASE}/meshusers?email`]: { value: (u) => u.spec.email, nothing: 'nobody@example.com' },
  [`${BASE}/meshusers?firstName`]: { value: (u) => u.spec.firstName, nothing: 'Nobody' },
  [`${BASE}/meshusers?lastName`]: { value: (u) => u.spec.lastName, nothing: 'Nobody' },
  [`${BASE}/meshusers?workspaceIdentifier`]: { value: (u, w) => w.users.get(u.metadata.name)?.workspaces, nothing: 'no-such-workspace' },
  [`${BASE}/meshusers?workspaceRole`]: { value: (u, w) => w.users.get(u.metadata.name)?.workspaceRoles, nothing: 'Workspace Nobody' },
  [`${BASE}/meshusers?projectRole`]: { value: (u, w) => w.users.get(u.metadata.name)?.projectRoles, nothing: 'Project Nobody' },
  [`${BASE}/meshusers?platformIdentifier`]: { value: (u, w) => w.users.get(u.metadata.name)?.platforms, nothing: 'no-such.platform' },
  // Requires workspaceIdentifier: probed among the users of workspace A (set in before()).
  [`${BASE}/meshusers?projectIdentifier`]: {
    value: (u, w) => w.users.get(u.metadata.name)?.projectsOfA,
    nothing: 'no-such-project',
    universe: 'set in before()',
  },
  [`${BASE}/meshworkspaceusergroups?workspaceIdentifier`]: { value: (g) => g.metadata.ownedByWorkspace, nothing: 'no-such-workspace' },
  [`${BASE}/meshworkspaceusergroups?username`]: { value: (g) => g.spec.members, nothing: 'no-such-user' },
  [`${BASE}/meshworkspacebindings/userbindings?username`]: { value: (b) => b.subject.name, nothing: 'no-such-user' },
  [`${BASE}/meshworkspacebindings/userbindings?workspaceRole`]: { value: (b) => b.roleRef.name, nothing: 'Workspace Nobody' },
  [`${BASE}/meshworkspacebindings/userbindings?workspaceIdentifier`]: { value: (b) => b.targetRef.name, nothing: 'no-such-workspace' },
  [`${BASE}/meshworkspacebindings/groupbindings?username`]: { value: (b, w) => w.groups.get(b.subject.name), nothing: 'no-such-user' },
  [`${BASE}/meshworkspacebindings/groupbindings?workspaceRole`]: { value: (b) => b.roleRef.name, nothing: 'Workspace Nobody' },
  [`${BASE}/meshprojectbindings/userbindings?workspaceIdentifier`]: {
    value: (b) => b.targetRef.ownedByWorkspace,
    nothing: 'no-such-workspace',
    allMatch: 'required with projectIdentifier: a page is always of one project',
  },
  [`${BASE}/meshprojectbindings/userbindings?projectIdentifier`]: {
    value: (b) => b.targetRef.name,
    nothing: 'no-such-project',
    allMatch: 'required with workspaceIdentifier: a page is always of one project',
  },
  [`${BASE}/meshprojectbindings/groupbindings?workspaceIdentifier`]: {
    value: (b) => b.targetRef.ownedByWorkspace,
    nothing: 'no-such-workspace',
    allMatch: 'required with projectIdentifier: a page is always of one project',
  },
  [`${BASE}/meshprojectbindings/groupbindings?projectIdentifier`]: {
    value: (b) => b.targetRef.name,
    nothing: 'no-such-project',
    allMatch: 'required with workspaceIdentifier: a page is always of one project',
  },
  [`${BASE}/meshpaymentmethods?workspaceIdentifier`]: { value: (p) => p.metadata.ownedByWorkspace, nothing: 'no-such-workspace' },
  [`${BASE}/meshplatformtypes?category`]: { value: (t) => t.spec.category, nothing: 'documented' },
  [`${BASE}/meshplatformtypes?lifecycleStatus`]: {
    value: (t) => t.status.lifecycleState,
    nothing: null,
    noNothing: 'both states are among the fixtures (the narrowing shows the filter applies)',
  },
  [`${BASE}/meshlandingzones?identifier`]: { value: (z) => z.metadata.name, nothing: 'no-such-landing-zone' },
  [`${BASE}/meshlandingzones?displayName`]: { value: (z) => z.spec.displayName, nothing: 'No such landing zone' },
  [`${BASE}/meshlandingzones?platformUuid`]: { value: (z) => z.spec.platformRef.uuid, nothing: randomUUID() },
  [`${BASE}/meshlandingzones?disabled`]: {
    value: (z) => String(z.status.disabled),
    nothing: null,
    noNothing: 'both values are among the fixtures',
  },
  [`${BASE}/meshlandingzones?restricted`]: {
    value: (z) => String(z.status.restricted),
    nothing: null,
    noNothing: 'both values are among the fixtures',
  },
  [`${BASE}/meshlandingzones?ownedByWorkspace`]: { value: (z) => z.metadata.ownedByWorkspace, nothing: 'no-such-workspace' },
  [`${BASE}/meshintegrations?displayName`]: { value: (i) => i.spec.displayName, nothing: 'No such integration' },
  [`${BASE}/meshintegrations?ownedByWorkspace`]: { value: (i) => i.metadata.ownedByWorkspace, nothing: 'no-such-workspace' },
  [`${BASE}/meshserviceinstances?workspaceIdentifier`]: { value: (i) => i.metadata.ownedByWorkspace, nothing: 'no-such-workspace' },
  // Requires workspaceIdentifier: probed among the instances of workspace A (set in before()).
  [`${BASE}/meshserviceinstances?projectIdentifier`]: {
    value: (i) => i.metadata.ownedByProject,
    nothing: 'no-such-project',
    universe: 'set in before()',
  },
  [`${BASE}/meshserviceinstances?marketplaceIdentifier`]: {
    value: (i) => i.metadata.marketplaceIdentifier,
    nothing: 'no-such-marketplace',
  },
  [`${BASE}/meshserviceinstances?serviceIdentifier`]: { value: (i) => i.spec.serviceId, nothing: 'no-such-service' },
  // Requires serviceIdentifier: probed among the instances of one service (set in before()).
  [`${BASE}/meshserviceinstances?planIdentifier`]: { value: (i) => i.spec.planId, nothing: 'no-such-plan', universe: 'set in before()' },
  [`${BASE}/meshcommunicationdefinitions?type`]: {
    value: (d) => d.spec.communication.type,
    nothing: null,
    noNothing: 'both documented types are among the fixtures (the narrowing shows the filter applies)',
  },
  [`${BASE}/meshcommunications?communicationDefinitionUuid`]: {
    value: (c) => c.spec.communicationDefinitionRef.uuid,
    nothing: randomUUID(),
  },
  [`${BASE}/meshcommunications?resolutionStatus`]: {
    value: (c) => c.status.resolutionStatus,
    nothing: null,
    noNothing: 'both documented statuses are among the fixtures',
  },
  [`${BASE}/meshcommunications?communicationType`]: {
    value: (c) => c.status.meshCommunicationDefinition.communicationType,
    nothing: null,
    noNothing: 'both documented types are among the fixtures',
  },
  [`${BASE}/meshintegrations?type`]: {
    value: (i) =>
      ({ github: 'GITHUB', gitlab: 'GITLAB', azuredevops: 'AZURE_DEVOPS' })[i.spec.config.type as string] ??
      String(i.spec.config.type).toUpperCase(),
    nothing: 'documented',
  },
};

const asList = (value: Value): string[] => (value === undefined ? [] : Array.isArray(value) ? value.map(String) : [String(value)]);
const sorted = (values: Iterable<string>) => [...values].sort();

describeEachDatabase('conformance with the published OpenAPI', (ctx) => {
  const exchanges: Exchange[] = [];
  const world: World = {
    versions: new Map(),
    tenants: new Map(),
    eventTimes: [],
    workspaceDisplayNames: new Map(),
    users: new Map(),
    groups: new Map(),
  };
  const names: Record<string, string> = {};
  let admin: ApiClient;
  let served: OpenApiOperation[] = [];

  const created = async (path: string, type: string, body: Json): Promise<Json> => {
    const response = await admin.post(path, body, { headers: io(type) });
    assert.equal(response.status, 201, `POST ${path} (${type}): ${response.status} ${response.text}`);
    return response.json;
  };
  const ok = async (method: string, path: string, type: string | undefined, body?: Json, expected = 200): Promise<Json | undefined> => {
    const response = await admin.request(method, path, {
      headers: type ? (body ? io(type) : { accept: type }) : {},
      ...(body ? { body } : {}),
    });
    assert.equal(response.status, expected, `${method} ${path}: ${response.status} ${response.text}`);
    return response.text === '' ? undefined : response.json;
  };
  const list = async (path: string, type: string, embedded: string, query: string): Promise<Json[]> => {
    const base = LISTS[path]?.base;
    const response = await admin.get(`${path}?size=350${base ? `&${base}` : ''}${query ? `&${query}` : ''}`, { headers: { accept: type } });
    assert.equal(response.status, 200, `GET ${path}?${query} (${type}): ${response.status} ${response.text}`);
    const items = response.json._embedded?.[embedded] as Json[] | undefined;
    assert.ok(Array.isArray(items), `_embedded.${embedded} in ${response.text}`);
    assert.equal(response.json.page.totalElements, items.length, `one page holds the whole list: ${path}?${query}`);
    return items;
  };

  before(async () => {
    admin = recording(ctx.client, exchanges);
    served = openApiOperations().filter((operation) =>
      isServed(operation, ctx.server.server.context.access.keys(), ctx.server.server.context.unservedPaths),
    );

    // Structure: two consumer workspaces, two provider workspaces, two locations, three platforms.
    for (const key of ['wsA', 'wsB', 'provA', 'provB']) names[key] = unique(key.toLowerCase());
    for (const key of ['wsA', 'wsB', 'provA', 'provB']) {
      await created(`${BASE}/meshworkspaces`, mc('meshworkspace', 'v2'), {
        apiVersion: 'v2',
        kind: 'meshWorkspace',
        metadata: { name: names[key], tags: {} },
        spec: { displayName: `Workspace ${key}` },
      });
      world.workspaceDisplayNames.set(names[key]!, `Workspace ${key}`);
    }
    for (const key of ['loc1', 'loc2']) {
      names[key] = unique(key);
      await created(`${BASE}/meshlocations`, mc('meshlocation', 'v1-preview'), {
        apiVersion: 'v1-preview',
        kind: 'meshLocation',
        metadata: { name: names[key] },
        spec: { displayName: `Location ${names[key]}` },
      });
    }
    const platform = (name: string, owner: string, location: string, spec: Json) => ({
      apiVersion: 'v2-preview',
      kind: 'meshPlatform',
      metadata: { name, ownedByWorkspace: owner },
      spec: { displayName: `Platform ${name}`, locationRef: { kind: 'meshLocation', name: location }, ...spec },
    });
    for (const key of ['plat1', 'plat2', 'plat3']) names[key] = unique(key);
    names.plat1Uuid = (
      await created(
        `${BASE}/meshplatforms`,
        mc('meshplatform', 'v2-preview'),
        platform(names.plat1!, names.provA!, names.loc1!, {
          config: { type: 'azure', azure: { entraTenant: 'contoso.example' } },
          availability: { restriction: 'PUBLIC', publicationState: 'PUBLISHED' },
          contributingWorkspaces: [names.wsA],
          quotaDefinitions: [],
        }),
      )
    ).metadata.uuid;
    names.plat2Uuid = (
      await created(`${BASE}/meshplatforms`, mc('meshplatform', 'v1'), {
        apiVersion: 'v1',
        kind: 'meshPlatform',
        metadata: { name: names.plat2, ownedByWorkspace: names.provB },
        spec: {
          displayName: `Platform ${names.plat2}`,
          locationRef: { kind: 'meshLocation', identifier: names.loc2 },
          availability: { restriction: 'RESTRICTED', restrictedToWorkspaces: [names.wsA, names.wsB], marketplaceStatus: 'REQUESTED' },
          contributingWorkspaces: [names.wsB, names.wsA],
        },
      })
    ).metadata.uuid;
    names.plat3Uuid = (
      await created(
        `${BASE}/meshplatforms`,
        mc('meshplatform', 'v2-preview'),
        platform(names.plat3!, names.provA!, names.loc2!, {
          availability: { restriction: 'RESTRICTED', restrictedToWorkspaces: [], publicationState: 'UNPUBLISHED' },
        }),
      )
    ).metadata.uuid;

    // Payment methods (projects name them) and a tag definition (issue 20).
    for (const [name, workspace] of [
      ['pm-a', 'wsA'],
      ['pm-b', 'wsB'],
      ['pm-spare', 'wsA'],
    ] as const) {
      await created(`${BASE}/meshpaymentmethods`, mc('meshpaymentmethod', 'v2'), {
        apiVersion: 'v2',
        kind: 'meshPaymentMethod',
        metadata: { name, ownedByWorkspace: names[workspace] },
        spec: { displayName: `Payment ${name}`, amount: 1000, expirationDate: '2099-12-31', tags: {} },
      });
    }
    await created(`${BASE}/meshtagdefinitions`, mc('meshtagdefinition', 'v1'), {
      apiVersion: 'v1',
      kind: 'meshTagDefinition',
      metadata: { name: 'meshProject.environment' },
      spec: {
        targetKind: 'meshProject',
        key: 'environment',
        valueType: { singleSelect: { options: ['dev', 'test', 'qa', 'production'], defaultValue: 'dev' } },
        description: 'The environment the project runs in.',
        displayName: 'Environment',
        sortOrder: 9999,
        mandatory: true,
        immutable: false,
        restricted: false,
      },
    });

    // Landing zones the tenants name (one restricted, one disabled once its tenant stands on it) and a
    // deactivated custom platform type (issue 20).
    const zone = (name: string, platformUuid: string, spec: Json = {}) => ({
      apiVersion: 'v1-preview',
      kind: 'meshLandingZone',
      metadata: { name, tags: {} },
      spec: {
        displayName: `Zone ${name}`,
        platformRef: { kind: 'meshPlatform', uuid: platformUuid },
        automateDeletionApproval: false,
        automateDeletionReplication: false,
        quotas: [],
        ...spec,
      },
    });
    await created(
      `${BASE}/meshlandingzones`,
      mc('meshlandingzone', 'v1-preview'),
      zone('lz-a', names.plat1Uuid!, {
        platformProperties: { type: 'azure', azure: { azureManagementGroupId: 'mg', azureRoleMappings: [] } },
      }),
    );
    await created(`${BASE}/meshlandingzones`, mc('meshlandingzone', 'v1-preview'), zone('lz-b', names.plat2Uuid!, { restricted: true }));
    await created(`${BASE}/meshlandingzones`, mc('meshlandingzone', 'v1-preview'), zone('lz-c', names.plat3Uuid!));
    await created(`${BASE}/meshplatformtypes`, mc('meshplatformtype', 'v1-preview'), {
      apiVersion: 'v1-preview',
      kind: 'meshPlatformType',
      metadata: { name: 'retired-type' },
      spec: { displayName: 'Retired', category: 'CUSTOM', icon: 'data:image/png;base64,AAAA' },
    });
    await ok('DELETE', `${BASE}/meshplatformtypes/retired-type`, undefined, undefined, 204);
    const INTEGRATION = mc('meshintegration', 'v1-preview');
    names.integration = (
      await created(`${BASE}/meshintegrations`, INTEGRATION, {
        apiVersion: 'v1-preview',
        kind: 'meshIntegration',
        metadata: { ownedByWorkspace: names.provA },
        spec: {
          displayName: 'My GitHub Integration',
          config: {
            type: 'github',
            github: {
              owner: 'my-org',
              baseUrl: 'https://api.github.com',
              appId: '123456',
              appPrivateKey: 'test-private-key',
              runnerRef: { kind: 'meshBuildingBlockRunner', uuid: TERRAFORM_RUNNER },
            },
          },
        },
      })
    ).metadata.uuid;

    // Projects and tenants (one deleted by uuid, one by its full identifier).
    const project = (workspace: string, name: string, payment?: string) => ({
      apiVersion: 'v2',
      kind: 'meshProject',
      metadata: { name, ownedByWorkspace: workspace },
      spec: { displayName: `Project ${name}`, tags: {}, ...(payment ? { paymentMethodIdentifier: payment } : {}) },
    });
    for (const [key, workspace, payment] of [
      ['pa1', 'wsA', 'pm-a'],
      ['pa2', 'wsA', undefined],
      ['pb1', 'wsB', 'pm-b'],
    ] as const) {
      names[key] = unique(key);
      await created(`${BASE}/meshprojects`, mc('meshproject', 'v2'), project(names[workspace]!, names[key]!, payment));
    }
    const v4 = (workspace: string, projectName: string, platformIdentifier: string, spec: Json = {}) => ({
      apiVersion: 'v4-preview',
      kind: 'meshTenant',
      metadata: { ownedByWorkspace: workspace, ownedByProject: projectName },
      spec: { platformIdentifier, ...spec },
    });
    const v3 = (workspace: string, projectName: string, platformIdentifier: string, spec: Json = {}) => ({
      apiVersion: 'v3',
      kind: 'meshTenant',
      metadata: { ownedByWorkspace: workspace, ownedByProject: projectName, platformIdentifier },
      spec,
    });
    const full = (key: string, location: string) => `${names[key]}.${names[location]}`;
    const tA1 = await created(
      `${BASE}/meshtenants`,
      mc('meshtenant', 'v4-preview'),
      v4(names.wsA!, names.pa1!, full('plat1', 'loc1'), { landingZoneIdentifier: 'lz-a', platformTenantId: `sub-${names.wsA}` }),
    );
    await created(
      `${BASE}/meshtenants`,
      mc('meshtenant', 'v3'),
      v3(names.wsA!, names.pa2!, full('plat2', 'loc2'), { landingZoneIdentifier: 'lz-b', quotas: [{ key: 'limits.cpu', value: 2 }] }),
    );
    const tA2 = (await ok(
      'GET',
      `${BASE}/meshtenants/${names.wsA}.${names.pa2}.${full('plat2', 'loc2')}`,
      mc('meshtenant', 'v4-preview'),
    ))!;
    const tB1 = await created(`${BASE}/meshtenants`, mc('meshtenant', 'v4-preview'), v4(names.wsB!, names.pb1!, full('plat2', 'loc2')));
    const gone = await created(
      `${BASE}/meshtenants`,
      mc('meshtenant', 'v4-preview'),
      v4(names.wsB!, names.pb1!, full('plat3', 'loc2'), { landingZoneIdentifier: 'lz-c' }),
    );
    await ok('DELETE', `${BASE}/meshlandingzones/lz-c`, undefined, undefined, 204);
    await ok('DELETE', `${BASE}/meshtenants/${gone.metadata.uuid}`, undefined, undefined, 202);
    await created(`${BASE}/meshtenants`, mc('meshtenant', 'v3'), v3(names.wsA!, names.pa1!, full('plat3', 'loc2')));
    await ok('DELETE', `${BASE}/meshtenants/${names.wsA}.${names.pa1}.${full('plat3', 'loc2')}`, undefined, undefined, 202);
    for (const tenant of [tA1, tA2, tB1])
      world.tenants.set(tenant.metadata.uuid, {
        project: tenant.metadata.ownedByProject,
        platformIdentifier: tenant.spec.platformIdentifier,
      });

    // Definitions: two of provider A (one with versions 1 and 2), one of provider B.
    const VERSION = media('meshbuildingblockdefinitionversion', 'v1-preview');
    const terraform = {
      type: 'terraform',
      terraform: {
        terraformVersion: '1.9.8',
        repositoryUrl: 'https://example.com/modules.git',
        async: false,
        useMeshHttpBackendFallback: false,
      },
    };
    const definition = async (key: string, owner: string, spec: Json, inputs: Json = {}, versions = 1) => {
      names[key] = unique(`Definition ${key}`);
      const made = await created(`${BASE}/meshbuildingblockdefinitions`, mc('meshbuildingblockdefinition', 'v1-preview'), {
        apiVersion: 'v1-preview',
        kind: 'meshBuildingBlockDefinition',
        metadata: { ownedByWorkspace: names[owner] },
        spec: { displayName: names[key], description: 'conformance fixture', ...spec },
      });
      const uuid = made.metadata.uuid as string;
      const versionSpec = (number: number) => ({
        apiVersion: 'v1-preview',
        kind: 'meshBuildingBlockDefinitionVersion',
        spec: {
          buildingBlockDefinitionRef: { kind: 'meshBuildingBlockDefinition', uuid },
          versionNumber: number,
          state: 'RELEASED',
          implementation: terraform,
          inputs,
          outputs: {},
        },
      });
      const uuids: string[] = [made.status.latestVersionUuid];
      await ok('PUT', `/api/meshobjects/meshbuildingblockdefinitionversions/${uuids[0]}`, VERSION, versionSpec(1));
      for (let number = 2; number <= versions; number++) {
        const draft = await created('/api/meshobjects/meshbuildingblockdefinitionversions', VERSION, {
          ...versionSpec(number),
          spec: { ...versionSpec(number).spec, state: 'DRAFT' },
        });
        await ok('PUT', `/api/meshobjects/meshbuildingblockdefinitionversions/${draft.metadata.uuid}`, VERSION, versionSpec(number));
        uuids.push(draft.metadata.uuid);
      }
      uuids.forEach((versionUuid, index) =>
        world.versions.set(versionUuid, {
          definitionUuid: uuid,
          definitionName: names[key]!,
          versionNumber: index + 1,
          owner: names[owner]!,
        }),
      );
      names[`${key}Uuid`] = uuid;
      return uuids;
    };
    const TENANT_LEVEL = { targetType: 'TENANT_LEVEL', supportedPlatforms: ['AZURE', 'CUSTOM'] };
    const [dA1, dA2] = await definition('dA', 'provA', TENANT_LEVEL, {}, 2);
    const [dU1] = await definition('dU', 'provA', TENANT_LEVEL, {
      needed: { displayName: 'Needed', type: 'STRING', assignmentType: 'USER_INPUT', updateableByConsumer: true },
    });
    const [dW1] = await definition('dW', 'provB', { targetType: 'WORKSPACE_LEVEL' });

    // Blocks in four states, on tenants and a workspace, in both representations.
    const BLOCK_V2 = mc('meshbuildingblock', 'v2-preview');
    const RUN = mc('meshbuildingblockrun', 'v1');
    const block = (versionUuid: string, targetRef: Json, key: string) => {
      names[key] = unique(`Block ${key}`);
      return {
        apiVersion: 'v2-preview',
        kind: 'meshBuildingBlock',
        spec: {
          displayName: names[key],
          buildingBlockDefinitionVersionRef: { kind: 'meshBuildingBlockDefinitionVersion', uuid: versionUuid },
          targetRef,
          inputs: [],
          parentBuildingBlocks: [],
        },
      };
    };
    const settle = async (blockUuid: string, status: string) => {
      const run = (await ok('POST', `${BASE}/meshbuildingblockruns/create?forRunnerUuid=${TERRAFORM_RUNNER}`, RUN, undefined, 201))!;
      assert.equal(run.spec.buildingBlock.uuid, blockUuid, 'the only queued run');
      await ok('POST', `${BASE}/meshbuildingblockruns/${run.metadata.uuid}/status/source`, RUN, {
        source: { id: 'conformance' },
        steps: [{ id: 'apply', displayName: 'Apply' }],
      });
      await ok('PATCH', `${BASE}/meshbuildingblockruns/${run.metadata.uuid}/status/source/conformance`, RUN, {
        status,
        steps: [{ id: 'apply', status }],
      });
      await ok('GET', `${BASE}/meshbuildingblockruns/${run.metadata.uuid}`, RUN);
    };
    names.b1 = (
      await created(`${BASE}/meshbuildingblocks`, BLOCK_V2, block(dA1!, { kind: 'meshTenant', uuid: tA1.metadata.uuid }, 'b1name'))
    ).metadata.uuid;
    await settle(names.b1!, 'SUCCEEDED');
    names.b2name = unique('Block b2name');
    names.b2 = (
      await created(`${BASE}/meshbuildingblocks`, mc('meshbuildingblock', 'v1'), {
        apiVersion: 'v1',
        kind: 'meshBuildingBlock',
        metadata: { definitionUuid: names.dAUuid, definitionVersion: 2, tenantIdentifier: tB1.status.tenantName },
        spec: { displayName: names.b2name, inputs: [], parentBuildingBlocks: [] },
      })
    ).metadata.uuid;
    await settle(names.b2!, 'FAILED');
    names.b3 = (
      await created(`${BASE}/meshbuildingblocks`, BLOCK_V2, block(dU1!, { kind: 'meshTenant', uuid: tA2.metadata.uuid }, 'b3name'))
    ).metadata.uuid;
    names.b4 = (
      await created(`${BASE}/meshbuildingblocks`, BLOCK_V2, block(dW1!, { kind: 'meshWorkspace', identifier: names.wsB }, 'b4name'))
    ).metadata.uuid;
    names.b5 = (
      await created(`${BASE}/meshbuildingblocks`, BLOCK_V2, block(dA2!, { kind: 'meshTenant', uuid: tA2.metadata.uuid }, 'b5name'))
    ).metadata.uuid;

    // People: four users, a group in each of workspaces A and B (through the import), bindings of
    // every kind; user 4 holds nothing. Projects pa1 and pa2 (A) and pb1 (B) have live tenants on
    // plat1.loc1, plat2.loc2 and plat2.loc2.
    const USER = mc('meshuser', 'v2');
    const first = ['Ann', 'Ann', 'Ben', 'Cid'];
    for (const [index, key] of ['u1', 'u2', 'u3', 'u4'].entries()) {
      names[key] = unique(key);
      await created(`${BASE}/meshusers`, USER, {
        apiVersion: 'v2',
        kind: 'meshUser',
        metadata: { name: names[key] },
        spec: {
          email: `${names[key]}@example.com`,
          firstName: first[index],
          lastName: `Last ${key}`,
          ...(key !== 'u4' ? { euid: `euid-${names[key]}` } : {}),
          tags: {},
        },
      });
    }
    names.gA = unique('ga');
    names.gB = unique('gb');
    const IMPORT = 'application/vnd.meshcloud.api.meshobjects.v1+json';
    const group = (workspace: string, name: string, members: string[]) => ({
      apiVersion: 'v1',
      kind: 'meshWorkspaceUserGroup',
      metadata: { name, ownedByWorkspace: workspace },
      spec: { displayName: `Group ${name}`, members },
    });
    const groups = await admin.put(
      BASE,
      JSON.stringify([group(names.wsA!, names.gA, [names.u2!, names.u3!]), group(names.wsB!, names.gB, [names.u3!])]),
      { headers: io(IMPORT) },
    );
    assert.deepEqual(
      groups.json.map((r: Json) => r.status),
      ['SUCCESS', 'SUCCESS'],
      groups.text,
    );
    world.groups.set(names.gA, [names.u2!, names.u3!]).set(names.gB, [names.u3!]);
    const binding = (kind: string, version: string, target: Json, role: string, subject: string) => ({
      apiVersion: version,
      kind,
      metadata: { name: unique('binding') },
      targetRef: target,
      roleRef: { name: role },
      subject: { name: subject },
    });
    const wsBinding = async (kind: 'userbindings' | 'groupbindings', workspace: string, role: string, subject: string) =>
      created(
        `${BASE}/meshworkspacebindings/${kind}`,
        mc(kind === 'userbindings' ? 'meshworkspaceuserbinding' : 'meshworkspacegroupbinding', 'v2'),
        binding(
          kind === 'userbindings' ? 'meshWorkspaceUserBinding' : 'meshWorkspaceGroupBinding',
          'v2',
          { name: workspace },
          role,
          subject,
        ),
      );
    const prjBinding = async (
      kind: 'userbindings' | 'groupbindings',
      workspace: string,
      projectName: string,
      role: string,
      subject: string,
    ) =>
      created(
        `${BASE}/meshprojectbindings/${kind}`,
        mc(kind === 'userbindings' ? 'meshprojectuserbinding' : 'meshprojectgroupbinding', 'v3'),
        binding(
          kind === 'userbindings' ? 'meshProjectUserBinding' : 'meshProjectGroupBinding',
          'v3',
          { name: projectName, ownedByWorkspace: workspace },
          role,
          subject,
        ),
      );
    names.wubA = (await wsBinding('userbindings', names.wsA!, 'Workspace Owner', names.u1!)).metadata.name;
    await wsBinding('userbindings', names.wsB!, 'Workspace Member', names.u3!);
    names.wgbA = (await wsBinding('groupbindings', names.wsA!, 'Workspace Manager', names.gA)).metadata.name;
    await wsBinding('groupbindings', names.wsB!, 'Workspace Member', names.gB);
    names.pubA = (await prjBinding('userbindings', names.wsA!, names.pa1!, 'Project Admin', names.u1!)).metadata.name;
    await prjBinding('userbindings', names.wsA!, names.pa2!, 'Project User', names.u1!);
    await prjBinding('userbindings', names.wsB!, names.pb1!, 'Project User', names.u3!);
    names.pgbA = (await prjBinding('groupbindings', names.wsA!, names.pa1!, 'Project Reader', names.gA)).metadata.name;
    const [p1, p2] = [full('plat1', 'loc1'), full('plat2', 'loc2')];
    world.users
      .set(names.u1!, {
        workspaces: [names.wsA!],
        workspaceRoles: ['Workspace Owner'],
        projectsOfA: [names.pa1!, names.pa2!],
        projectRoles: ['Project Admin', 'Project User'],
        platforms: [p1, p2],
      })
      .set(names.u2!, {
        workspaces: [names.wsA!],
        workspaceRoles: ['Workspace Manager'],
        projectsOfA: [names.pa1!],
        projectRoles: ['Project Reader'],
        platforms: [p1],
      })
      .set(names.u3!, {
        workspaces: [names.wsA!, names.wsB!],
        workspaceRoles: ['Workspace Manager', 'Workspace Member'],
        projectsOfA: [names.pa1!],
        projectRoles: ['Project Reader', 'Project User'],
        platforms: [p1, p2],
      })
      .set(names.u4!, { workspaces: [], workspaceRoles: [], projectsOfA: [], projectRoles: [], platforms: [] });
    PROBES[`${BASE}/meshusers?projectIdentifier`]!.universe = `workspaceIdentifier=${names.wsA}`;
    for (const kind of ['userbindings', 'groupbindings'])
      LISTS[`${BASE}/meshprojectbindings/${kind}`]!.base = `workspaceIdentifier=${names.wsA}&projectIdentifier=${names.pa1}`;

    // Service instances (POST answers 200, as published) and communications (issue 21): instances in
    // three projects of two workspaces; two ACTION_REQUIRED definitions and a NOTIFICATION, sent to
    // both workspaces, one communication resolved.
    const INSTANCE = mc('meshserviceinstance', 'v2');
    const instance = (workspace: string, projectName: string, marketplace: string, serviceId: string, planId: string) => ({
      apiVersion: 'v2',
      kind: 'meshServiceInstance',
      metadata: { ownedByProject: projectName, ownedByWorkspace: workspace, marketplaceIdentifier: marketplace, instanceId: unique('si') },
      spec: { displayName: 'New SI', serviceId, planId, creator: 'alice@example.com' },
    });
    for (const [key, workspace, projectName, marketplace, serviceId, planId] of [
      ['si1', 'wsA', 'pa1', 'eu-west-1', 'svc-db', 'small'],
      ['si2', 'wsA', 'pa2', 'eu-central-1', 'svc-db', 'large'],
      ['si3', 'wsB', 'pb1', 'eu-west-1', 'svc-queue', 'small'],
    ] as const) {
      names[key] = (await ok(
        'POST',
        `${BASE}/meshserviceinstances`,
        INSTANCE,
        instance(names[workspace]!, names[projectName]!, marketplace, serviceId, planId),
      ))!.metadata.instanceId;
    }
    PROBES[`${BASE}/meshserviceinstances?projectIdentifier`]!.universe = `workspaceIdentifier=${names.wsA}`;
    PROBES[`${BASE}/meshserviceinstances?planIdentifier`]!.universe = 'serviceIdentifier=svc-db';
    const COMMUNICATION_DEFINITION = mc('meshcommunicationdefinition', 'v1-preview');
    const COMMUNICATION = mc('meshcommunication', 'v1-preview');
    const communicationDefinition = async (key: string, type: string) => {
      names[key] = (
        await created(`${BASE}/meshcommunicationdefinitions`, COMMUNICATION_DEFINITION, {
          apiVersion: 'v1-preview',
          kind: 'meshCommunicationDefinition',
          spec: { communication: { title: `Definition ${key}`, message: 'This is a test communication.', type, dueDate: '2099-04-30' } },
        })
      ).metadata.uuid;
    };
    await communicationDefinition('cd1', 'ACTION_REQUIRED');
    await communicationDefinition('cd2', 'ACTION_REQUIRED');
    await communicationDefinition('cd3', 'NOTIFICATION');
    const communication = async (definitionKey: string, workspaceKey: string) =>
      (
        await created(`${BASE}/meshcommunications`, COMMUNICATION, {
          kind: 'meshCommunication',
          apiVersion: 'v1-preview',
          spec: {
            targetMeshObjectRef: { kind: 'meshWorkspace', name: names[workspaceKey] },
            communicationDefinitionRef: { uuid: names[definitionKey], kind: 'meshCommunicationDefinition' },
          },
        })
      ).metadata.uuid as string;
    names.c1 = await communication('cd1', 'wsA');
    await communication('cd1', 'wsB');
    await communication('cd2', 'wsA');
    names.c4 = await communication('cd3', 'wsB');
    await ok('POST', `${BASE}/meshcommunications/${names.c1}/resolve`, COMMUNICATION);

    world.eventTimes = [
      ...new Set(
        (await list(`${BASE}/mesheventlogs`, mc('mesheventlog', 'v1-preview'), 'meshEventLogs', '')).map(
          (event) => event.metadata.createdAt as string,
        ),
      ),
    ];
  });

  it('serves every documented representation of the list operations it serves', async () => {
    const lists = served.filter(isListOperation);
    assert.deepEqual(
      lists.map((operation) => operation.path).sort(),
      Object.keys(LISTS).sort(),
      'the list operations served here (a new one needs a case above)',
    );
    for (const operation of lists) {
      for (const response of operation.responses.filter((r) => r.status === 200 && r.mediaType)) {
        const base = LISTS[operation.path]?.base;
        const answer = await admin.get(`${operation.path}?size=1${base ? `&${base}` : ''}`, { headers: { accept: response.mediaType! } });
        assert.equal(answer.status, 200, `${operation.key} in ${response.mediaType}: ${answer.status} ${answer.text}`);
      }
    }
  });

  // One test per list operation of the OpenAPI: the operations (and their parameters) come from the document.
  for (const operation of openApiOperations().filter(isListOperation)) {
    it(`${operation.key}: applies every documented filter (${operation.queryParameters.map((p) => p.name).join(', ') || 'none'}), ignores unknown ones`, async (t) => {
      if (!served.some((o) => o.key === operation.key)) return t.skip('not served by this server');
      const listCase = LISTS[operation.path]!;
      const mediaTypes = operation.responses.filter((r) => r.status === 200 && r.mediaType).map((r) => r.mediaType!);
      const failures: string[] = [];
      const ids = async (type: string, query: string) =>
        (await list(operation.path, type, listCase.embedded, query)).map(listCase.identity);

      for (const parameter of operation.queryParameters) {
        if (parameter.name === 'page' || parameter.name === 'size') continue;
        const probe = PROBES[`${operation.path}?${parameter.name}`];
        if (!probe) {
          failures.push(`${parameter.name}: documented, but no probe case here`);
          continue;
        }
        const universe = probe.universe ?? '';
        const probed = (await list(operation.path, listCase.probeMedia, listCase.embedded, universe)).map((item) => ({
          id: listCase.identity(item),
          values: asList(probe.value(item, world)),
        }));
        const present = [...new Set(probed.flatMap((p) => p.values))];
        const matching = (values: string[]) => new Set(probed.filter((p) => p.values.some((v) => values.includes(v))).map((p) => p.id));
        // The value matching the fewest objects (but some): the page must narrow to exactly them.
        const value = present.sort((a, b) => matching([a]).size - matching([b]).size)[0];
        if (value === undefined) {
          failures.push(`${parameter.name}: no fixture object has a value`);
          continue;
        }
        const nothing =
          probe.nothing === 'documented'
            ? documentedValues(parameter).find((v) => !present.includes(v))
            : probe.nothing === null
              ? undefined
              : probe.nothing;
        if (probe.nothing !== null && nothing === undefined)
          failures.push(`${parameter.name}: every documented value occurs; the fixtures need one that does not`);
        const repeat = /multiple times/i.test(parameter.description)
          ? 'repeat'
          : /comma/i.test(parameter.description)
            ? 'comma'
            : undefined;
        const q = (v: string) => `${universe ? `${universe}&` : ''}${parameter.name}=${encodeURIComponent(v)}`;

        for (const type of mediaTypes) {
          const all = await ids(type, universe);
          const expect = (values: string[]) => sorted(all.filter((id) => matching(values).has(id)));
          if (nothing !== undefined) {
            const none = await ids(type, q(nothing));
            if (none.length > 0)
              failures.push(`${parameter.name}=${nothing} (${type}): matches nothing, yet ${none.length} objects came back`);
          }
          for (const form of [value, ...(probe.variants?.(value) ?? [])]) {
            const got = sorted(await ids(type, q(form)));
            if (JSON.stringify(got) !== JSON.stringify(expect([value])))
              failures.push(`${parameter.name}=${form} (${type}): expected ${JSON.stringify(expect([value]))}, got ${JSON.stringify(got)}`);
          }
          if (!probe.allMatch && expect([value]).length >= all.length)
            failures.push(`${parameter.name}=${value} (${type}): the fixtures do not narrow the page (${all.length} objects, all match)`);
          if (repeat) {
            const second = present.find((v) => v !== value) ?? nothing!;
            const query = repeat === 'repeat' ? `${q(value)}&${parameter.name}=${encodeURIComponent(second)}` : q(`${value},${second}`);
            const got = sorted(await ids(type, query));
            const wanted = probe.repeatMeansAll ? expect([value]).filter((id) => expect([second]).includes(id)) : expect([value, second]);
            if (JSON.stringify(got) !== JSON.stringify(wanted))
              failures.push(
                `${parameter.name} ${value} ${probe.repeatMeansAll ? 'and' : 'or'} ${second} (${type}, ${repeat}): expected ${JSON.stringify(wanted)}, got ${JSON.stringify(got)}`,
              );
          }
        }
      }
      for (const type of mediaTypes) {
        const unknown = sorted(await ids(type, `zzUndocumentedParameter=${fresh()}`));
        if (JSON.stringify(unknown) !== JSON.stringify(sorted(await ids(type, ''))))
          failures.push(`an unknown parameter changed the page (${type})`);
      }
      assert.deepEqual(failures, []);
    });
  }

  it('lets managedByWorkspaceIdentifier take precedence over managedByDefinitionUuid (documented)', async () => {
    const BLOCK_V2 = mc('meshbuildingblock', 'v2-preview');
    const both = await list(
      `${BASE}/meshbuildingblocks`,
      BLOCK_V2,
      'meshBuildingBlocks',
      `managedByWorkspaceIdentifier=${names.provA}&managedByDefinitionUuid=${names.dWUuid}`,
    );
    const byWorkspace = await list(
      `${BASE}/meshbuildingblocks`,
      BLOCK_V2,
      'meshBuildingBlocks',
      `managedByWorkspaceIdentifier=${names.provA}`,
    );
    assert.ok(byWorkspace.length > 0);
    assert.deepEqual(
      both.map(byUuid),
      byWorkspace.map(byUuid),
      'the definition (of provider B) is ignored when a managing workspace is named',
    );
  });

  it('answers every served operation as documented (ajv against the response schemas); every documented answer is produced', async () => {
    // The operations the fixtures have not exercised yet: indexes, login, import, single reads, updates, deletes.
    await ok('GET', '/api', mc('', 'v1'));
    await ok('GET', BASE, mc('meshobjects', 'v2'));
    await ok('GET', BASE, mc('meshobjects', 'v1'));
    await ok('GET', '/api/metadata', mc('metadata', 'v1'));
    await ok('POST', '/api/metadata/openstackProjectMetadata', 'application/json', { 'project-id': `sub-${names.wsA}` });
    const key = await createKey(ctx.client, names.wsA!, ['WORKSPACE_LIST']);
    const json = await admin.post(
      '/api/login',
      { clientId: key.clientId, clientSecret: key.clientSecret },
      { anonymous: true, headers: { 'content-type': 'application/json' } },
    );
    assert.equal(json.status, 200, json.text);
    const form = await admin.post(
      '/api/login',
      `client_id=${key.clientId}&client_secret=${key.clientSecret}&grant_type=client_credentials`,
      { anonymous: true, headers: { 'content-type': 'application/x-www-form-urlencoded' } },
    );
    assert.equal(form.status, 307, form.text);
    const IMPORT = 'application/vnd.meshcloud.api.meshobjects.v1+json';
    const imported = await admin.put(
      BASE,
      JSON.stringify([
        { apiVersion: 'v2', kind: 'meshWorkspace', metadata: { name: unique('imported') }, spec: { displayName: 'Imported' } },
      ]),
      { headers: io(IMPORT) },
    );
    assert.equal(imported.status, 200, imported.text);

    const tenantName = `${names.wsA}.${names.pa1}.${names.plat1}.${names.loc1}`;
    const tenant = (await ok('GET', `${BASE}/meshtenants/${tenantName}`, mc('meshtenant', 'v3')))!;
    const tenantV4 = (await ok('GET', `${BASE}/meshtenants/${tenantName}`, mc('meshtenant', 'v4')))!;
    assert.equal(tenant.metadata.tenantIdentifier, tenantName);
    await ok('GET', `${BASE}/meshtenants/${tenantV4.metadata.uuid}`, mc('meshtenant', 'v4-preview'));
    await ok('GET', `${BASE}/meshworkspaces/${names.wsA}`, mc('meshworkspace', 'v2'));
    await ok('PUT', `${BASE}/meshworkspaces/${names.wsA}`, mc('meshworkspace', 'v2'), {
      apiVersion: 'v2',
      kind: 'meshWorkspace',
      metadata: { name: names.wsA, tags: {} },
      spec: { displayName: 'Workspace A' },
    });
    await ok('GET', `${BASE}/meshprojects/${names.wsA}.${names.pa2}`, mc('meshproject', 'v2'));
    await ok('PUT', `${BASE}/meshprojects/${names.wsA}.${names.pa2}`, mc('meshproject', 'v2'), {
      apiVersion: 'v2',
      kind: 'meshProject',
      metadata: { name: names.pa2, ownedByWorkspace: names.wsA },
      spec: { displayName: 'Project renamed', tags: {} },
    });
    await ok('GET', `${BASE}/meshlocations/${names.loc1}`, mc('meshlocation', 'v1-preview'));
    await ok('PUT', `${BASE}/meshlocations/${names.loc1}`, mc('meshlocation', 'v1-preview'), {
      apiVersion: 'v1-preview',
      kind: 'meshLocation',
      metadata: { name: names.loc1 },
      spec: { displayName: 'Location one' },
    });
    for (const version of ['v1', 'v2-preview']) await ok('GET', `${BASE}/meshplatforms/${names.plat1Uuid}`, mc('meshplatform', version));
    await ok('PUT', `${BASE}/meshplatforms/${names.plat3Uuid}`, mc('meshplatform', 'v2-preview'), {
      apiVersion: 'v2-preview',
      kind: 'meshPlatform',
      metadata: { name: names.plat3, ownedByWorkspace: names.provA },
      spec: {
        displayName: 'Platform three',
        locationRef: { kind: 'meshLocation', name: names.loc2 },
        availability: { restriction: 'RESTRICTED', restrictedToWorkspaces: [], publicationState: 'UNPUBLISHED' },
        quotaDefinitions: [],
      },
    });
    await ok('PUT', `${BASE}/meshplatforms/${names.plat2Uuid}`, mc('meshplatform', 'v1'), {
      apiVersion: 'v1',
      kind: 'meshPlatform',
      metadata: { name: names.plat2, ownedByWorkspace: names.provB },
      spec: {
        displayName: 'Platform two',
        locationRef: { kind: 'meshLocation', identifier: names.loc2 },
        availability: { restriction: 'RESTRICTED', restrictedToWorkspaces: [names.wsA], marketplaceStatus: 'REQUESTED' },
      },
    });
    const DEFINITION = mc('meshbuildingblockdefinition', 'v1-preview');
    const definition = (await ok('GET', `${BASE}/meshbuildingblockdefinitions/${names.dWUuid}`, DEFINITION))!;
    await ok('PUT', `${BASE}/meshbuildingblockdefinitions/${names.dWUuid}`, DEFINITION, {
      apiVersion: 'v1-preview',
      kind: 'meshBuildingBlockDefinition',
      metadata: { uuid: names.dWUuid, ownedByWorkspace: names.provB },
      spec: { ...definition.spec, description: 'changed' },
    });
    for (const version of ['v1', 'v2-preview']) await ok('GET', `${BASE}/meshbuildingblocks/${names.b1}`, mc('meshbuildingblock', version));
    const [newest] = await list(`${BASE}/mesheventlogs`, mc('mesheventlog', 'v1-preview'), 'meshEventLogs', 'eventType=Changed');
    await ok('GET', `${BASE}/mesheventlogs/${newest!.metadata.uuid}`, mc('mesheventlog', 'v1-preview'));

    // People: single reads, updates and deletes.
    const USER = mc('meshuser', 'v2');
    await ok('GET', `${BASE}/meshusers/${names.u1}`, USER);
    await ok('PUT', `${BASE}/meshusers/${names.u4}`, USER, {
      apiVersion: 'v2',
      kind: 'meshUser',
      metadata: { name: names.u4 },
      spec: { email: `${names.u4}@example.com`, firstName: 'Cid', lastName: 'Changed', tags: {} },
    });
    await ok('GET', `${BASE}/meshworkspaceusergroups/${names.wsA}.${names.gA}`, mc('meshworkspaceusergroup', 'v1'));
    const ROLE = mc('meshprojectrole', 'v1');
    const roleName = unique('project-viewer');
    await created(`${BASE}/meshprojectroles`, ROLE, {
      apiVersion: 'v1',
      kind: 'meshProjectRole',
      metadata: { name: roleName, tags: { priority: ['low'] } },
      spec: { name: `Viewer ${roleName}`, description: 'Read-only access to project resources', rank: 10 },
    });
    await ok('GET', `${BASE}/meshprojectroles/${roleName}`, ROLE);
    await ok('PUT', `${BASE}/meshprojectroles/${roleName}`, ROLE, {
      apiVersion: 'v1',
      kind: 'meshProjectRole',
      metadata: { name: roleName, tags: {} },
      spec: { name: `Member ${roleName}`, rank: 50 },
    });
    await ok('DELETE', `${BASE}/meshprojectroles/${roleName}`, undefined, undefined, 204);
    for (const [path, type, name] of [
      ['meshworkspacebindings/userbindings', 'meshworkspaceuserbinding.v2', names.wubA],
      ['meshworkspacebindings/groupbindings', 'meshworkspacegroupbinding.v2', names.wgbA],
      ['meshprojectbindings/userbindings', 'meshprojectuserbinding.v3', names.pubA],
      ['meshprojectbindings/groupbindings', 'meshprojectgroupbinding.v3', names.pgbA],
    ] as const) {
      const [kind, version] = type.split('.') as [string, string];
      await ok('GET', `${BASE}/${path}/${name}`, mc(kind, version));
    }
    // Project bindings first: workspace membership is what they stand on.
    await ok('DELETE', `${BASE}/meshprojectbindings/groupbindings/${names.pgbA}`, undefined, undefined, 204);
    await ok('DELETE', `${BASE}/meshprojectbindings/userbindings/${names.pubA}`, undefined, undefined, 204);
    await ok('DELETE', `${BASE}/meshworkspacebindings/groupbindings/${names.wgbA}`, undefined, undefined, 204);
    await ok('DELETE', `${BASE}/meshworkspacebindings/userbindings/${names.wubA}`, undefined, undefined, 204);
    await ok('DELETE', `${BASE}/meshusers/${names.u4}`, undefined, undefined, 204);
    const COLLECTION = 'application/vnd.meshcloud.api.meshobjectcollection.v1+json';
    const collection = unique('collection');
    const made = await admin.post(
      '/api/meshobjectcollections',
      { name: collection, owner: 'collection-owner', description: 'This is a meshObjectCollection.' },
      { headers: { 'content-type': COLLECTION } },
    );
    assert.equal(made.status, 201, made.text);
    const removed = await admin.request('DELETE', '/api/meshobjectcollections', {
      body: { name: collection, owner: 'collection-owner' },
      headers: { 'content-type': COLLECTION },
    });
    assert.equal(removed.status, 200, removed.text);

    // The platform catalogue (issue 20).
    const PAYMENT = mc('meshpaymentmethod', 'v2');
    await ok('GET', `${BASE}/meshpaymentmethods/pm-a`, PAYMENT);
    await ok('PUT', `${BASE}/meshpaymentmethods/pm-a`, PAYMENT, {
      apiVersion: 'v2',
      kind: 'meshPaymentMethod',
      metadata: { name: 'pm-a', ownedByWorkspace: names.wsA },
      spec: { displayName: 'Updated Payment Method', amount: 1500, expirationDate: '2099-01-31', tags: {} },
    });
    await ok('DELETE', `${BASE}/meshpaymentmethods/pm-spare`, undefined, undefined, 204);
    const TAGDEF = mc('meshtagdefinition', 'v1');
    await ok('GET', `${BASE}/meshtagdefinitions/meshProject.environment`, TAGDEF);
    await ok('PUT', `${BASE}/meshtagdefinitions/meshWorkspace.costCenter`, TAGDEF, {
      kind: 'meshTagDefinition',
      apiVersion: 'v1',
      metadata: { name: 'meshWorkspace.costCenter' },
      spec: {
        targetKind: 'meshWorkspace',
        key: 'costCenter',
        valueType: {
          string: { defaultValue: '1001', validationRegex: '^\\d{4}$' },
          email: null,
          integer: null,
          number: null,
          singleSelect: null,
          multiSelect: null,
        },
        description: 'Updated description',
        displayName: 'Updated display name',
        sortOrder: 9999,
        mandatory: true,
        immutable: false,
        restricted: false,
        replicationKey: 'updatedReplicationKey',
      },
    });
    await ok('DELETE', `${BASE}/meshtagdefinitions/meshWorkspace.costCenter`, undefined, undefined, 204);
    const TYPE = mc('meshplatformtype', 'v1-preview');
    await ok('GET', `${BASE}/meshplatformtypes/AZURE`, TYPE);
    await created(`${BASE}/meshplatformtypes`, TYPE, {
      apiVersion: 'v1-preview',
      kind: 'meshPlatformType',
      metadata: { name: 'my-platform-type' },
      spec: {
        displayName: 'My Platform Type',
        category: 'CUSTOM',
        defaultEndpoint: 'https://custom.example.com',
        icon: 'data:image/png;base64,iVBORw0KGgo...',
      },
    });
    await ok('PUT', `${BASE}/meshplatformtypes/my-platform-type`, TYPE, {
      apiVersion: 'v1-preview',
      kind: 'meshPlatformType',
      metadata: { name: 'my-platform-type' },
      spec: {
        displayName: 'Updated Custom Platform',
        category: 'CUSTOM',
        defaultEndpoint: 'https://updated.example.com',
        icon: 'updated-icon',
      },
    });
    await ok('DELETE', `${BASE}/meshplatformtypes/my-platform-type`, undefined, undefined, 204);
    const INTEGRATION = mc('meshintegration', 'v1-preview');
    await ok('GET', `${BASE}/meshintegrations/${names.integration}`, INTEGRATION);
    await ok('GET', `${BASE}/meshintegrations/a1b2c3d4-5e6f-7a8b-9c0d-1e2f3a4b5c6d`, INTEGRATION);
    await ok('PUT', `${BASE}/meshintegrations/${names.integration}`, INTEGRATION, {
      apiVersion: 'v1-preview',
      kind: 'meshIntegration',
      metadata: { uuid: names.integration, ownedByWorkspace: names.provA },
      spec: {
        displayName: 'Updated GitHub Integration',
        config: {
          type: 'github',
          github: {
            owner: 'my-org',
            baseUrl: 'https://api.github.com',
            appId: '123456',
            appPrivateKey: '<hidden>',
            runnerRef: { kind: 'meshBuildingBlockRunner', uuid: TERRAFORM_RUNNER },
          },
        },
      },
    });
    const spareIntegration = await created(`${BASE}/meshintegrations`, INTEGRATION, {
      apiVersion: 'v1-preview',
      kind: 'meshIntegration',
      metadata: { ownedByWorkspace: names.provB },
      spec: {
        displayName: 'My GitLab Integration',
        config: {
          type: 'gitlab',
          gitlab: { baseUrl: 'https://gitlab.com', runnerRef: { kind: 'meshBuildingBlockRunner', uuid: TERRAFORM_RUNNER } },
        },
      },
    });
    await ok('DELETE', `${BASE}/meshintegrations/${spareIntegration.metadata.uuid}`, undefined, undefined, 204);
    const ZONE = mc('meshlandingzone', 'v1-preview');
    await ok('GET', `${BASE}/meshlandingzones/lz-a`, ZONE);
    await ok('PUT', `${BASE}/meshlandingzones/lz-a`, ZONE, {
      apiVersion: 'v1-preview',
      kind: 'meshLandingZone',
      metadata: { name: 'lz-a', tags: {} },
      spec: {
        displayName: 'Updated Landing Zone azure',
        description: 'An updated azure landing zone description',
        platformRef: { uuid: names.plat1Uuid, kind: 'meshPlatform' },
        automateDeletionApproval: true,
        automateDeletionReplication: true,
        infoLink: 'https://example.com/updated-info',
        platformProperties: {
          type: 'azure',
          azure: {
            azureManagementGroupId: 'azure-management-group',
            azureRoleMappings: [
              {
                projectRoleRef: { name: 'admin', kind: 'meshProjectRole' },
                azureGroupSuffix: 'admin',
                azureRoleDefinitions: [{ azureRoleDefinitionId: 'c5935d7e-37b2-4f34-af8f-bdca2408296e', abacCondition: null }],
              },
            ],
          },
        },
        quotas: [],
      },
    });

    // Service instances and communications (issue 21).
    const INSTANCE = mc('meshserviceinstance', 'v2');
    const si1 = (await ok('GET', `${BASE}/meshserviceinstances/${names.si1}`, INSTANCE))!;
    const { _links: _siLinks, ...siBody } = si1;
    await ok(
      'PUT',
      `${BASE}/meshserviceinstances/${names.si1}`,
      INSTANCE,
      { ...siBody, spec: { ...si1.spec, displayName: 'New SI updated' } },
      202,
    );
    const COMMUNICATION_DEFINITION = mc('meshcommunicationdefinition', 'v1-preview');
    const COMMUNICATION = mc('meshcommunication', 'v1-preview');
    await ok('GET', `${BASE}/meshcommunicationdefinitions/${names.cd1}`, COMMUNICATION_DEFINITION);
    await ok('GET', `${BASE}/meshcommunicationdefinitions/${names.cd3}`, COMMUNICATION_DEFINITION);
    await ok('PUT', `${BASE}/meshcommunicationdefinitions/${names.cd2}`, COMMUNICATION_DEFINITION, {
      apiVersion: 'v1-preview',
      kind: 'meshCommunicationDefinition',
      spec: { communication: { title: 'my-new-title', message: 'my-new-message', dueDate: '2099-05-31' } },
    });
    await ok('GET', `${BASE}/meshcommunications/${names.c1}`, COMMUNICATION);
    await ok('GET', `${BASE}/meshcommunications/${names.c4}`, COMMUNICATION);

    // Deletes (after the filter tests: they change what the lists hold).
    await ok('DELETE', `${BASE}/meshserviceinstances/${names.si2}`, undefined, undefined, 202);
    await ok('DELETE', `${BASE}/meshcommunications/${names.c4}`, undefined, undefined, 204);
    await ok('DELETE', `${BASE}/meshcommunicationdefinitions/${names.cd3}`, undefined, undefined, 204);
    const throwaway = await created(`${BASE}/meshbuildingblockdefinitions`, DEFINITION, {
      apiVersion: 'v1-preview',
      kind: 'meshBuildingBlockDefinition',
      metadata: { ownedByWorkspace: names.provB },
      spec: { displayName: unique('Throwaway'), description: 'deleted again', targetType: 'WORKSPACE_LEVEL' },
    });
    await ok('DELETE', `${BASE}/meshbuildingblockdefinitions/${throwaway.metadata.uuid}`, undefined, undefined, 202);
    await ok('DELETE', `${BASE}/meshbuildingblocks/${names.b3}`, undefined, undefined, 202);
    await ok('DELETE', `${BASE}/meshbuildingblocks/${names.b5}/purge`, undefined, undefined, 202);
    const spare = unique('spare');
    const sparePlatform = await created(`${BASE}/meshplatforms`, mc('meshplatform', 'v2-preview'), {
      apiVersion: 'v2-preview',
      kind: 'meshPlatform',
      metadata: { name: spare, ownedByWorkspace: names.provA },
      spec: { displayName: 'Spare', locationRef: { kind: 'meshLocation', name: names.loc1 } },
    });
    await ok('DELETE', `${BASE}/meshplatforms/${sparePlatform.metadata.uuid}`, undefined, undefined, 204);
    await created(`${BASE}/meshworkspaces`, mc('meshworkspace', 'v2'), {
      apiVersion: 'v2',
      kind: 'meshWorkspace',
      metadata: { name: spare },
      spec: { displayName: 'Spare' },
    });
    await ok('DELETE', `${BASE}/meshworkspaces/${spare}`, undefined, undefined, 204);

    const result = checkExchanges(exchanges, served, DEVIATIONS);
    const uncovered = served.flatMap((operation) =>
      operation.responses
        .filter((response) => !result.covered.has(coverageKey(operation, response)))
        .filter(
          (response) =>
            !DEVIATIONS.some(
              (d) =>
                d.notProduced &&
                (typeof d.operation === 'string' ? d.operation === operation.key : d.operation.test(operation.key)) &&
                (d.mediaType === undefined || d.mediaType === response.mediaType) &&
                (result.used.add(d), true),
            ),
        )
        .map((response) => coverageKey(operation, response)),
    );
    const unused = DEVIATIONS.filter((deviation) => !result.used.has(deviation)).map(
      (deviation) => `${String(deviation.operation)}: ${deviation.reason}`,
    );
    assert.deepEqual({ failures: result.failures, uncovered, unused }, { failures: [], uncovered: [], unused: [] });
  });
});
