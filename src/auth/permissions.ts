/**
 * Permission codes (COMPAT §5): `<RESOURCE>_<ACTION>` covers the key's own workspace, `ADM_<...>` every
 * workspace, `MANAGED_<...>` objects of definitions the key's workspace owns. Keys carrying an unknown
 * code are rejected (400).
 */
export type Action = 'LIST' | 'SAVE' | 'DELETE';

const CRUD: readonly Action[] = ['LIST', 'SAVE', 'DELETE'];

/** Resources with workspace-scoped `X_*` codes and admin `ADM_X_*` twins. */
export const RESOURCES = [
  'BUILDINGBLOCK',
  'BUILDINGBLOCKDEFINITION',
  'BUILDINGBLOCKRUNNER',
  'APIKEY',
  'WORKSPACE',
  'PROJECT',
  'TENANT',
  'PLATFORMINSTANCE',
  'LANDINGZONE',
  'INTEGRATION',
  'PROJECTPRINCIPALROLE',
  'WORKSPACEPRINCIPALBINDING',
  'SERVICEINSTANCE',
  'COMMUNICATIONDEFINITION',
  'COMMUNICATION',
  'TFSTATE',
] as const;

/**
 * Resources with admin codes only or a narrower set: users, project roles, group reads; `EVENTLOG` has
 * only `EVENTLOG_LIST` and `ADM_EVENTLOG_LIST`; PAYMENTMETHOD and TAGDEFINITION only the codes listed below.
 */
export type Resource =
  | (typeof RESOURCES)[number]
  | 'BUILDINGBLOCKRUN'
  | 'BUILDINGBLOCKRUNSOURCE'
  | 'USER'
  | 'PROJECTROLE'
  | 'WORKSPACEUSERGROUP'
  | 'EVENTLOG'
  | 'PAYMENTMETHOD'
  | 'TAGDEFINITION';

function allCodes(): string[] {
  const codes = RESOURCES.flatMap((r) => CRUD.flatMap((a) => [`${r}_${a}`, `ADM_${r}_${a}`]));
  codes.push(
    'MANAGED_BUILDINGBLOCK_LIST',
    'MANAGED_BUILDINGBLOCK_SAVE',
    'ADM_REVIEW_PUBLICATION',
    'MANAGED_BUILDINGBLOCKRUN_LIST',
    'MANAGED_BUILDINGBLOCKRUN_SAVE',
    'ADM_BUILDINGBLOCKRUN_LIST',
    'ADM_BUILDINGBLOCKRUN_SAVE',
    'MANAGED_BUILDINGBLOCKRUNSOURCE_SAVE',
    'ADM_BUILDINGBLOCKRUNSOURCE_SAVE',
    'MANAGED_TENANT_IMPORT',
    'ADM_TENANT_IMPORT',
    'MANAGED_TFSTATE_LIST',
    'MANAGED_TFSTATE_SAVE',
    'MANAGED_TFSTATE_DELETE',
    'EVENTLOG_LIST',
    'ADM_EVENTLOG_LIST',
    'WORKSPACEUSERGROUP_LIST',
    'ADM_WORKSPACEUSERGROUP_LIST',
    'PAYMENTMETHOD_LIST',
    'ADM_PAYMENTMETHOD_LIST',
    'ADM_PAYMENTMETHOD_SAVE',
    'ADM_PAYMENTMETHOD_DELETE',
    'ADM_PROJECTROLE_SAVE',
    'ADM_PROJECTROLE_DELETE',
    'ADM_TAGDEFINITION_LIST',
    'ADM_TAGDEFINITION_SAVE',
    'ADM_TAGDEFINITION_DELETE',
    'ADM_USER_LIST',
    'ADM_USER_SAVE',
    'ADM_USER_DELETE',
  );
  return codes;
}

export const PERMISSION_CODES: ReadonlySet<string> = new Set(allCodes());

export const isAdminCode = (code: string) => code.startsWith('ADM_');

/** Every admin code: a key holding all of them is admin-equivalent (as API users are). */
export const ADMIN_CODES: readonly string[] = [...PERMISSION_CODES].filter(isAdminCode);
