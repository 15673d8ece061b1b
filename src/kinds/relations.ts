import type { CollectionPermissions } from '../auth/route-access.js';
import type { HalLinks } from '../lib/hal.js';
import type { RelationsView } from './codec.js';
import { objectUrl, PATHS } from './paths.js';

/**
 * The meshObjects index (spec §2.3): relation, path and the exact query variables of each templated
 * link. Every link into a relation, from the index or from an object's answer, is drawn here, under
 * one rule: the permission of the relation's route (its access rule in the route table, declared once
 * where the route is), asked through CollectionPermissions.
 */
export interface Relation {
  rel: string;
  path: string;
  /** RFC 6570 template appended to the path; "" for a plain link. */
  template: string;
}

const form = (...variables: string[]) => (variables.length ? `{?${variables.join(',')}}` : '');

export const MESHOBJECT_RELATIONS = [
  { rel: 'meshworkspaces', path: PATHS.workspaces, template: '' },
  { rel: 'meshworkspaceusergroups', path: PATHS.workspaceUserGroups, template: form('workspaceIdentifier', 'username') },
  { rel: 'meshprojects', path: PATHS.projects, template: form('workspaceIdentifier', 'paymentIdentifier', 'state') },
  {
    rel: 'meshprojectgroupbindings',
    path: PATHS.projectGroupBindings,
    template: '?workspaceIdentifier={workspaceIdentifier}&projectIdentifier={projectIdentifier}',
  },
  {
    rel: 'meshprojectuserbindings',
    path: PATHS.projectUserBindings,
    template: '?workspaceIdentifier={workspaceIdentifier}&projectIdentifier={projectIdentifier}',
  },
  {
    rel: 'meshworkspaceuserbindings',
    path: PATHS.workspaceUserBindings,
    template: form('username', 'workspaceRole', 'workspaceIdentifier'),
  },
  { rel: 'meshworkspacegroupbindings', path: PATHS.workspaceGroupBindings, template: form('username', 'workspaceRole') },
  {
    rel: 'meshtenants',
    path: PATHS.tenants,
    template: form('workspaceIdentifier', 'projectIdentifier', 'platformIdentifier', 'deletionState'),
  },
  { rel: 'meshpaymentmethods', path: PATHS.paymentMethods, template: form('workspaceIdentifier') },
  {
    rel: 'meshusers',
    path: PATHS.users,
    template: form(
      'workspaceIdentifier',
      'projectIdentifier',
      'platformIdentifier',
      'workspaceUserGroupIdentifier',
      'projectRole',
      'workspaceRole',
      'email',
      'firstName',
      'lastName',
      'username',
      'euid',
    ),
  },
  {
    rel: 'meshserviceinstances',
    path: PATHS.serviceInstances,
    template: form('workspaceIdentifier', 'projectIdentifier', 'marketplaceIdentifier', 'serviceIdentifier', 'planIdentifier'),
  },
  {
    rel: 'meshbuildingblocks',
    path: PATHS.blocks,
    template: form(
      'workspaceIdentifier',
      'projectIdentifier',
      'platformIdentifier',
      'name',
      'definitionUuid',
      'versionUuid',
      'tenantUuid',
      'targetRefKind',
      'status',
      'managedByWorkspaceIdentifier',
      'managedByDefinitionUuid',
    ),
  },
  { rel: 'meshbuildingblockdefinitions', path: PATHS.definitions, template: form('workspaceIdentifier') },
  // "runnerNodeId (required, in the path's query), selector (appended)"
  { rel: 'meshbuildingblockruns', path: PATHS.runs, template: '?runnerNodeId={runnerNodeId}{&selector}' },
  { rel: 'meshtagdefinitions', path: PATHS.tagDefinitions, template: '' },
  { rel: 'meshcommunicationdefinitions', path: PATHS.communicationDefinitions, template: form('type') },
  {
    rel: 'meshcommunications',
    path: PATHS.communications,
    template: form('communicationDefinitionUuid', 'resolutionStatus', 'communicationType'),
  },
  // Kinds the spec's table does not list but this service serves (as the real system's index does).
  { rel: 'meshapikeys', path: PATHS.apiKeys, template: form('workspaceIdentifier') },
  { rel: 'meshbuildingblockdefinitionversions', path: PATHS.definitionVersions, template: form('buildingBlockDefinitionUuid') },
  {
    rel: 'meshplatforms',
    path: PATHS.platforms,
    template: form('identifier', 'locationIdentifier', 'ownedByWorkspace', 'platformTypeIdentifier'),
  },
  { rel: 'meshlocations', path: PATHS.locations, template: form('displayName') },
  { rel: 'meshbuildingblockrunners', path: PATHS.runners, template: form('workspaceIdentifier') },
  {
    rel: 'mesheventlogs',
    path: PATHS.eventLogs,
    template: form(
      'from',
      'until',
      'title',
      'description',
      'authorType',
      'authorIdentifier',
      'eventType',
      'workspaceName',
      'workspaceIdentifier',
      'excludeTitle',
    ),
  },
  { rel: 'meshprojectroles', path: PATHS.projectRoles, template: '' },
  { rel: 'meshplatformtypes', path: PATHS.platformTypes, template: form('category', 'lifecycleStatus') },
  { rel: 'meshintegrations', path: PATHS.integrations, template: form('displayName', 'ownedByWorkspace', 'type') },
  {
    rel: 'meshlandingzones',
    path: PATHS.landingZones,
    template: form('identifier', 'displayName', 'platformUuid', 'disabled', 'restricted', 'ownedByWorkspace'),
  },
] as const satisfies readonly Relation[];

export type RelationName = (typeof MESHOBJECT_RELATIONS)[number]['rel'];

const PATH_OF: ReadonlyMap<string, string> = new Map(MESHOBJECT_RELATIONS.map((relation) => [relation.rel, relation.path]));

/**
 * The index's links: a relation is listed when the caller may use its endpoint (spec §2.2), to list
 * or to create in it (a runner's claim is the runs relation's POST). Paths that only answer for
 * retired versions (http/retired-paths.ts) are not served, so never listed.
 */
export function indexLinks(collections: CollectionPermissions, baseUrl: string): HalLinks {
  const links: HalLinks = {};
  for (const { rel, path, template } of MESHOBJECT_RELATIONS) {
    if (!collections.mayList(path) && !collections.mayCreate(path)) continue;
    links[rel] = template === '' ? { href: `${baseUrl}${path}` } : { href: `${baseUrl}${path}${template}`, templated: true };
  }
  return links;
}

/**
 * Where a link from an object's answer leads: the collection of a relation filtered to the object
 * (`query`, e.g. `?workspaceIdentifier=dev`), or one object of it (`id`). `workspace` is where those
 * objects live; absent when they live in no one workspace (users, platforms) or in many (a
 * definition's blocks).
 */
export type Related = { rel: RelationName; workspace?: string } & ({ query: string } | { id: string });

/**
 * The links from an object's answer to related collections and objects (not `self`, not links to the
 * object's own parts), each only when the caller may follow it: may list the relation's collection
 * in `workspace`. Reading one object takes the rule of listing its collection (kinds/resource.ts
 * gives both routes the same access), so one question answers both kinds of link.
 */
export function relatedLinks(view: RelationsView, related: Readonly<Record<string, Related | undefined>>): HalLinks {
  const links: HalLinks = {};
  for (const [name, target] of Object.entries(related)) {
    if (target === undefined) continue;
    const path = PATH_OF.get(target.rel)!;
    if (!view.collections.mayList(path, target.workspace)) continue;
    links[name] = { href: 'id' in target ? objectUrl(view.baseUrl, path, target.id) : `${view.baseUrl}${path}${target.query}` };
  }
  return links;
}
