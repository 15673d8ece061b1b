/**
 * A platform's `spec.config` in its two wire forms. The stored form is v2's (the current version's):
 * secrets are secret objects (`{plaintext}` sent, `{hash, ciphertext}` stored, `{hash}` read), each
 * service principal or account says how it authenticates in `auth` (`{type: credential |
 * workloadIdentity}`), and role mappings are lists of `{projectRoleRef, <platform>Role}`. v1 (the
 * published OpenAPI's outdated version) writes secrets as strings (masked on read), `authType` with
 * `credentialsAuthClientSecret`, `serviceUserConfig`/`workloadIdentityConfig`, `serviceAccountConfig`
 * and role mappings as maps by project role. Either form is taken by both versions; v1 answers its own.
 */

type JsonObject = Record<string, unknown>;

const isObject = (value: unknown): value is JsonObject => value !== null && typeof value === 'object' && !Array.isArray(value);

/** What a v1 answer shows for a secret; sent back (or the OpenAPI's other mask), it keeps the stored secret. */
export const CONFIG_SECRET_MASK = '*****';
export const CONFIG_SECRET_MASKS: readonly string[] = [CONFIG_SECRET_MASK, 'mesh/hidden-secret'];

/** The secrets of each config type, as paths below `config.<type>` in the stored (v2) form. */
export const CONFIG_SECRET_PATHS: Readonly<Record<string, readonly (readonly string[])[]>> = {
  aks: [
    ['replication', 'accessToken'],
    ['replication', 'servicePrincipal', 'auth', 'credential'],
    ['metering', 'clientConfig', 'accessToken'],
  ],
  aws: [
    ['replication', 'accessConfig', 'auth', 'credential', 'secretKey'],
    ['replication', 'awsSso', 'ssoAccessToken'],
    ['metering', 'accessConfig', 'auth', 'credential', 'secretKey'],
  ],
  azure: [
    ['replication', 'servicePrincipal', 'auth', 'credential'],
    ['replication', 'provisioning', 'customerAgreement', 'sourceServicePrincipal', 'auth', 'credential'],
    ['metering', 'servicePrincipal', 'auth', 'credential'],
  ],
  azurerg: [['replication', 'servicePrincipal', 'auth', 'credential']],
  gcp: [
    ['replication', 'serviceAccount', 'credential'],
    ['metering', 'serviceAccount', 'credential'],
  ],
  kubernetes: [
    ['replication', 'clientConfig', 'accessToken'],
    ['metering', 'clientConfig', 'accessToken'],
  ],
  openshift: [
    ['replication', 'clientConfig', 'accessToken'],
    ['metering', 'clientConfig', 'accessToken'],
  ],
};

/** Service principals (Azure's app registrations), in the v2 form `{…, auth: {type, credential?}}`. */
const PRINCIPAL_PATHS: Readonly<Record<string, readonly (readonly string[])[]>> = {
  aks: [['replication', 'servicePrincipal']],
  azure: [
    ['replication', 'servicePrincipal'],
    ['replication', 'provisioning', 'customerAgreement', 'sourceServicePrincipal'],
  ],
  azurerg: [['replication', 'servicePrincipal']],
};

/** Role mappings: where they are, v1's map key and v2's list key, and how one role's value is written in each. */
interface RoleMappings {
  type: string;
  at: readonly string[];
  v1: string;
  v2: string;
  toV2(role: string, value: unknown): JsonObject;
  toV1(entry: JsonObject): unknown;
}
const roleRef = (name: string) => ({ name, kind: 'meshProjectRole' });
const ROLE_MAPPINGS: readonly RoleMappings[] = [
  {
    type: 'azure',
    at: ['replication'],
    v1: 'roleMappings',
    v2: 'azureRoleMappings',
    toV2: (role, value) => ({ projectRoleRef: roleRef(role), azureRole: value }),
    toV1: (entry) => entry.azureRole,
  },
  {
    type: 'gcp',
    at: ['replication'],
    v1: 'roleMappings',
    v2: 'gcpRoleMappings',
    toV2: (role, value) => ({ projectRoleRef: roleRef(role), gcpRole: value }),
    toV1: (entry) => entry.gcpRole,
  },
  {
    type: 'openshift',
    at: ['replication'],
    v1: 'roleMappings',
    v2: 'openshiftRoleMappings',
    toV2: (role, value) => ({ projectRoleRef: roleRef(role), openshiftRole: value }),
    toV1: (entry) => entry.openshiftRole,
  },
  {
    type: 'aws',
    at: ['replication', 'awsSso'],
    v1: 'roleMappings',
    v2: 'awsRoleMappings',
    toV2: (role, value) => {
      const { awsRoleName, ...rest } = isObject(value) ? value : {};
      return { projectRoleRef: roleRef(role), awsRole: awsRoleName, ...rest };
    },
    toV1: ({ projectRoleRef: _ref, awsRole, ...rest }) => ({ awsRoleName: awsRole, ...rest }),
  },
];

/** The object at `path` below `root`, or undefined when a step is missing or no object. */
function objectAt(root: JsonObject, path: readonly string[]): JsonObject | undefined {
  let node: unknown = root;
  for (const key of path) node = isObject(node) ? node[key] : undefined;
  return isObject(node) ? node : undefined;
}

/**
 * A deep copy of the plain objects on each path (arrays and leaves shared): the conversions below
 * rewrite those objects in place without touching what the caller holds.
 */
function copyAlong(config: JsonObject, type: string, paths: readonly (readonly string[])[]): JsonObject {
  const out = { ...config };
  if (!isObject(out[type])) return out;
  out[type] = { ...out[type] };
  for (const path of paths) {
    let node = out[type] as JsonObject;
    for (const key of path) {
      if (!isObject(node[key])) break;
      node[key] = { ...node[key] };
      node = node[key] as JsonObject;
    }
  }
  return out;
}

const touched = (type: string): (readonly string[])[] => [
  ...(CONFIG_SECRET_PATHS[type] ?? []),
  ...(PRINCIPAL_PATHS[type] ?? []).map((path) => [...path, 'auth']),
  ['replication', 'accessConfig', 'auth', 'credential'],
  ['replication', 'serviceAccount'],
  ['replication', 'awsSso'],
];

/**
 * A config as sent, in either form, in the stored (v2) form. Secrets stay as sent (a string, a mask, a
 * secret object): the service seals them. Only the parts written in v1's form change.
 */
export function configFromV1Form(config: JsonObject): JsonObject {
  const type = String(config.type).toLowerCase();
  const out = copyAlong(config, type, touched(type));
  const own = out[type];
  if (!isObject(own)) return out;
  for (const path of PRINCIPAL_PATHS[type] ?? []) {
    const principal = objectAt(own, path);
    if (
      !principal ||
      principal.auth !== undefined ||
      (principal.authType === undefined && principal.credentialsAuthClientSecret === undefined)
    )
      continue;
    const { authType, credentialsAuthClientSecret } = principal;
    delete principal.authType;
    delete principal.credentialsAuthClientSecret;
    principal.auth =
      authType === 'WORKLOAD_IDENTITY'
        ? { type: 'workloadIdentity' }
        : { type: 'credential', ...(credentialsAuthClientSecret !== undefined ? { credential: credentialsAuthClientSecret } : {}) };
  }
  const access = type === 'aws' ? objectAt(own, ['replication', 'accessConfig']) : undefined;
  if (access && access.auth === undefined && (isObject(access.serviceUserConfig) || isObject(access.workloadIdentityConfig))) {
    const { serviceUserConfig, workloadIdentityConfig } = access;
    delete access.serviceUserConfig;
    delete access.workloadIdentityConfig;
    access.auth = isObject(serviceUserConfig)
      ? { type: 'credential', credential: serviceUserConfig }
      : { type: 'workloadIdentity', workloadIdentity: workloadIdentityConfig };
  }
  const replication = type === 'gcp' ? objectAt(own, ['replication']) : undefined;
  if (replication && replication.serviceAccount === undefined && isObject(replication.serviceAccountConfig)) {
    const { serviceAccountCredentialsConfig: credentials, serviceAccountWorkloadIdentityConfig: workloadIdentity } =
      replication.serviceAccountConfig;
    delete replication.serviceAccountConfig;
    replication.serviceAccount = isObject(credentials)
      ? { type: 'credential', credential: credentials.serviceAccountCredentialsB64 }
      : { type: 'workloadIdentity', workloadIdentity };
  }
  for (const mapping of ROLE_MAPPINGS) {
    const at = mapping.type === type ? objectAt(own, mapping.at) : undefined;
    if (!at || at[mapping.v2] !== undefined || !isObject(at[mapping.v1])) continue;
    at[mapping.v2] = Object.entries(at[mapping.v1] as JsonObject).map(([role, value]) => mapping.toV2(role, value));
    delete at[mapping.v1];
  }
  // v2 requires it; v1 has no such switch (the subscription name was never updated).
  const azure = type === 'azure' ? objectAt(own, ['replication']) : undefined;
  if (azure && azure.updateSubscriptionName === undefined) azure.updateSubscriptionName = false;
  return out;
}

/** A config as v1 shows it: the stored form's v2-only shapes in v1's, every secret as the mask. */
export function configToV1Form(config: JsonObject): JsonObject {
  const type = String(config.type).toLowerCase();
  const out = copyAlong(config, type, touched(type));
  const own = out[type];
  if (!isObject(own)) return out;
  for (const path of CONFIG_SECRET_PATHS[type] ?? []) {
    const parent = objectAt(own, path.slice(0, -1));
    const key = path.at(-1)!;
    if (parent && parent[key] !== undefined) parent[key] = CONFIG_SECRET_MASK;
  }
  for (const path of PRINCIPAL_PATHS[type] ?? []) {
    const principal = objectAt(own, path);
    if (!principal || !isObject(principal.auth)) continue;
    const { auth } = principal;
    delete principal.auth;
    principal.authType = auth.type === 'workloadIdentity' ? 'WORKLOAD_IDENTITY' : 'CREDENTIALS';
    if (auth.credential !== undefined) principal.credentialsAuthClientSecret = auth.credential;
  }
  const access = type === 'aws' ? objectAt(own, ['replication', 'accessConfig']) : undefined;
  if (access && isObject(access.auth)) {
    const { auth } = access;
    delete access.auth;
    if (auth.type === 'workloadIdentity') access.workloadIdentityConfig = auth.workloadIdentity;
    else access.serviceUserConfig = auth.credential;
  }
  const replication = type === 'gcp' ? objectAt(own, ['replication']) : undefined;
  if (replication && isObject(replication.serviceAccount)) {
    const { serviceAccount } = replication;
    delete replication.serviceAccount;
    replication.serviceAccountConfig =
      serviceAccount.type === 'workloadIdentity'
        ? { serviceAccountWorkloadIdentityConfig: serviceAccount.workloadIdentity }
        : { serviceAccountCredentialsConfig: { serviceAccountCredentialsB64: serviceAccount.credential } };
  }
  for (const mapping of ROLE_MAPPINGS) {
    const at = mapping.type === type ? objectAt(own, mapping.at) : undefined;
    if (!at || !Array.isArray(at[mapping.v2])) continue;
    const entries = (at[mapping.v2] as unknown[]).filter(isObject);
    delete at[mapping.v2];
    at[mapping.v1] = Object.fromEntries(
      entries.map((entry) => [String((entry.projectRoleRef as JsonObject | undefined)?.name), mapping.toV1(entry)]),
    );
  }
  return out;
}
