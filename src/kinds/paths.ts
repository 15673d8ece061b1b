/**
 * Every collection path of the API, once: codecs build their links from these, the routes serve
 * them, the index lists them and the import names its kinds by them.
 */
export const PATHS = {
  apiKeys: '/api/meshobjects/meshapikeys',
  apiUsers: '/api/admin/apiusers',
  workspaces: '/api/meshobjects/meshworkspaces',
  projects: '/api/meshobjects/meshprojects',
  locations: '/api/meshobjects/meshlocations',
  platforms: '/api/meshobjects/meshplatforms',
  tenants: '/api/meshobjects/meshtenants',
  definitions: '/api/meshobjects/meshbuildingblockdefinitions',
  definitionVersions: '/api/meshobjects/meshbuildingblockdefinitionversions',
  blocks: '/api/meshobjects/meshbuildingblocks',
  runners: '/api/meshobjects/meshbuildingblockrunners',
  runs: '/api/meshobjects/meshbuildingblockruns',
  eventLogs: '/api/meshobjects/mesheventlogs',
  users: '/api/meshobjects/meshusers',
  // The platform catalogue (tag definitions and payment methods are in the spec's index below).
  platformTypes: '/api/meshobjects/meshplatformtypes',
  landingZones: '/api/meshobjects/meshlandingzones',
  integrations: '/api/meshobjects/meshintegrations',
  workspaceUserGroups: '/api/meshobjects/meshworkspaceusergroups',
  projectGroupBindings: '/api/meshobjects/meshprojectbindings/groupbindings',
  projectUserBindings: '/api/meshobjects/meshprojectbindings/userbindings',
  workspaceUserBindings: '/api/meshobjects/meshworkspacebindings/userbindings',
  workspaceGroupBindings: '/api/meshobjects/meshworkspacebindings/groupbindings',
  projectRoles: '/api/meshobjects/meshprojectroles',
  objectCollections: '/api/meshobjectcollections',
  paymentMethods: '/api/meshobjects/meshpaymentmethods',
  tagDefinitions: '/api/meshobjects/meshtagdefinitions',
  serviceInstances: '/api/meshobjects/meshserviceinstances',
  communicationDefinitions: '/api/meshobjects/meshcommunicationdefinitions',
  communications: '/api/meshobjects/meshcommunications',
} as const;

/** Ids that need no escaping in a path segment (uuids, names): tested faster than escaped. */
const UNRESERVED = /^[\w.~-]*$/;

/** `<base><path>/<id>` with the id escaped: the `self` link of an object. */
export const objectUrl = (baseUrl: string, path: string, id: string) =>
  `${baseUrl}${path}/${UNRESERVED.test(id) ? id : encodeURIComponent(id)}`;
