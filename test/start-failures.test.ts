/**
 * How the server starts and fails to start, as an operator sees it: `blockyard serve` as a child
 * process, its exit code, its stderr (one line naming the variable or the server, no stack trace), and
 * the database as it was before (nothing migrated, nothing written) whenever the start is refused.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, readFile, readdir, rm, stat } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { ApiClient } from './support/client.js';
import { createPostgresDatabase, skipUnless } from './support/databases.js';
import { TEST_MASTER_KEY } from './support/keys.js';
import { blockyardArgs } from './support/blockyard-command.js';

const OTHER_KEY = randomBytes(32).toString('base64');

interface Ended {
  code: number | null;
  stdout: string;
  stderr: string;
}

interface Running extends Ended {
  url: string;
  stop(): Promise<Ended>;
}

/** Only what an operator sets: nothing inherited from the test runner's BLOCKYARD_* variables. */
const envOf = (dataDir: string, extra: Record<string, string>) => ({
  PATH: process.env.PATH ?? '',
  HOME: process.env.HOME ?? '',
  BLOCKYARD_DATA_DIR: dataDir,
  BLOCKYARD_HOST: '127.0.0.1',
  BLOCKYARD_PORT: '0',
  ...extra,
});

/** Servers still running when the file ends (a failed assertion before `stop()`): killed, never left behind. */
const children = new Set<ChildProcess>();

/** `blockyard serve` until it listens (answers the running process) or ends (answers how). */
function serve(dataDir: string, extra: Record<string, string> = {}): Promise<Running | Ended> {
  const child = spawn(process.execPath, blockyardArgs(['serve']), { env: envOf(dataDir, extra) });
  children.add(child);
  child.once('exit', () => children.delete(child));
  const out = { stdout: '', stderr: '' };
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out.stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (out.stderr += chunk));
  const exited = new Promise<Ended>((resolve) => child.once('exit', (code) => resolve({ code, ...out })));
  return new Promise((resolve) => {
    const listening = () => {
      const url = /Blockyard listening on (https:\/\/localhost:\d+) .*\n/.exec(out.stdout)?.[1];
      if (url === undefined) return;
      child.stdout.off('data', listening);
      resolve({
        code: null,
        url,
        get stdout() {
          return out.stdout;
        },
        get stderr() {
          return out.stderr;
        },
        stop: () => {
          child.kill('SIGTERM');
          return exited;
        },
      });
    };
    child.stdout.on('data', listening);
    void exited.then(resolve);
  });
}

async function refused(dataDir: string, extra: Record<string, string>): Promise<Ended> {
  const result = await serve(dataDir, extra);
  if ('url' in result) {
    await result.stop();
    assert.fail(`the server started: ${result.stdout}`);
  }
  return result;
}

/** One line on stderr, no stack trace, naming `variable`. */
function assertOneLine(result: Ended, code: number, variable: string, says: RegExp): void {
  assert.equal(result.code, code, `exit code (stderr: ${result.stderr})`);
  const lines = result.stderr.split('\n').filter(Boolean);
  assert.equal(lines.length, 1, `one line on stderr, got:\n${result.stderr}`);
  assert.match(lines[0]!, new RegExp(`^blockyard: ${variable}: `));
  assert.match(lines[0]!, says);
  assert.doesNotMatch(result.stderr, /\n\s+at /, 'no stack trace');
}

const sha256 = async (file: string) =>
  createHash('sha256')
    .update(await readFile(file))
    .digest('hex');
const dataDirs: string[] = [];
const newDataDir = async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'blockyard-start-'));
  dataDirs.push(dir);
  return dir;
};

/** `/readyz`, trusting the certificate the server generated into its data directory. */
async function readyz(url: string, dataDir: string): Promise<unknown> {
  const client = new ApiClient(url, await readFile(path.join(dataDir, 'tls', 'cert.pem'), 'utf8'));
  try {
    return (await client.get('/readyz')).json;
  } finally {
    await client.close();
  }
}

after(async () => {
  for (const child of children) child.kill('SIGKILL');
  for (const dir of dataDirs) await rm(dir, { recursive: true, force: true });
});

describe('start failures: configuration is checked before anything is touched', () => {
  it('a bad setting: exit 2, one line naming it, no data directory made', async () => {
    const dataDir = path.join(await newDataDir(), 'not-yet');
    assertOneLine(
      await refused(dataDir, { BLOCKYARD_RUN_TIMEOUT_SECONDS: 'soon' }),
      2,
      'BLOCKYARD_RUN_TIMEOUT_SECONDS',
      /expected an integer/,
    );
    await assert.rejects(stat(dataDir), 'the data directory was not created');
  });

  for (const variable of ['BLOCKYARD_PORT', 'BLOCKYARD_METRICS_PORT']) {
    it(`${variable} in use: exit 5, one line naming it, before the database is created`, async () => {
      const dataDir = path.join(await newDataDir(), 'not-yet');
      const taken: Server = createServer();
      await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
      try {
        const port = String((taken.address() as { port: number }).port);
        assertOneLine(await refused(dataDir, { [variable]: port }), 5, variable, new RegExp(`127\\.0\\.0\\.1:${port} is in use`));
        await assert.rejects(stat(dataDir), 'nothing was written');
      } finally {
        taken.close();
      }
    });
  }

  it('debug level: the same line, then the details', async () => {
    const dataDir = await newDataDir();
    const result = await refused(dataDir, {
      BLOCKYARD_LOG_LEVEL: 'debug',
      BLOCKYARD_DATABASE_URL: 'postgres://postgres@127.0.0.1:1/nothing',
      BLOCKYARD_MASTER_KEY: TEST_MASTER_KEY,
    });
    assert.equal(result.code, 3);
    assert.match(result.stderr.split('\n')[0]!, /^blockyard: BLOCKYARD_DATABASE_URL: PostgreSQL at 127\.0\.0\.1:1 refuses connections/);
    assert.match(result.stderr, /ECONNREFUSED/, 'the cause follows at debug level');
  });
});

describe('start failures on PostgreSQL', { skip: skipUnless('postgres') }, () => {
  let database: { url: string; drop(): Promise<void> };
  const tables = async () => {
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      return (await client.query<{ n: string }>(`select count(*) as n from information_schema.tables where table_schema = 'public'`))
        .rows[0]!.n;
    } finally {
      await client.end();
    }
  };
  before(async () => {
    database = await createPostgresDatabase();
  });
  after(async () => {
    await database?.drop();
  });

  it('without BLOCKYARD_MASTER_KEY: exit 2 naming it, and the database has no table', async () => {
    assertOneLine(
      await refused(await newDataDir(), { BLOCKYARD_DATABASE_URL: database.url }),
      2,
      'BLOCKYARD_MASTER_KEY',
      /required with BLOCKYARD_DATABASE_URL/,
    );
    assert.equal(await tables(), '0');
  });

  it('a database that does not exist: exit 3, one line naming it and how to create it', async () => {
    const url = new URL(database.url);
    url.pathname = '/blockyard_no_such_database';
    const result = await refused(await newDataDir(), { BLOCKYARD_DATABASE_URL: url.toString(), BLOCKYARD_MASTER_KEY: TEST_MASTER_KEY });
    assertOneLine(result, 3, 'BLOCKYARD_DATABASE_URL', /has no database "blockyard_no_such_database": create it \(createdb /);
  });

  it('a port where no PostgreSQL listens: exit 3, one line naming host and port', async () => {
    const url = new URL(database.url);
    url.port = '1';
    assertOneLine(
      await refused(await newDataDir(), { BLOCKYARD_DATABASE_URL: url.toString(), BLOCKYARD_MASTER_KEY: TEST_MASTER_KEY }),
      3,
      'BLOCKYARD_DATABASE_URL',
      /at 127\.0\.0\.1:1 refuses connections/,
    );
  });

  it('an instance waiting for the migrations of another waits longer than the statement timeout, then starts', async () => {
    const fresh = await createPostgresDatabase();
    // The advisory lock Kysely's migrator takes (PostgresAdapter): held here as another instance migrating.
    const other = new pg.Client({ connectionString: fresh.url });
    await other.connect();
    try {
      await other.query('select pg_advisory_lock(3853314791062309107)');
      const waiting = serve(await newDataDir(), {
        BLOCKYARD_DATABASE_URL: fresh.url,
        BLOCKYARD_MASTER_KEY: TEST_MASTER_KEY,
        BLOCKYARD_DB_TIMEOUT_MS: '300',
      });
      const early = await Promise.race([waiting, new Promise<'waiting'>((resolve) => setTimeout(() => resolve('waiting'), 3000))]);
      assert.equal(early, 'waiting', `the start ended while the lock was held: ${JSON.stringify(early)}`);
      await other.query('select pg_advisory_unlock(3853314791062309107)');
      const started = await waiting;
      assert.ok('url' in started, started.stderr);
      await started.stop();
    } finally {
      await other.end();
      await fresh.drop();
    }
  });

  it('a master key that opens none of the stored keys: exit 4, and not a row changed; the explicit setting starts and seals anew', async () => {
    const dataDir = await newDataDir();
    const first = await serve(dataDir, { BLOCKYARD_DATABASE_URL: database.url, BLOCKYARD_MASTER_KEY: TEST_MASTER_KEY });
    assert.ok('url' in first, first.stderr);
    assert.deepEqual(await readyz(first.url, dataDir), { status: 'UP', database: 'UP', keyring: 'UP' });
    await first.stop();
    const snapshot = async () => {
      const client = new pg.Client({ connectionString: database.url });
      await client.connect();
      try {
        const rows = await client.query(
          `select (select json_agg(k order by name) from keyring k)::text as keyring, (select json_agg(s order by kid) from signing_keys s)::text as signing, (select count(*) from blockyard_migrations) as migrations`,
        );
        return rows.rows[0] as unknown;
      } finally {
        await client.end();
      }
    };
    const before = await snapshot();
    assertOneLine(
      await refused(dataDir, { BLOCKYARD_DATABASE_URL: database.url, BLOCKYARD_MASTER_KEY: OTHER_KEY }),
      4,
      'BLOCKYARD_MASTER_KEY',
      /opens none of the keys this database holds.*BLOCKYARD_ABANDON_SEALED_SECRETS=true/,
    );
    assert.deepEqual(await snapshot(), before, 'the database is as it was');

    const abandoned = await serve(dataDir, {
      BLOCKYARD_DATABASE_URL: database.url,
      BLOCKYARD_MASTER_KEY: OTHER_KEY,
      BLOCKYARD_ABANDON_SEALED_SECRETS: 'true',
    });
    assert.ok('url' in abandoned, abandoned.stderr);
    assert.deepEqual(await readyz(abandoned.url, dataDir), { status: 'UP', database: 'UP', keyring: 'ABANDONED' });
    await abandoned.stop();
    const again = await serve(dataDir, { BLOCKYARD_DATABASE_URL: database.url, BLOCKYARD_MASTER_KEY: OTHER_KEY });
    assert.ok('url' in again, `the new key opens the new keyring without the setting: ${again.stderr}`);
    assert.deepEqual(await readyz(again.url, dataDir), { status: 'UP', database: 'UP', keyring: 'UP' });
    await again.stop();
    assertOneLine(
      await refused(dataDir, { BLOCKYARD_DATABASE_URL: database.url, BLOCKYARD_MASTER_KEY: TEST_MASTER_KEY }),
      4,
      'BLOCKYARD_MASTER_KEY',
      /opens none/,
    );
  });
});

describe('a first start on SQLite, as an operator sees it', () => {
  let dataDir: string;
  let first: Ended;

  before(async () => {
    dataDir = await newDataDir();
    const running = await serve(dataDir);
    assert.ok('url' in running, running.stderr);
    assert.deepEqual(await readyz(running.url, dataDir), { status: 'UP', database: 'UP', keyring: 'UP' });
    first = await running.stop();
  });

  it('prints the generated admin key last, framed, after every log line; migrations are not logged one by one', () => {
    const lines = first.stdout.split('\n');
    const listening = lines.findIndex((line) => line.startsWith('Blockyard listening on'));
    const frame = lines.findIndex((line) => /^\+-+\+$/.test(line));
    assert.ok(listening >= 0 && frame > listening, first.stdout);
    const framed = lines.slice(frame, lines.indexOf(lines[frame]!, frame + 1) + 1);
    assert.ok(
      framed.length >= 5 &&
        framed.slice(1, -1).every((line) => line.startsWith('| ') && line.endsWith(' |') && line.length === framed[0]!.length),
      framed.join('\n'),
    );
    assert.match(framed.join('\n'), /client secret: +\S{20,}/);
    const before = lines.slice(0, frame).filter((line) => line.startsWith('{'));
    const logLinesAfterFrame = lines
      .slice(frame)
      .filter((line) => line.startsWith('{') && !line.includes('shutting down') && !line.includes('"request completed"'));
    assert.deepEqual(logLinesAfterFrame, [], "no line of the start logged after the key (the test's own /readyz request aside)");
    assert.ok(!before.some((line) => line.includes('"migration applied"')), 'no line per migration at the default level');
    assert.ok(
      before.some((line) => /database schema migrated \(\d+ migrations applied\)/.test(line)),
      'one summary line',
    );
    assert.equal(first.stderr, '');
  });

  it('writes the key to a file only its owner reads, saying to delete it', async () => {
    const file = path.join(dataDir, 'generated-admin-key.txt');
    assert.equal((await stat(file)).mode & 0o777, 0o600);
    const text = await readFile(file, 'utf8');
    const secret = /client secret: +(\S+)/.exec(first.stdout)![1]!;
    assert.ok(text.includes(secret));
    assert.match(text, /delete this file/);
  });

  it('a lost key file with sealed data: exit 4, no new key file, the database file unchanged', async () => {
    const { rename } = await import('node:fs/promises');
    await rename(path.join(dataDir, 'master.key'), path.join(dataDir, 'master.key.bak'));
    const digest = await sha256(path.join(dataDir, 'blockyard.db'));
    assertOneLine(await refused(dataDir, {}), 4, 'BLOCKYARD_MASTER_KEY', /master\.key is missing, but the database holds values sealed/);
    assertOneLine(await refused(dataDir, { BLOCKYARD_MASTER_KEY: OTHER_KEY }), 4, 'BLOCKYARD_MASTER_KEY', /opens none of the keys/);
    assert.ok(!(await readdir(dataDir)).includes('master.key'), 'no key was invented');
    assert.equal(await sha256(path.join(dataDir, 'blockyard.db')), digest);
    await rename(path.join(dataDir, 'master.key.bak'), path.join(dataDir, 'master.key'));
    const restarted = await serve(dataDir, { BLOCKYARD_PREVIOUS_MASTER_KEYS: OTHER_KEY });
    assert.ok('url' in restarted, restarted.stderr);
    assert.deepEqual(await readyz(restarted.url, dataDir), { status: 'UP', database: 'UP', keyring: 'ROTATING' });
    const ended = await restarted.stop();
    assert.doesNotMatch(ended.stdout, /client secret/, 'the key is announced once');
  });
});
