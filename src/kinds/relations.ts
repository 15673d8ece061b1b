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
  { rel: 'meshworkspaces', path: '/api/meshobjects/meshworkspaces', template: '' },
  { rel: 'meshworkspaceusergroups', path: '/api/meshobjects/meshworkspaceusergroups', template: form('workspaceIdentifier', 'username') },
  { rel: 'meshprojects', path: '/api/meshobjects/meshprojects', template: form('workspaceIdentifier', 'paymentIdentifier', 'state') },
  { rel: 'meshprojectgroupbindings', path: '/api/meshobjects/meshprojectbindings/groupbindings', template: '?workspaceIdentifier={workspaceIdentifier}&projectIdentifier={projectIdentifier}' },
  { rel: 'meshprojectuserbindings', path: '/api/meshobjects/meshprojectbindings/userbindings', template: '?workspaceIdentifier={workspaceIdentifier}&projectIdentifier={projectIdentifier}' },
  { rel: 'meshworkspaceuserbindings', path: '/api/meshobjects/meshworkspacebindings/userbindings', template: form('username', 'workspaceRole', 'workspaceIdentifier') },
  { rel: 'meshworkspacegroupbindings', path: '/api/meshobjects/meshworkspacebindings/groupbindings', template: form('username', 'workspaceRole') },
  { rel: 'meshtenants', path: '/api/meshobjects/meshtenants', template: form('workspaceIdentifier', 'projectIdentifier', 'platformIdentifier', 'deletionState') },
  { rel: 'meshpaymentmethods', path: '/api/meshobjects/meshpaymentmethods', template: form('workspaceIdentifier') },
  {
    rel: 'meshusers',
    path: '/api/meshobjects/meshusers',
    template: form('workspaceIdentifier', 'projectIdentifier', 'platformIdentifier', 'workspaceUserGroupIdentifier', 'projectRole', 'workspaceRole', 'email', 'firstName', 'lastName', 'username', 'euid'),
  },
  { rel: 'meshserviceinstances', path: '/api/meshobjects/meshserviceinstances', template: form('workspaceIdentifier', 'projectIdentifier', 'marketplaceIdentifier', 'serviceIdentifier', 'planIdentifier') },
  {
    rel: 'meshbuildingblocks',
    path: '/api/meshobjects/meshbuildingblocks',
    template: form('workspaceIdentifier', 'projectIdentifier', 'platformIdentifier', 'name', 'definitionUuid', 'versionUuid', 'tenantUuid', 'targetRefKind', 'status', 'managedByWorkspaceIdentifier', 'managedByDefinitionUuid'),
  },
  { rel: 'meshbuildingblockdefinitions', path: '/api/meshobjects/meshbuildingblockdefinitions', template: form('workspaceIdentifier') },
  // "runnerNodeId (required, in the path's query), selector (appended)"
  { rel: 'meshbuildingblockruns', path: '/api/meshobjects/meshbuildingblockruns', template: '?runnerNodeId={runnerNodeId}{&selector}' },
  { rel: 'meshtagdefinitions', path: '/api/meshobjects/meshtagdefinitions', template: '' },
  { rel: 'meshcommunicationdefinitions', path: '/api/meshobjects/meshcommunicationdefinitions', template: form('type') },
  { rel: 'meshcommunications', path: '/api/meshobjects/meshcommunications', template: form('communicationDefinitionUuid', 'resolutionStatus', 'communicationType') },
  // Kinds the spec's table does not list but this service serves (as the real system's index does).
  { rel: 'meshapikeys', path: '/api/meshobjects/meshapikeys', template: form('workspaceIdentifier') },
  { rel: 'meshbuildingblockdefinitionversions', path: '/api/meshobjects/meshbuildingblockdefinitionversions', template: form('buildingBlockDefinitionUuid') },
  { rel: 'meshplatforms', path: '/api/meshobjects/meshplatforms', template: form('identifier', 'locationIdentifier', 'ownedByWorkspace', 'platformTypeIdentifier') },
  { rel: 'meshlocations', path: '/api/meshobjects/meshlocations', template: form('displayName') },
  { rel: 'meshbuildingblockrunners', path: '/api/meshobjects/meshbuildingblockrunners', template: form('workspaceIdentifier') },
];
