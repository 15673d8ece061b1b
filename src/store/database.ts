import { mkdirSync } from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresAdapter, PostgresDialect, sql, type Migration } from 'kysely';
import pg from 'pg';
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import { migrateToLatest } from './migrations/index.js';
import { databaseOpenFailure } from './open-failure.js';
import type { Tables } from './schema.js';
import { pipelinedPostgresDialect } from './pg-pipeline.js';
import { prepareStatements } from './pg-prepared.js';
import { readDirectly } from './compiled-queries.js';
import { assertSqliteWritable } from './sqlite-writable.js';
import { WalCheckpointer } from './sqlite-checkpointer.js';
import type { ConnectionUsage } from './connection-usage.js';
import { groupCommitDialect, type WalCheckpoints } from './sqlite-group-commit.js';
import { WalFile, WalSync } from './sqlite-wal-sync.js';
import { unitOfWorkDialect, type TransactionWaits } from './transaction.js';

export type DialectName = 'sqlite' | 'postgres';

/** Which database `db` (or a transaction on it) speaks to, for the few statements written per dialect. */
export const dialectOf = (db: Pick<Kysely<Tables>, 'getExecutor'>): DialectName =>
  db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';

/** One query layer (Kysely) over SQLite or PostgreSQL; repositories receive this. */
export interface Database {
  db: Kysely<Tables>;
  dialect: DialectName;
  /** Cheap round trip for readiness checks. */
  ping(): Promise<void>;
  /**
   * Resolves once every commit made so far is on disk. SQLite acknowledges a commit only after its
   * fsync, which runs after the commit (sqlite-wal-sync.ts): a reader that passes on what it read
   * to others (the event streams) waits for this first. PostgreSQL: at once.
   */
  durable(): Promise<void>;
  /** How the connections are used right now (PostgreSQL's pool, SQLite's writer). */
  usage(): ConnectionUsage;
  close(): Promise<void>;
}

const PG_UNAVAILABLE = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  '57P01',
  '57P02',
  '57P03',
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
  '53300',
]);

/** True for errors that mean "the database cannot be reached right now" (answered 503 + Retry-After). */
export function isDatabaseUnavailable(error: unknown): boolean {
  const e = error as { code?: string; message?: string } | undefined;
  if (!e || typeof e !== 'object') return false;
  if (e.code && PG_UNAVAILABLE.has(e.code)) return true;
  if (e.code && /^SQLITE_(BUSY|FULL|READONLY|IOERR|CANTOPEN)/.test(e.code)) return true;
  return /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error/i.test(e.message ?? '');
}

const codeOf = (error: unknown) => (error && typeof error === 'object' ? (error as { code?: string }).code : undefined);

/** A unique or primary-key constraint refused the write (the object exists already). */
export function isUniqueViolation(error: unknown): boolean {
  const code = codeOf(error);
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

/** A foreign key refused the write: a reference is missing, or a delete would leave one dangling. */
export function isForeignKeyViolation(error: unknown): boolean {
  const code = codeOf(error);
  return code === '23503' || code === 'SQLITE_CONSTRAINT_FOREIGNKEY';
}

export interface OpenOptions {
  /** Runs once the database answers, before any migration writes to it (the master key's check). */
  beforeMigrating?: (db: Kysely<Tables>) => Promise<unknown>;
  /** Told how long each transaction waited to begin (the metrics). */
  waits?: TransactionWaits;
  /** The migrations the kinds bring in their folders, applied with the service's own. */
  kindMigrations?: Readonly<Record<string, Migration>>;
}

/**
 * Connects, checks, and brings the schema up to date. Any failure closes what was opened and is a
 * StartFailure whose one line names the server or file and what to do (open-failure.ts).
 */
export async function openDatabase(config: Config, log: Logger, options: OpenOptions = {}): Promise<Database> {
  let database: Database | undefined;
  try {
    database = config.databaseUrl ? openPostgres(config, log, options.waits) : openSqlite(config, log, options.waits);
    await database.ping();
    await options.beforeMigrating?.(database.db);
    await migrate(config, database, log, options.kindMigrations);
    return database;
  } catch (error) {
    await database?.close().catch(() => undefined);
    throw databaseOpenFailure(error, config);
  }
}

/**
 * On PostgreSQL the migrations run on a connection of their own without the statement timeout of
 * requests: a migration rewriting a large table, or an instance waiting for the advisory lock while
 * another migrates, may take longer than a request ever should.
 */
async function migrate(
  config: Config,
  database: Database,
  log: Logger,
  kindMigrations?: Readonly<Record<string, Migration>>,
): Promise<void> {
  if (!config.databaseUrl) return migrateToLatest(database.db, log, kindMigrations);
  const pool = new pg.Pool({ connectionString: config.databaseUrl, max: 1, connectionTimeoutMillis: config.dbTimeoutMs });
  pool.on('error', (error) => log.warn({ err: error }, 'the migration connection failed'));
  const db = new Kysely<Tables>({ dialect: new PostgresDialect({ pool }) });
  try {
    await migrateToLatest(db, log, kindMigrations);
  } finally {
    await db.destroy();
  }
}

function openSqlite(config: Config, log: Logger, waits?: TransactionWaits): Database {
  mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
  const file = path.join(config.dataDir, 'blockyard.db');
  assertSqliteWritable(config.dataDir, file);
  const writer = new SQLite(file, { timeout: config.dbTimeoutMs });
  writer.pragma('journal_mode = WAL');
  // A commit is on disk before the response that acknowledges it (DESIGN.md, "durable"): NORMAL lets
  // the commit return once the WAL is written, and the group commit acknowledges after the WAL's
  // fsync, which `walSync` runs off the event loop (what FULL would do inside the commit, on it).
  writer.pragma('synchronous = NORMAL');
  writer.pragma('foreign_keys = ON');
  // Checkpoints run on a worker thread (sqlite-checkpointer.ts), not inside a commit on the event loop.
  writer.pragma('wal_autocheckpoint = 0');
  // Each request writes inside a savepoint of its group's transaction (sqlite-group-commit.ts), and a
  // savepoint keeps the original of every page it changes; past 64 KiB (a create touches some 40
  // pages: one per index) SQLite spills that journal to a temporary file, and a block insert took
  // 100+ µs instead of 30. In memory it is a request's pages, freed at its release.
  writer.pragma('temp_store = MEMORY');
  const reader = new SQLite(file, { readonly: true, timeout: config.dbTimeoutMs });
  // Reads are most of the traffic: 32 MB of pages (not the default 16 MB) keep a large catalogue's
  // indexes in memory. 64 MB read no faster at 1 000 000 blocks (its leaves are read at random either
  // way) and held 32 MB more once full (docs/benchmarks.md).
  reader.pragma('cache_size = -32768');
  const checkpoints: WalCheckpoints = {
    checkpointer: new WalCheckpointer(file, config.dbTimeoutMs),
    // Often, so that each checkpoint copies little and the WAL stays small (bench/checkpoint-ab.ts);
    // a restart, which holds the writes, about every 16 MB of WAL.
    intervalMs: 100,
    restartFrames: 4096,
    onError: (error) => log.warn({ err: error }, 'SQLite WAL checkpoint failed'),
  };
  const walSync = new WalSync(new WalFile(`${file}-wal`));
  const dialect = groupCommitDialect(writer, reader, { checkpoints, walSync });
  const db = new Kysely<Tables>({ dialect: unitOfWorkDialect(dialect, waits) });
  readDirectly(db, dialect.read);
  return {
    db,
    dialect: 'sqlite',
    async ping() {
      reader.prepare('select 1').get();
    },
    durable: () => walSync.settled(),
    usage: () => dialect.usage(),
    async close() {
      await db.destroy();
    },
  };
}

/** How long a PostgreSQL transaction may sit idle before the server ends it: a minute at the default database timeout. */
export const idleInTransactionTimeoutMs = (config: Pick<Config, 'dbTimeoutMs'>) => 12 * config.dbTimeoutMs;

function openPostgres(config: Config, log: Logger, waits?: TransactionWaits): Database {
  const pool = new pg.Pool({
    connectionString: config.databaseUrl,
    max: config.dbPoolSize,
    connectionTimeoutMillis: config.dbTimeoutMs,
    statement_timeout: config.dbTimeoutMs,
    query_timeout: config.dbTimeoutMs + 1000,
    // The service's transactions are never idle between statements for more than a moment; one that
    // is (a bug, a stalled process) would hold its locks, a pooled connection and, once it appended
    // events, every event stream behind its numbers (SettledLog). PostgreSQL ends it.
    idle_in_transaction_session_timeout: idleInTransactionTimeoutMs(config),
    idleTimeoutMillis: 30_000,
    // A transaction's statements whose answers are not waited for go with the next one (pg-pipeline.ts).
    pipeline: true,
  });
  // A client losing its connection must not crash the process, idle (pool 'error') or checked out
  // between queries (the client's own 'error'): its query fails (503) and the next one reconnects.
  pool.on('error', (error) => log.warn({ err: error }, 'idle PostgreSQL connection failed'));
  const statementNames = new Map<string, string>();
  pool.on('connect', (client) => {
    client.on('error', (error) => log.warn({ err: error }, 'PostgreSQL connection failed'));
    prepareStatements(client, statementNames);
  });
  const db = new Kysely<Tables>({ dialect: unitOfWorkDialect(pipelinedPostgresDialect(pool), waits) });
  return {
    db,
    dialect: 'postgres',
    async ping() {
      await sql`select 1`.execute(db);
    },
    durable: () => Promise.resolve(),
    usage: () => ({ max: config.dbPoolSize, open: pool.totalCount, inUse: pool.totalCount - pool.idleCount, waiting: pool.waitingCount }),
    async close() {
      await db.destroy();
    },
  };
}
