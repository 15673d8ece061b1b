import { ENTERPRISE_SCHEMA, GROUP_SCHEMA, USER_SCHEMA } from './attributes.js';
import { MAX_RESULTS } from './resource.js';

/** RFC 7643 §5-7: what this server supports, said accurately (no bulk, sort, changePassword or ETags). */

type Mutability = 'readOnly' | 'readWrite' | 'immutable' | 'writeOnly';
interface AttributeOptions {
  type?: 'string' | 'boolean' | 'complex' | 'reference' | 'dateTime';
  multi?: boolean;
  required?: boolean;
  caseExact?: boolean;
  mutability?: Mutability;
  returned?: 'always' | 'never' | 'default' | 'request';
  uniqueness?: 'none' | 'server' | 'global';
  sub?: object[];
  referenceTypes?: string[];
  canonicalValues?: string[];
  description: string;
}

function attribute(name: string, options: AttributeOptions) {
  const type = options.type ?? 'string';
  return {
    name,
    type,
    ...(options.sub ? { subAttributes: options.sub } : {}),
    multiValued: options.multi ?? false,
    description: options.description,
    required: options.required ?? false,
    ...(type === 'string' || type === 'reference' ? { caseExact: options.caseExact ?? false } : {}),
    ...(options.canonicalValues ? { canonicalValues: options.canonicalValues } : {}),
    ...(options.referenceTypes ? { referenceTypes: options.referenceTypes } : {}),
    mutability: options.mutability ?? 'readWrite',
    returned: options.returned ?? 'default',
    uniqueness: options.uniqueness ?? 'none',
  };
}

const multiValued = (description: string, types: string[]) =>
  attribute('', {
    type: 'complex',
    multi: true,
    description,
    sub: [
      attribute('value', { description: 'The value' }),
      attribute('display', { description: 'A human-readable name' }),
      attribute('type', { description: 'A label', canonicalValues: types }),
      attribute('primary', { type: 'boolean', description: 'The primary value' }),
    ],
  });

const named = (name: string, value: ReturnType<typeof attribute>) => ({ ...value, name });

const USER_ATTRIBUTES = [
  attribute('userName', {
    required: true,
    uniqueness: 'server',
    description: "The meshUser's username (taken in lower case; it cannot change)",
  }),
  attribute('name', {
    type: 'complex',
    description: "The user's name: givenName and familyName are the meshUser's firstName and lastName",
    sub: ['formatted', 'familyName', 'givenName', 'middleName', 'honorificPrefix', 'honorificSuffix'].map((sub) =>
      attribute(sub, { description: `name.${sub}` }),
    ),
  }),
  ...['displayName', 'nickName', 'title', 'userType', 'preferredLanguage', 'locale', 'timezone'].map((name) =>
    attribute(name, { description: `${name} (kept as sent)` }),
  ),
  attribute('profileUrl', { type: 'reference', referenceTypes: ['external'], description: 'profileUrl (kept as sent)' }),
  attribute('active', {
    type: 'boolean',
    description: 'false: the user is kept, flagged inactive, with its group memberships and bindings',
  }),
  named('emails', multiValued("E-mail addresses; the primary (else work, else first) is the meshUser's email", ['work', 'home', 'other'])),
  named('phoneNumbers', multiValued('Phone numbers (kept as sent)', ['work', 'home', 'mobile', 'fax', 'pager', 'other'])),
  attribute('addresses', {
    type: 'complex',
    multi: true,
    description: 'Addresses (kept as sent)',
    sub: [
      ...['formatted', 'streetAddress', 'locality', 'region', 'postalCode', 'country', 'type'].map((sub) =>
        attribute(sub, { description: sub }),
      ),
      attribute('primary', { type: 'boolean', description: 'primary' }),
    ],
  }),
  attribute('groups', {
    type: 'complex',
    multi: true,
    mutability: 'readOnly',
    description: 'Not returned: group membership is read from the Groups',
    returned: 'never',
    sub: [attribute('value', { mutability: 'readOnly', description: 'Group id' })],
  }),
];

const ENTERPRISE_ATTRIBUTES = [
  ...['employeeNumber', 'costCenter', 'organization', 'division', 'department'].map((name) =>
    attribute(name, { description: `${name} (kept as sent)` }),
  ),
  attribute('manager', {
    type: 'complex',
    description: 'The manager (kept as sent)',
    sub: [
      attribute('value', { description: "The manager's id" }),
      attribute('$ref', { type: 'reference', referenceTypes: ['User'], description: 'URI of the manager' }),
      attribute('displayName', { mutability: 'readOnly', description: "The manager's name" }),
    ],
  }),
];

const GROUP_ATTRIBUTES = [
  attribute('displayName', {
    required: true,
    uniqueness: 'server',
    description: '"<workspace>.<group>", or a name in BLOCKYARD_SCIM_GROUP_WORKSPACE; fixes the group\'s workspace and name',
  }),
  attribute('members', {
    type: 'complex',
    multi: true,
    description: 'Users of the group, by their ids',
    sub: [
      attribute('value', { mutability: 'immutable', caseExact: true, description: 'A User id' }),
      attribute('$ref', { type: 'reference', mutability: 'immutable', referenceTypes: ['User'], description: 'URI of the User' }),
      attribute('display', { mutability: 'readOnly', description: "The User's username" }),
      attribute('type', { mutability: 'immutable', canonicalValues: ['User'], description: 'User (groups cannot be members)' }),
    ],
  }),
];

export function schemas(baseUrl: string) {
  const schema = (id: string, name: string, description: string, attributes: object[]) => ({
    schemas: ['urn:ietf:params:scim:schemas:core:2.0:Schema'],
    id,
    name,
    description,
    attributes,
    meta: { resourceType: 'Schema', location: `${baseUrl}/scim/v2/Schemas/${id}` },
  });
  return [
    schema(USER_SCHEMA, 'User', 'A meshUser', USER_ATTRIBUTES),
    schema(ENTERPRISE_SCHEMA, 'EnterpriseUser', 'Enterprise attributes of a User (kept as sent)', ENTERPRISE_ATTRIBUTES),
    schema(GROUP_SCHEMA, 'Group', 'A meshWorkspaceUserGroup', GROUP_ATTRIBUTES),
  ];
}

export function resourceTypes(baseUrl: string) {
  return [
    {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:ResourceType'],
      id: 'User',
      name: 'User',
      endpoint: '/Users',
      description: 'meshUsers',
      schema: USER_SCHEMA,
      schemaExtensions: [{ schema: ENTERPRISE_SCHEMA, required: false }],
      meta: { resourceType: 'ResourceType', location: `${baseUrl}/scim/v2/ResourceTypes/User` },
    },
    {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:ResourceType'],
      id: 'Group',
      name: 'Group',
      endpoint: '/Groups',
      description: 'meshWorkspaceUserGroups',
      schema: GROUP_SCHEMA,
      schemaExtensions: [],
      meta: { resourceType: 'ResourceType', location: `${baseUrl}/scim/v2/ResourceTypes/Group` },
    },
  ];
}

export function serviceProviderConfig(baseUrl: string) {
  return {
    schemas: ['urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig'],
    patch: { supported: true },
    bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
    filter: { supported: true, maxResults: MAX_RESULTS },
    changePassword: { supported: false },
    sort: { supported: false },
    etag: { supported: false },
    authenticationSchemes: [
      {
        type: 'oauthbearertoken',
        name: 'SCIM token',
        description: 'Authorization: Bearer <token of `blockyard admin scim-token create`>',
        primary: true,
      },
    ],
    meta: { resourceType: 'ServiceProviderConfig', location: `${baseUrl}/scim/v2/ServiceProviderConfig` },
  };
}
