import { formatMediaType, type VersionRef } from '../lib/media-types.js';
import { lifecycleOf } from '../lib/versions.js';
import { API_KEY_CODECS } from '../kinds/apikey/wire/index.js';
import { API_USER_CODECS } from '../kinds/apiuser/wire/index.js';
import { BINDING_CODECS } from '../kinds/binding/wire/index.js';
import { BLOCK_CODECS } from '../kinds/block/wire/index.js';
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
import { TAG_DEFINITION_CODECS } from '../kinds/tagdefinition/wire/index.js';
import { TENANT_CODECS } from '../kinds/tenant/wire/index.js';
import { USER_CODECS } from '../kinds/user/wire/index.js';
import { USER_GROUP_CODECS } from '../kinds/usergroup/wire/index.js';
import { WORKSPACE_CODECS } from '../kinds/workspace/wire/index.js';

/** A table column: its header and where its value is in a wire object (a dotted path). */
export interface Column {
  header: string;
  path: string;
}

/** A kind as `blockyard get|delete` names it: where it lives, which representation to ask for, what a table shows. */
export interface CliKind {
  /** The wire `kind`, e.g. `meshBuildingBlock`. */
  kind: string;
  /** What people type: the plural (`buildingblocks`), the singular and short names (`bb`). */
  names: readonly string[];
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

const column = (header: string, path: string): Column => ({ header, path });
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
 * Every kind the server serves by its collection path (`PATHS`) and codec registry (`*_CODECS`): the
 * wire kind names it, the registry's versions choose the media type, the index relation lists its
 * filters. Only the short names and the columns are written here.
 */
export const CLI_KINDS: readonly CliKind[] = [
  cliKind(WORKSPACE_CODECS, PATHS.workspaces, { aliases: ['ws'] }),
  cliKind(PROJECT_CODECS, PATHS.projects, { columns: [column('PAYMENT METHOD', 'spec.paymentMethodIdentifier')] }),
  cliKind(LOCATION_CODECS, PATHS.locations),
  cliKind(PLATFORM_CODECS, PATHS.platforms, { columns: [column('LOCATION', 'spec.locationRef.name'), column('TYPE', 'spec.config.type')] }),
  cliKind(TENANT_CODECS, PATHS.tenants, {
    columns: [column('TENANT NAME', 'status.tenantName'), column('PLATFORM TENANT ID', 'spec.platformTenantId'), column('STATE', 'status.lifecycle.state')],
  }),
  cliKind(DEFINITION_CODECS, PATHS.definitions, { aliases: ['definitions', 'definition', 'bbd'], columns: [column('TARGET', 'spec.targetType')] }),
  cliKind(VERSION_CODECS, PATHS.definitionVersions, {
    aliases: ['versions', 'version'],
    columns: [column('DEFINITION', 'spec.buildingBlockDefinitionRef.uuid'), column('VERSION', 'spec.versionNumber'), column('STATE', 'spec.state')],
  }),
  cliKind(BLOCK_CODECS, PATHS.blocks, { aliases: ['bb', 'blocks', 'block'], columns: [column('STATUS', 'status.status'), column('TARGET', 'spec.targetRef.kind')] }),
  cliKind(RUN_CODECS, PATHS.runs, {
    aliases: ['runs', 'run'],
    extraFilters: ['buildingBlockUuid'],
    columns: [column('RUN', 'spec.runNumber'), column('BEHAVIOR', 'spec.behavior'), column('STATUS', 'status'), column('BLOCK', 'spec.buildingBlock.uuid')],
    wide: [column('ENDED', 'metadata.endedOn')],
  }),
  cliKind(RUNNER_CODECS, PATHS.runners, { aliases: ['runners', 'runner'], columns: [column('TYPE', 'spec.implementationType')] }),
  cliKind(EVENTLOG_CODECS, PATHS.eventLogs, {
    aliases: ['events', 'event'],
    columns: [column('TIME', 'metadata.createdAt'), column('TITLE', 'spec.title'), column('AUTHOR', 'spec.author.identifier'), column('WORKSPACE', 'spec.workspaceRef.name')],
    wide: [column('DESCRIPTION', 'spec.description')],
  }),
  cliKind(USER_CODECS, PATHS.users, { columns: [column('EMAIL', 'spec.email'), column('FIRST NAME', 'spec.firstName'), column('LAST NAME', 'spec.lastName')] }),
  cliKind(USER_GROUP_CODECS, PATHS.workspaceUserGroups, { aliases: ['groups', 'group'] }),
  cliKind(API_KEY_CODECS, PATHS.apiKeys, { aliases: ['keys', 'key'], columns: [column('EXPIRES', 'spec.expiresAt')] }),
  cliKind(API_USER_CODECS, PATHS.apiUsers),
  cliKind(PROJECT_ROLE_CODECS, PATHS.projectRoles, { aliases: ['roles', 'role'] }),
  cliKind(PAYMENT_METHOD_CODECS, PATHS.paymentMethods, { columns: [column('AMOUNT', 'spec.amount'), column('EXPIRES', 'spec.expirationDate')] }),
  cliKind(TAG_DEFINITION_CODECS, PATHS.tagDefinitions, { aliases: ['tags', 'tag'], columns: [column('TARGET', 'spec.targetKind'), column('KEY', 'spec.key')] }),
  cliKind(PLATFORM_TYPE_CODECS, PATHS.platformTypes, { columns: [column('CATEGORY', 'spec.category')] }),
  cliKind(LANDING_ZONE_CODECS, PATHS.landingZones, { aliases: ['lz'], columns: [column('PLATFORM', 'spec.platformRef.uuid')] }),
  cliKind(INTEGRATION_CODECS, PATHS.integrations, { columns: [column('TYPE', 'spec.config.type')] }),
  binding('meshWorkspaceUserBinding', PATHS.workspaceUserBindings),
  binding('meshWorkspaceGroupBinding', PATHS.workspaceGroupBindings),
  binding('meshProjectUserBinding', PATHS.projectUserBindings),
  binding('meshProjectGroupBinding', PATHS.projectGroupBindings),
];

/** The kind a name stands for (case-insensitive), or undefined. */
export function kindNamed(name: string): CliKind | undefined {
  const wanted = name.toLowerCase();
  return CLI_KINDS.find((kind) => kind.names.includes(wanted));
}
