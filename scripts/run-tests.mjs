#!/usr/bin/env node
// Runs every test file (unit tests beside the code in src/, black-box suites in test/) with Node's
// test runner, two processes at a time on a 2-core machine.
//
//   node scripts/run-tests.mjs [--quick] [--list] [<part of a path> ...]
//
// --quick: the edit loop's lane (`npm run test:quick`): every unit test in src/ and the black-box files
// test/quick-lane.json lists, on SQLite only (BLOCKYARD_TEST_DATABASES=sqlite). --list: print the
// selected files instead of running them.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { buildForTests, MAIN_SOURCE } from './test-build.mjs';

function find(dir) {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return name === 'node_modules' ? [] : find(full);
    return name.endsWith('.test.ts') ? [full] : [];
  });
}

const args = process.argv.slice(2);
const quick = args.includes('--quick');
const listOnly = args.includes('--list');
const filters = args.filter((arg) => !arg.startsWith('--'));
/** The run's test servers copy one migrated PostgreSQL database of this name (`migratedTemplate`, test/support/service-database.ts), dropped at the end. */
const template = `blockyard_template_${randomBytes(6).toString('hex')}`;
const env = {
  ...process.env,
  NODE_ENV: 'test',
  BLOCKYARD_TEST_POSTGRES_TEMPLATE: template,
  ...(quick ? { BLOCKYARD_TEST_DATABASES: 'sqlite' } : {}),
};

/**
 * How long each file took when it last ran here (milliseconds by path), kept out of the repository.
 * The runner starts processes in the order given, so the longest go first and the two slots finish
 * together rather than one running a long file alone at the end. Files without a record (a fresh
 * clone, a new file) go before all others: the black-box suites in name order, then the unit tests
 * beside the code, which take seconds and so fill the end. A file on SQLite alone takes about half
 * its time on both databases: each selection of databases (BLOCKYARD_TEST_DATABASES) keeps its own record.
 */
const databases = env.BLOCKYARD_TEST_DATABASES?.split(',')
  .map((name) => name.trim())
  .filter(Boolean)
  .sort()
  .join('-');
const CACHE = path.join('node_modules', '.cache', 'blockyard');
const DURATIONS = path.join(CACHE, `test-durations${databases ? `.${databases}` : ''}.json`);
const readJson = (file) => {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return {};
  }
};
const known = readJson(DURATIONS);

const quickLane = new Set(Object.keys(readJson(path.join('test', 'quick-lane.json')).files ?? {}));
const isUnit = (file) => file.startsWith(`src${path.sep}`);
const inLane = (file) => !quick || isUnit(file) || quickLane.has(file.split(path.sep).join('/'));
const files = ['src', 'test']
  .flatMap(find)
  .filter(inLane)
  .filter((file) => filters.length === 0 || filters.some((f) => file.includes(f)))
  .sort();
if (files.length === 0) {
  console.error('no test files matched');
  process.exit(1);
}
if (listOnly) {
  process.stdout.write(`${files.join('\n')}\n`);
  process.exit(0);
}

/**
 * The unit tests beside the code run together in one process, through an entry module that imports
 * them all: together they take seconds, but each file in a process of its own paid a second or more
 * to start Node with tsx and load its imports (68 files: 100 s against 36 s in one process, on a
 * loaded machine). They touch no port and no shared file; the runner still reports each test under
 * its own file, so their durations are recorded per file as before. The entry registers tsx itself:
 * the runner's processes run without it.
 */
// Inside the project, so that the compiled files (and the unit tests' entry) import packages from its node_modules.
mkdirSync(CACHE, { recursive: true });
const scratch = mkdtempSync(path.join(CACHE, 'run-'));
const units = files.filter(isUnit);
const unitEntry = path.join(scratch, 'unit-tests.test.mjs');
if (units.length > 0) {
  const imports = units.map((file) => `await import(${JSON.stringify(pathToFileURL(path.resolve(file)).href)});\n`);
  writeFileSync(unitEntry, `import { register } from 'tsx/esm/api';\nregister();\n${imports.join('')}`);
}

/**
 * The black-box files, and the server that some of them start as a child process (`blockyard …`,
 * test/support/blockyard-command.ts), each compiled into one module for this run
 * (scripts/test-build.mjs): tsx's loading cost is paid by none of those processes.
 */
const blackBox = files.filter((file) => !isUnit(file));
const { compiled } = await buildForTests(process.cwd(), [...blackBox, MAIN_SOURCE], path.join(scratch, 'build')).catch((error) => {
  rmSync(scratch, { recursive: true, force: true });
  throw error;
});
env.BLOCKYARD_TEST_MAIN = compiled.get(MAIN_SOURCE);
const sourceOf = new Map([...compiled].map(([source, file]) => [file, source]));

const duration = (file) =>
  file === unitEntry ? units.reduce((sum, unit) => sum + (known[unit] ?? 0), 0) || undefined : known[sourceOf.get(file) ?? file];
const processes = [...blackBox.map((file) => compiled.get(file)), ...(units.length > 0 ? [unitEntry] : [])].sort(
  (a, b) => (duration(b) ?? Infinity) - (duration(a) ?? Infinity) || Number(a === unitEntry) - Number(b === unitEntry),
);

const measured = path.join(scratch, 'durations.json');
const result = spawnSync(process.execPath, ['--enable-source-maps', path.join('scripts', 'run-in-order.mjs'), measured, ...processes], {
  stdio: 'inherit',
  env,
});
const cwd = process.cwd();
for (const [file, ms] of Object.entries(readJson(measured))) known[sourceOf.get(file) ?? path.relative(cwd, file)] = Math.round(ms);
mkdirSync(path.dirname(DURATIONS), { recursive: true });
writeFileSync(DURATIONS, `${JSON.stringify(known, null, 1)}\n`);
rmSync(scratch, { recursive: true, force: true });
await dropTemplate();
process.exit(result.status ?? 1);

/** The run's template, if one of its processes built it (nothing to do where PostgreSQL is not reachable). */
async function dropTemplate() {
  const client = new pg.Client({ connectionString: env.BLOCKYARD_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres' });
  try {
    await client.connect();
    await client.query(`drop database if exists ${template} with (force)`);
  } catch {
    // not reachable: nothing was built there
  } finally {
    await client.end().catch(() => undefined);
  }
}
