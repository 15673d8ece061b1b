import type { HalLink } from '../lib/hal.js';
import type { RelationsView } from './codec.js';
import { PATHS } from './paths.js';

/**
 * The meshObjects index (spec §2.3): relation, path and the exact query variables of each templated
 * link. Only relations whose endpoint this server serves (and the caller may use) are listed.
 */
export interface Relation {
  rel: string;
  path: string;
  /** RFC 6570 template appended to the path; "" for a plain link. */
  template: string;
}

const form = (...variables: string[]) => (variables.length ? `{?${variables.join(',')}}` : '');

export const MESHOBJECT_RELATIONS: readonly Relation[] = [
  { rel: 'meshworkspaces', path: PATHS.workspaces, template: '' },
  { rel: 'meshworkspaceusergroups', path: PATHS.workspaceUserGroups, template: form('workspaceIdentifier', 'username') },
  { rel: 'meshprojects', path: PATHS.projects, template: form('workspaceIdentifier', 'paymentIdentifier', 'state') },
  { rel: 'meshprojectgroupbindings', path: PATHS.projectGroupBindings, template: '?workspaceIdentifier={workspaceIdentifier}&projectIdentifier={projectIdentifier}' },
  { rel: 'meshprojectuserbindings', path: PATHS.projectUserBindings, template: '?workspaceIdentifier={workspaceIdentifier}&projectIdentifier={projectIdentifier}' },
  { rel: 'meshworkspaceuserbindings', path: PATHS.workspaceUserBindings, template: form('username', 'workspaceRole', 'workspaceIdentifier') },
  { rel: 'meshworkspacegroupbindings', path: PATHS.workspaceGroupBindings, template: form('username', 'workspaceRole') },
  { rel: 'meshtenants', path: PATHS.tenants, template: form('workspaceIdentifier', 'projectIdentifier', 'platformIdentifier', 'deletionState') },
  { rel: 'meshpaymentmethods', path: PATHS.paymentMethods, template: form('workspaceIdentifier') },
  {
    rel: 'meshusers',
    path: PATHS.users,
    template: form('workspaceIdentifier', 'projectIdentifier', 'platformIdentifier', 'workspaceUserGroupIdentifier', 'projectRole', 'workspaceRole', 'email', 'firstName', 'lastName', 'username', 'euid'),
  },
  { rel: 'meshserviceinstances', path: PATHS.serviceInstances, template: form('workspaceIdentifier', 'projectIdentifier', 'marketplaceIdentifier', 'serviceIdentifier', 'planIdentifier') },
  {
    rel: 'meshbuildingblocks',
    path: PATHS.blocks,
    template: form('workspaceIdentifier', 'projectIdentifier', 'platformIdentifier', 'name', 'definitionUuid', 'versionUuid', 'tenantUuid', 'targetRefKind', 'status', 'managedByWorkspaceIdentifier', 'managedByDefinitionUuid'),
  },
  { rel: 'meshbuildingblockdefinitions', path: PATHS.definitions, template: form('workspaceIdentifier') },
  // "runnerNodeId (required, in the path's query), selector (appended)"
  { rel: 'meshbuildingblockruns', path: PATHS.runs, template: '?runnerNodeId={runnerNodeId}{&selector}' },
  { rel: 'meshtagdefinitions', path: PATHS.tagDefinitions, template: '' },
  { rel: 'meshcommunicationdefinitions', path: PATHS.communicationDefinitions, template: form('type') },
  { rel: 'meshcommunications', path: PATHS.communications, template: form('communicationDefinitionUuid', 'resolutionStatus', 'communicationType') },
  // Kinds the spec's table does not list but this service serves (as the real system's index does).
  { rel: 'meshapikeys', path: PATHS.apiKeys, template: form('workspaceIdentifier') },
  { rel: 'meshbuildingblockdefinitionversions', path: PATHS.definitionVersions, template: form('buildingBlockDefinitionUuid') },
  { rel: 'meshplatforms', path: PATHS.platforms, template: form('identifier', 'locationIdentifier', 'ownedByWorkspace', 'platformTypeIdentifier') },
  { rel: 'meshlocations', path: PATHS.locations, template: form('displayName') },
  { rel: 'meshbuildingblockrunners', path: PATHS.runners, template: form('workspaceIdentifier') },
  {
    rel: 'mesheventlogs',
    path: PATHS.eventLogs,
    template: form('from', 'until', 'title', 'description', 'authorType', 'authorIdentifier', 'eventType', 'workspaceName', 'workspaceIdentifier', 'excludeTitle'),
  },
  { rel: 'meshprojectroles', path: PATHS.projectRoles, template: '' },
  { rel: 'meshplatformtypes', path: PATHS.platformTypes, template: form('category', 'lifecycleStatus') },
  { rel: 'meshintegrations', path: PATHS.integrations, template: form('displayName', 'ownedByWorkspace', 'type') },
  { rel: 'meshlandingzones', path: PATHS.landingZones, template: form('identifier', 'displayName', 'platformUuid', 'disabled', 'restricted', 'ownedByWorkspace') },
];

/**
 * Links from an object's answer to related collections filtered to it (`query`, e.g.
 * `?workspaceIdentifier=dev`), each only when the caller may list that collection in the object's
 * workspace. A new such link is one more entry in `related`.
 */
export function listableLinks(view: RelationsView, workspace: string, query: string, related: Readonly<Record<string, string>>): Record<string, HalLink> {
  const links: Record<string, HalLink> = {};
  for (const [rel, path] of Object.entries(related)) if (view.collections.mayList(path, workspace)) links[rel] = { href: `${view.baseUrl}${path}${query}` };
  return links;
}
