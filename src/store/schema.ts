import type { Generated } from 'kysely';

/**
 * Table types for Kysely. Columns hold portable types only (text, integer, boolean as integer 0/1 on
 * SQLite via the repositories), so one query code path serves SQLite and PostgreSQL.
 */
export interface ApiKeyTable {
  uuid: string;
  owned_by_workspace: string;
  display_name: string;
  /** JSON array of permission codes. */
  permissions: string;
  expires_at: string | null;
  secret_hash: string;
  created_on: string;
  /** Bumped at every secret rotation; the key's tokens carry it and older ones are refused. */
  revision: number;
}

export interface ApiUserTable {
  username: string;
  password_hash: string;
  created_on: string;
}

export interface SigningKeyTable {
  kid: string;
  public_jwk: string;
  private_jwk_encrypted: string;
  created_on: string;
  /** When a newer key replaced it: it signs nothing more and is trusted only until its tokens expired. */
  retired_on: string | null;
}

/** Keys of the service itself, each encrypted under the master key (the secret-hash key). */
export interface KeyringTable {
  name: string;
  value_encrypted: string;
  created_on: string;
}

/** The structure kinds keep their object as sent in `document` (JSON) beside the columns queries use. */
export interface WorkspaceTable {
  name: string;
  document: string;
  created_on: string;
}

export interface ProjectTable {
  workspace: string;
  name: string;
  payment_method: string | null;
  substitute_payment_method: string | null;
  document: string;
  created_on: string;
}

/** Payment methods: soft-deleted, still readable by name. */
export interface PaymentMethodTable {
  name: string;
  owned_by_workspace: string;
  /** `YYYY-MM-DD`: valid through that day (UTC). */
  expiration_date: string | null;
  deleted_on: string | null;
  document: string;
  created_on: string;
}

/** Platform types: built-in (seeded) and CUSTOM ones; deactivated, never deleted. */
export interface PlatformTypeTable {
  name: string;
  /** The upper-cased name: platforms name their type so (`AZURE`). */
  type_key: string;
  uuid: string;
  category: string;
  lifecycle_state: string;
  /** 1 for the seeded built-in types (read-only). */
  built_in: number;
  document: string;
  created_on: string;
}

/** Landing zones: on one platform, owned by its workspace; disabled, never deleted. */
export interface LandingZoneTable {
  name: string;
  platform_uuid: string;
  owned_by_workspace: string;
  display_name: string;
  restricted: number;
  disabled_on: string | null;
  document: string;
  created_on: string;
}

/** Integrations: `document` holds `spec.config` with its secrets sealed. */
export interface IntegrationTable {
  uuid: string;
  owned_by_workspace: string;
  display_name: string;
  integration_type: string;
  built_in: number;
  document: string;
  created_on: string;
}

/** Tag definitions, named `<targetKind>.<key>`. */
export interface TagDefinitionTable {
  name: string;
  target_kind: string;
  tag_key: string;
  document: string;
  created_on: string;
}

/** Service instances: `gone_on` is the instant a deleting instance is gone. */
export interface ServiceInstanceTable {
  instance_id: string;
  workspace: string;
  project: string;
  marketplace: string;
  service_id: string;
  plan_id: string;
  creator: string;
  document: string;
  marked_for_deletion_on: string | null;
  gone_on: string | null;
  created_on: string;
}

/** Communication definitions with their counters, kept in the communications' transactions. */
export interface CommunicationDefinitionTable {
  uuid: string;
  communication_type: string;
  document: string;
  communications_total: Generated<number>;
  communications_open: Generated<number>;
  communications_resolved: Generated<number>;
  created_on: string;
}

/** Communications: `resolution_status` is null for a NOTIFICATION (nothing to resolve). */
export interface CommunicationTable {
  uuid: string;
  definition_uuid: string;
  workspace: string;
  target_kind: string;
  target_name: string;
  communication_type: string;
  resolution_status: string | null;
  created_on: string;
}

export interface LocationTable {
  name: string;
  uuid: string;
  display_name: string;
  owned_by_workspace: string | null;
  document: string;
  created_on: string;
}

export interface PlatformTable {
  uuid: string;
  name: string;
  location: string;
  owned_by_workspace: string;
  platform_type: string;
  /** 0/1: offered to every workspace (spec.availability.restriction PUBLIC). */
  is_public: number;
  /** `spec.displayName`, `spec.availability.restriction` and `publicationState` (list filters). */
  display_name: string;
  restriction: string;
  publication_state: string;
  document: string;
  created_on: string;
}

/** A platform's `spec.contributingWorkspaces`, one row each (the repeatable list filter). */
export interface PlatformContributorTable {
  platform_uuid: string;
  workspace: string;
}

export interface TenantTable {
  uuid: string;
  workspace: string;
  project: string;
  platform_uuid: string;
  platform_tenant_id: string;
  /** The landing zone's identifier (list filter). */
  landing_zone: string | null;
  document: string;
  created_on: string;
  deleted_on: string | null;
}

export interface RunnerTable {
  uuid: string;
  owned_by_workspace: string;
  implementation_type: string;
  restriction: string;
  document: string;
  created_on: string;
  last_seen: string | null;
}

export interface DefinitionTable {
  uuid: string;
  owned_by_workspace: string;
  display_name: string;
  target_type: string;
  /** Highest version number, a draft included; 0 never (version 1 comes with the definition). */
  latest_version: number;
  /** Highest released version number; 0 when none is released. */
  latest_released_version: number;
  /** Highest released and approved version number (the marketplace's); 0 when none. */
  latest_published_version: number;
  document: string;
  created_on: string;
}

/** A definition's block count, in stripes (migration 0019): the count is the sum of its rows. */
export interface DefinitionUsageTable {
  definition_uuid: string;
  stripe: number;
  blocks: number;
}

export interface DefinitionVersionTable {
  uuid: string;
  definition_uuid: string;
  version_number: number;
  state: string;
  /** Null: the shared runner of the implementation type. */
  runner_uuid: string | null;
  /** The version's spec as sent (sealed secrets, derived manual outputs). */
  document: string;
  created_on: string;
  /** Released versions: APPROVED (in the marketplace), IN_REVIEW or REJECTED; null for drafts. */
  review_state: string | null;
  /** JSON `{by, on, reason?}` of the last review decision, or null. */
  review: string | null;
}

export interface BuildingBlockTable {
  uuid: string;
  workspace: string;
  project: string | null;
  tenant_uuid: string | null;
  /** `<platform>.<location>` of the tenant (platforms never move). */
  platform_identifier: string | null;
  target_kind: string;
  definition_uuid: string;
  /** The definition's workspace (definitions never move): the managedBy filters. */
  definition_owner: string;
  version_uuid: string;
  version_number: number;
  display_name: string;
  status: string;
  once_per_tenant: string | null;
  force_purge: number;
  marked_for_deletion_on: string | null;
  marked_for_deletion_by: string | null;
  latest_run_uuid: string | null;
  /** Inputs (sensitive ones sealed), parents and the target as sent. */
  document: string;
  /** `[{key, value, valueType, isSensitive?}]`, sensitive values sealed. */
  outputs: string;
  created_on: string;
  created_by: string;
}

export interface BuildingBlockParentTable {
  block_uuid: string;
  parent_uuid: string;
}

export interface RunTable {
  uuid: string;
  block_uuid: string;
  run_number: number;
  behavior: string;
  status: string;
  runner_uuid: string;
  definition_uuid: string;
  definition_owner: string;
  workspace: string;
  node_id: string | null;
  /** What the runner needs, resolved when the run was created (sensitive values sealed). */
  document: string;
  outputs: string;
  created_on: string;
  claimed_on: string | null;
  ended_on: string | null;
  updated_on: string;
  /** UTF-8 bytes of the run's stored step messages (bounded by BLOCKYARD_RUN_LOG_MAX_BYTES). */
  log_bytes: number;
}

export interface RunSourceTable {
  run_uuid: string;
  source_id: string;
  document: string;
  created_on: string;
}

export interface RunStepTable {
  run_uuid: string;
  source_id: string;
  step_id: string;
  position: number;
  display_name: string;
  status: string;
  user_message: string | null;
  system_message: string | null;
  outputs: string;
  updated_on: string;
}

export interface RateLimitWindowTable {
  key: string;
  /** Milliseconds since the epoch at which the fixed window starts. */
  window_start: number | string;
  count: number;
}

/** One entry of the event log; `seq` is its position, in which readers deliver it (migrations 0011, 0018). */
export interface EventTable {
  seq: number | string;
  uuid: string;
  created_at: string;
  title: string;
  event_type: string;
  description: string;
  workspace: string | null;
  author_type: string;
  author_identifier: string;
  /** JSON: the object as its kind answers a reader of `workspace` (the kind's EventCodec; docs/events.md). */
  content: string;
  previous_content: string | null;
}

/** A meshUser; `document` holds metadata and spec as sent (tags). */
export interface UserTable {
  username: string;
  uuid: string;
  email: string;
  first_name: string;
  last_name: string;
  euid: string | null;
  document: string;
  created_on: string;
  /** 1, or 0 for a user a SCIM client deactivated (migration 0013). */
  active: Generated<number>;
  /** SCIM attributes meshUser has no field for (JSON), or null. */
  scim_attributes: string | null;
  updated_on: string | null;
}

export interface UserGroupTable {
  workspace: string;
  name: string;
  /** The meshObjectCollection it was imported into (declarative deletion), or null. */
  collection: string | null;
  document: string;
  created_on: string;
  updated_on: string | null;
}

export interface GroupMemberTable {
  workspace: string;
  group_name: string;
  username: string;
  /** Order of `spec.members` as sent. */
  position: number;
}

export interface ProjectRoleTable {
  name: string;
  /** `spec.name`, the name bindings use in `roleRef.name` (unique). */
  display_name: string;
  document: string;
  created_on: string;
}

/** The four role binding kinds in one table (`kind` is the wire kind). */
export interface RoleBindingTable {
  kind: string;
  name: string;
  workspace: string;
  project: string | null;
  workspace_role: string | null;
  project_role: string | null;
  username: string | null;
  group_name: string | null;
  collection: string | null;
  created_on: string;
  /** `YYYY-MM-DD`; null: never expires. */
  expiry_date: string | null;
}

/** A building block's Terraform state (the state backend): sealed, with Terraform's lock. */
export interface TerraformStateTable {
  block_uuid: string;
  /** Sealed (SecretBox); null while only a lock was taken. */
  state: string | null;
  state_bytes: number;
  lock_id: string | null;
  /** The lock's info as Terraform sent it (JSON text). */
  lock_info: string | null;
  updated_on: string;
}

export interface ObjectCollectionTable {
  name: string;
  owner: string;
  /** The owning workspace; null: admins only (migration 0023). */
  owned_by_workspace: string | null;
  description: string;
  created_on: string;
}

/** SCIM bearer credentials: only the keyed hash of the secret is stored. */
export interface ScimTokenTable {
  id: string;
  name: string;
  secret_hash: string;
  created_on: string;
}

export interface Tables {
  api_keys: ApiKeyTable;
  api_users: ApiUserTable;
  signing_keys: SigningKeyTable;
  keyring: KeyringTable;
  workspaces: WorkspaceTable;
  projects: ProjectTable;
  payment_methods: PaymentMethodTable;
  tag_definitions: TagDefinitionTable;
  platform_types: PlatformTypeTable;
  landing_zones: LandingZoneTable;
  integrations: IntegrationTable;
  service_instances: ServiceInstanceTable;
  communication_definitions: CommunicationDefinitionTable;
  communications: CommunicationTable;
  locations: LocationTable;
  platforms: PlatformTable;
  platform_contributors: PlatformContributorTable;
  tenants: TenantTable;
  runners: RunnerTable;
  definitions: DefinitionTable;
  definition_usage: DefinitionUsageTable;
  definition_versions: DefinitionVersionTable;
  building_blocks: BuildingBlockTable;
  building_block_parents: BuildingBlockParentTable;
  runs: RunTable;
  run_sources: RunSourceTable;
  run_steps: RunStepTable;
  rate_limit_windows: RateLimitWindowTable;
  events: EventTable;
  users: UserTable;
  user_groups: UserGroupTable;
  group_members: GroupMemberTable;
  project_roles: ProjectRoleTable;
  role_bindings: RoleBindingTable;
  terraform_states: TerraformStateTable;
  object_collections: ObjectCollectionTable;
  scim_tokens: ScimTokenTable;
}
