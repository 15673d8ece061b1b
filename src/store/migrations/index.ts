import { Migrator, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import type { Logger } from 'pino';
import type { Tables } from '../schema.js';
import * as m0001 from './0001_identity.js';
import * as m0002 from './0002_structure.js';
import * as m0003 from './0003_definitions.js';
import * as m0004 from './0004_blocks.js';
import * as m0005 from './0005_rate_limits.js';
import * as m0006 from './0006_revocation.js';
import * as m0007 from './0007_publication_review.js';
import * as m0008 from './0008_run_log_bytes.js';
import * as m0009 from './0009_platform_filters.js';
import * as m0010 from './0010_tenant_filters.js';
import * as m0011 from './0011_events.js';
import * as m0012 from './0012_people.js';
import * as m0015 from './0015_catalogue.js';
import * as m0013 from './0013_scim.js';
import * as m0016 from './0016_service_instances.js';
import * as m0017 from './0017_communications.js';
import * as m0018 from './0018_event_numbers.js';
import * as m0019 from './0019_definition_usage.js';
import * as m0020 from './0020_terraform_state.js';
import * as m0021 from './0021_binding_expiry.js';
import * as m0022 from './0022_shared_runner_all_types.js';
import * as m0023 from './0023_collection_owners.js';
import * as m0024 from './0024_auth_failures.js';
import * as m0025 from './0025_event_content_for_readers.js';
import * as m0026 from './0026_sessions.js';
import * as m0027 from './0027_event_number_runs.js';
import * as m0028 from './0028_run_silence_index.js';

/** Versioned migrations, applied in name order at start. Never edit a released one: add a new file. */
const MIGRATIONS: Record<string, Migration> = {
  '0001_identity': m0001,
  '0002_structure': m0002,
  '0003_definitions': m0003,
  '0004_blocks': m0004,
  '0005_rate_limits': m0005,
  '0006_revocation': m0006,
  '0007_publication_review': m0007,
  '0008_run_log_bytes': m0008,
  '0009_platform_filters': m0009,
  '0010_tenant_filters': m0010,
  '0011_events': m0011,
  '0012_people': m0012,
  '0015_catalogue': m0015,
  '0013_scim': m0013,
  '0016_service_instances': m0016,
  '0017_communications': m0017,
  '0018_event_numbers': m0018,
  '0019_definition_usage': m0019,
  '0020_terraform_state': m0020,
  '0021_binding_expiry': m0021,
  '0022_shared_runner_all_types': m0022,
  '0023_collection_owners': m0023,
  '0024_auth_failures': m0024,
  '0025_event_content_for_readers': m0025,
  '0026_sessions': m0026,
  '0027_event_number_runs': m0027,
  '0028_run_silence_index': m0028,
};

/**
 * The migrator of the service's schema (its history in `blockyard_migrations`): the migrations above
 * and those a kind brings in its own folder (its manifest's `migrations`), applied in name order.
 */
export const migratorOf = (db: Kysely<Tables>, kindMigrations: Readonly<Record<string, Migration>> = {}): Migrator =>
  new Migrator({
    db,
    provider: { getMigrations: async () => ({ ...MIGRATIONS, ...kindMigrations }) } satisfies MigrationProvider,
    migrationTableName: 'blockyard_migrations',
    migrationLockTableName: 'blockyard_migrations_lock',
    allowUnorderedMigrations: true,
  });

/**
 * Brings the schema to the latest version. On PostgreSQL Kysely holds an advisory lock meanwhile, so
 * several instances starting together apply each migration exactly once. A migration numbered below
 * one already applied is applied all the same (0006 was committed after 0007 and 0008; migrations of
 * parallel work are independent of each other).
 */
export async function migrateToLatest(
  db: Kysely<Tables>,
  log: Logger,
  kindMigrations: Readonly<Record<string, Migration>> = {},
): Promise<void> {
  const { error, results } = await migratorOf(db, kindMigrations).migrateToLatest();
  // One line per migration is for whoever debugs an upgrade; an operator reads the summary.
  for (const result of results ?? []) {
    if (result.status === 'Success') log.debug({ migration: result.migrationName }, 'migration applied');
  }
  const failed = results?.find((result) => result.status === 'Error')?.migrationName;
  if (error)
    throw new Error(`migration ${failed ?? '(none: the migration table)'} failed: ${(error as Error).message ?? String(error)}`, {
      cause: error,
    });
  const applied = results?.filter((result) => result.status === 'Success').length ?? 0;
  if (applied > 0) log.info({ applied }, `database schema migrated (${applied} migrations applied)`);
}
