import { formatMediaType, type VersionRef } from '../lib/media-types.js';
import { lifecycleOf } from '../lib/versions.js';
import { API_KEY_CODECS } from '../kinds/apikey/wire/index.js';
import { API_USER_CODECS } from '../kinds/apiuser/wire/index.js';
import { BINDING_CODECS } from '../kinds/binding/wire/index.js';
import { BLOCK_CODECS } from '../kinds/block/wire/index.js';
import { COMMUNICATION_CODECS } from '../kinds/communication/wire/index.js';
import { COMMUNICATION_DEFINITION_CODECS } from '../kinds/communicationdefinition/wire/index.js';
import { DEFINITION_CODECS, VERSION_CODECS } from '../kinds/definition/wire/index.js';
import { EVENTLOG_CODECS } from '../kinds/eventlog/wire/index.js';
import { INTEGRATION_CODECS } from '../kinds/integration/wire/index.js';
import { LANDING_ZONE_CODECS } from '../kinds/landingzone/wire/index.js';
import { LOCATION_CODECS } from '../kinds/location/wire/index.js';
import { PATHS } from '../kinds/paths.js';
import { PAYMENT_METHOD_CODECS } from '../kinds/paymentmethod/wire/index.js';
import { PLATFORM_CODECS } from '../kinds/platform/wire/index.js';
import { PLATFORM_TYPE_CODECS } from '../kinds/platformtype/wire/index.js';
import { PROJECT_CODECS } from '../kinds/project/wire/index.js';
import { PROJECT_ROLE_CODECS } from '../kinds/projectrole/wire/index.js';
import { MESHOBJECT_RELATIONS } from '../kinds/relations.js';
import { RUN_CODECS } from '../kinds/run/wire/index.js';
import { RUNNER_CODECS } from '../kinds/runner/wire/index.js';
import { SERVICE_INSTANCE_CODECS } from '../kinds/serviceinstance/wire/index.js';
import { TAG_DEFINITION_CODECS } from '../kinds/tagdefinition/wire/index.js';
import { TENANT_CODECS } from '../kinds/tenant/wire/index.js';
import { USER_CODECS } from '../kinds/user/wire/index.js';
import { USER_GROUP_CODECS } from '../kinds/usergroup/wire/index.js';
import { WORKSPACE_CODECS } from '../kinds/workspace/wire/index.js';

/** A table column: its header and where its value is in a wire object (dotted paths, the first with a value). */
export interface Column {
  header: string;
  path: string | readonly string[];
}

/** A kind as `blockyard get|delete` names it: where it lives, which representation to ask for, what a table shows. */
export interface CliKind {
  /** The wire `kind`, e.g. `meshBuildingBlock`. */
  kind: string;
  /** What people type: the plural (`buildingblocks`), the singular and short names (`bb`). */
  names: readonly string[];
  /** Also taken: the wire kind's names (`meshbuildingblocks`, `meshbuildingblock`), as the API spells them. */
  wireNames: readonly string[];
  path: string;
  /** The Accept header: the newest version the server serves that is not deprecated. */
  accept: string;
  /** The list filters `--filter` takes: the index relation's template variables and `extraFilters`. */
  filters: readonly string[];
  columns: readonly Column[];
  wide: readonly Column[];
}

/** What the server's own tables do not say: short names, list filters its index does not advertise, columns for people. */
interface KindExtras {
  aliases?: string[];
  extraFilters?: string[];
  columns?: Column[];
  wide?: Column[];
}

const column = (header: string, ...paths: string[]): Column => ({ header, path: paths.length === 1 ? paths[0]! : paths });
const VENDOR = 'vendor';

/** The version to ask for: the registry's first that the lifecycle list does not deprecate (the first when all are). */
function preferred(media: readonly VersionRef[]): VersionRef {
  return media.find((ref) => lifecycleOf(ref) === undefined) ?? media[0]!;
}

function cliKind(registry: { kind: string; media: readonly VersionRef[] }, path: string, extras: KindExtras = {}): CliKind {
  const singular = registry.kind.replace(/^mesh/, '').toLowerCase();
  const relation = MESHOBJECT_RELATIONS.find((candidate) => candidate.path === path);
  const accepted = preferred(registry.media);
  const variables = [...(relation?.template.matchAll(/[{,&?]([A-Za-z]+)(?=[,}])/g) ?? [])].map((match) => match[1]!);
  return {
    kind: registry.kind,
    names: [`${singular}s`, singular, ...(extras.aliases ?? [])],
    wireNames: [`${registry.kind.toLowerCase()}s`, registry.kind.toLowerCase()],
    path,
    accept: formatMediaType(VENDOR, accepted.kind, accepted.version),
    filters: [...new Set([...variables, ...(extras.extraFilters ?? [])])],
    columns: extras.columns ?? [],
    wide: extras.wide ?? [],
  };
}

const binding = (kind: keyof typeof BINDING_CODECS, path: string) =>
  cliKind({ kind, media: [BINDING_CODECS[kind].media] }, path, {
    columns: [column('ROLE', 'roleRef.name'), column('TARGET', 'targetRef.name'), column('SUBJECT', 'subject.name')],
  });

/**
 * Every kind the server serves, by its collection path (`PATHS`, typed so that a new path fails to
 * compile until it is here) and codec registry (`*_CODECS`): the wire kind names it, the registry's
 * versions choose the media type, the index relation lists its filters. Only the short names and the
 * columns are written here. The object collections are no kind: they are only created and deleted.
 */
const KIND_AT: { readonly [P in Exclude<keyof typeof PATHS, 'objectCollections'>]: CliKind } = {
  workspaces: cliKind(WORKSPACE_CODECS, PATHS.workspaces, { aliases: ['ws'] }),
  projects: cliKind(PROJECT_CODECS, PATHS.projects, { columns: [column('PAYMENT METHOD', 'spec.paymentMethodIdentifier')] }),
  locations: cliKind(LOCATION_CODECS, PATHS.locations),
  platforms: cliKind(PLATFORM_CODECS, PATHS.platforms, {
    columns: [column('LOCATION', 'spec.locationRef.name'), column('TYPE', 'spec.config.type')],
  }),
  tenants: cliKind(TENANT_CODECS, PATHS.tenants, {
    columns: [
      column('TENANT NAME', 'status.tenantName'),
      column('PLATFORM TENANT ID', 'spec.platformTenantId'),
      column('STATE', 'status.lifecycle.state'),
    ],
  }),
  definitions: cliKind(DEFINITION_CODECS, PATHS.definitions, {
    aliases: ['definitions', 'definition', 'bbd'],
    columns: [column('TARGET', 'spec.targetType'), column('RELEASED', 'status.latestReleasedVersion')],
  }),
  definitionVersions: cliKind(VERSION_CODECS, PATHS.definitionVersions, {
    aliases: ['versions', 'version'],
    columns: [
      column('DEFINITION', 'spec.buildingBlockDefinitionRef.uuid'),
      column('VERSION', 'spec.versionNumber'),
      column('STATE', 'spec.state'),
    ],
  }),
  blocks: cliKind(BLOCK_CODECS, PATHS.blocks, {
    aliases: ['bb', 'blocks', 'block'],
    columns: [column('STATUS', 'status.status'), column('TARGET', 'spec.targetRef.kind')],
  }),
  runs: cliKind(RUN_CODECS, PATHS.runs, {
    aliases: ['runs', 'run'],
    extraFilters: ['buildingBlockUuid'],
    // The block by its name where the answer gives it (to operators), else by its uuid.
    columns: [
      column('RUN', 'spec.runNumber'),
      column('BEHAVIOR', 'spec.behavior'),
      column('STATUS', 'status'),
      column('BLOCK', 'spec.buildingBlock.spec.displayName', 'spec.buildingBlock.uuid'),
    ],
    wide: [column('BLOCK UUID', 'spec.buildingBlock.uuid'), column('ENDED', 'metadata.endedOn')],
  }),
  runners: cliKind(RUNNER_CODECS, PATHS.runners, { aliases: ['runners', 'runner'], columns: [column('TYPE', 'spec.implementationType')] }),
  eventLogs: cliKind(EVENTLOG_CODECS, PATHS.eventLogs, {
    aliases: ['events', 'event'],
    columns: [
      column('TIME', 'metadata.createdAt'),
      column('TITLE', 'spec.title'),
      column('AUTHOR', 'spec.author.identifier'),
      column('WORKSPACE', 'spec.workspaceRef.name'),
    ],
    wide: [column('DESCRIPTION', 'spec.description')],
  }),
  users: cliKind(USER_CODECS, PATHS.users, {
    columns: [column('EMAIL', 'spec.email'), column('FIRST NAME', 'spec.firstName'), column('LAST NAME', 'spec.lastName')],
  }),
  workspaceUserGroups: cliKind(USER_GROUP_CODECS, PATHS.workspaceUserGroups, { aliases: ['groups', 'group'] }),
  apiKeys: cliKind(API_KEY_CODECS, PATHS.apiKeys, { aliases: ['keys', 'key'], columns: [column('EXPIRES', 'spec.expiresAt')] }),
  apiUsers: cliKind(API_USER_CODECS, PATHS.apiUsers),
  projectRoles: cliKind(PROJECT_ROLE_CODECS, PATHS.projectRoles, { aliases: ['roles', 'role'] }),
  paymentMethods: cliKind(PAYMENT_METHOD_CODECS, PATHS.paymentMethods, {
    columns: [column('AMOUNT', 'spec.amount'), column('EXPIRES', 'spec.expirationDate')],
  }),
  tagDefinitions: cliKind(TAG_DEFINITION_CODECS, PATHS.tagDefinitions, {
    aliases: ['tags', 'tag'],
    columns: [column('TARGET', 'spec.targetKind'), column('KEY', 'spec.key')],
  }),
  platformTypes: cliKind(PLATFORM_TYPE_CODECS, PATHS.platformTypes, { columns: [column('CATEGORY', 'spec.category')] }),
  landingZones: cliKind(LANDING_ZONE_CODECS, PATHS.landingZones, {
    aliases: ['lz'],
    columns: [column('PLATFORM', 'spec.platformRef.uuid')],
  }),
  integrations: cliKind(INTEGRATION_CODECS, PATHS.integrations, { columns: [column('TYPE', 'spec.config.type')] }),
  serviceInstances: cliKind(SERVICE_INSTANCE_CODECS, PATHS.serviceInstances, {
    aliases: ['instances', 'instance', 'si'],
    columns: [
      column('PROJECT', 'metadata.ownedByProject'),
      column('SERVICE', 'spec.serviceId'),
      column('PLAN', 'spec.planId'),
      column('STATE', 'status.state'),
    ],
  }),
  communicationDefinitions: cliKind(COMMUNICATION_DEFINITION_CODECS, PATHS.communicationDefinitions, {
    columns: [
      column('TITLE', 'spec.communication.title'),
      column('TYPE', 'spec.communication.type'),
      column('DUE', 'spec.communication.dueDate'),
      column('TOTAL', 'status.communicationsTotal'),
    ],
  }),
  communications: cliKind(COMMUNICATION_CODECS, PATHS.communications, {
    columns: [
      column('TITLE', 'status.meshCommunicationDefinition.title'),
      column('TARGET', 'spec.targetMeshObjectRef.name'),
      column('STATUS', 'status.resolutionStatus'),
    ],
  }),
  workspaceUserBindings: binding('meshWorkspaceUserBinding', PATHS.workspaceUserBindings),
  workspaceGroupBindings: binding('meshWorkspaceGroupBinding', PATHS.workspaceGroupBindings),
  projectUserBindings: binding('meshProjectUserBinding', PATHS.projectUserBindings),
  projectGroupBindings: binding('meshProjectGroupBinding', PATHS.projectGroupBindings),
};

export const CLI_KINDS: readonly CliKind[] = Object.values(KIND_AT);

/** The kind a name stands for (case-insensitive), or undefined. */
export function kindNamed(name: string): CliKind | undefined {
  const wanted = name.toLowerCase();
  return CLI_KINDS.find((kind) => kind.names.includes(wanted) || kind.wireNames.includes(wanted));
}

/** The edits (insert, delete, replace, swap two neighbours) from `a` to `b`. */
function distance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[a.length]![b.length]!;
}

/** The kind name nearest to a misspelt one (a third of its letters wrong at most), or undefined. */
export function nearestKindName(name: string): string | undefined {
  const wanted = name.toLowerCase();
  let best: { name: string; distance: number } | undefined;
  for (const candidate of CLI_KINDS.flatMap((kind) => [...kind.names, ...kind.wireNames])) {
    const d = distance(wanted, candidate);
    if (best === undefined || d < best.distance) best = { name: candidate, distance: d };
  }
  return best && best.distance <= Math.max(1, Math.floor(wanted.length / 3)) ? best.name : undefined;
}
