import { sql } from 'kysely';
import type { Tables } from './schema.js';
import type { Db } from './transaction.js';

/**
 * "Still referenced by …": the rows that point at an object and keep it from being deleted (409).
 * The reference graph of the schema, in one place; kinds added later add their rows here.
 */
interface Dependent {
  /** Plural kind name used in the message, e.g. `meshProjects`. */
  kind: string;
  table: keyof Tables;
  /** Columns that together hold the reference, in the order of the referenced key's values. */
  columns: readonly string[];
  /** Soft-deleted or ended rows (this column set) do not count. */
  unlessSet?: string;
}

const DEPENDENTS = {
  workspace: [
    { kind: 'meshProjects', table: 'projects', columns: ['workspace'] },
    { kind: 'meshPlatforms', table: 'platforms', columns: ['owned_by_workspace'] },
    { kind: 'meshLocations', table: 'locations', columns: ['owned_by_workspace'] },
    { kind: 'meshBuildingBlockDefinitions', table: 'definitions', columns: ['owned_by_workspace'] },
    { kind: 'meshBuildingBlockRunners', table: 'runners', columns: ['owned_by_workspace'] },
    { kind: 'meshBuildingBlocks', table: 'building_blocks', columns: ['workspace'] },
    { kind: 'meshWorkspaceUserGroups', table: 'user_groups', columns: ['workspace'] },
    { kind: 'role bindings', table: 'role_bindings', columns: ['workspace'] },
    { kind: 'meshPaymentMethods', table: 'payment_methods', columns: ['owned_by_workspace'], unlessSet: 'deleted_on' },
    { kind: 'meshIntegrations', table: 'integrations', columns: ['owned_by_workspace'] },
    { kind: 'meshCommunications', table: 'communications', columns: ['workspace'] },
    // Its collections would pass to a new workspace of the same name.
    { kind: 'meshObjectCollections', table: 'object_collections', columns: ['owned_by_workspace'] },
  ],
  project: [
    { kind: 'meshTenants', table: 'tenants', columns: ['workspace', 'project'], unlessSet: 'deleted_on' },
    { kind: 'project bindings', table: 'role_bindings', columns: ['workspace', 'project'] },
    // Deleting ones do not count: they go with the project.
    { kind: 'meshServiceInstances', table: 'service_instances', columns: ['workspace', 'project'], unlessSet: 'marked_for_deletion_on' },
  ],
  projectRole: [{ kind: 'project bindings', table: 'role_bindings', columns: ['project_role'] }],
  collection: [
    { kind: 'meshWorkspaceUserGroups', table: 'user_groups', columns: ['collection'] },
    { kind: 'workspace bindings', table: 'role_bindings', columns: ['collection'] },
  ],
  location: [{ kind: 'meshPlatforms', table: 'platforms', columns: ['location'] }],
  platform: [
    { kind: 'meshTenants', table: 'tenants', columns: ['platform_uuid'], unlessSet: 'deleted_on' },
    { kind: 'enabled meshLandingZones', table: 'landing_zones', columns: ['platform_uuid'], unlessSet: 'disabled_on' },
  ],
  tenant: [{ kind: 'meshBuildingBlocks', table: 'building_blocks', columns: ['tenant_uuid'] }],
  paymentMethod: [
    { kind: 'meshProjects', table: 'projects', columns: ['payment_method'] },
    { kind: 'meshProjects (as substitute)', table: 'projects', columns: ['substitute_payment_method'] },
  ],
  communicationDefinition: [{ kind: 'meshCommunications', table: 'communications', columns: ['definition_uuid'] }],
  definition: [{ kind: 'meshBuildingBlocks', table: 'building_blocks', columns: ['definition_uuid'] }],
  runner: [
    { kind: 'waiting or running meshBuildingBlockRuns', table: 'runs', columns: ['runner_uuid'], unlessSet: 'ended_on' },
    { kind: 'meshBuildingBlockDefinitionVersions', table: 'definition_versions', columns: ['runner_uuid'] },
  ],
} satisfies Record<string, Dependent[]>;

/** `["2 meshProjects", "1 meshPlatforms"]` for the dependents of the object that exist, or `[]`. */
export async function findDependents(db: Db, of: keyof typeof DEPENDENTS, key: readonly string[]): Promise<string[]> {
  const found: string[] = [];
  for (const dependent of DEPENDENTS[of] as readonly Dependent[]) {
    const conditions = dependent.columns.map((column, index) => sql`${sql.ref(column)} = ${key[index]}`);
    if (dependent.unlessSet) conditions.push(sql`${sql.ref(dependent.unlessSet)} is null`);
    const { rows } = await sql<{
      total: number | string;
    }>`select count(*) as total from ${sql.table(dependent.table)} where ${sql.join(conditions, sql` and `)}`.execute(db);
    const total = Number(rows[0]?.total ?? 0);
    if (total > 0) found.push(`${total} ${dependent.kind}`);
  }
  return found;
}
