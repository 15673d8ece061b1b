#!/usr/bin/env node
// Runs every test file (unit tests beside the code in src/, black-box suites in test/) with Node's
// test runner. Each file is its own process; two run at a time on a 2-core machine.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

function find(dir) {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return name === 'node_modules' ? [] : find(full);
    return name.endsWith('.test.ts') ? [full] : [];
  });
}

/**
 * How long each file took when it last ran here (milliseconds by path), kept out of the repository.
 * The runner starts files in the order given, so the longest go first and the two slots finish
 * together rather than one running a long file alone at the end. Files without a record (a fresh
 * clone, a new file) go before all others: the black-box suites in name order, then the unit tests
 * beside the code, which take seconds and so fill the end.
 */
const DURATIONS = path.join('node_modules', '.cache', 'blockyard', 'test-durations.json');
const readJson = (file) => {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return {};
  }
};
const known = readJson(DURATIONS);

const filters = process.argv.slice(2);
const files = ['src', 'test']
  .flatMap(find)
  .filter((file) => filters.length === 0 || filters.some((f) => file.includes(f)))
  .sort()
  .sort((a, b) => (known[b] ?? Infinity) - (known[a] ?? Infinity) || Number(a.startsWith('src')) - Number(b.startsWith('src')));
if (files.length === 0) {
  console.error('no test files matched');
  process.exit(1);
}
const scratch = mkdtempSync(path.join(tmpdir(), 'blockyard-test-run-'));
const measured = path.join(scratch, 'durations.json');
const result = spawnSync(
  process.execPath,
  [
    '--import',
    'tsx',
    '--test',
    '--test-concurrency=2',
    '--test-timeout=300000',
    '--test-reporter=spec',
    '--test-reporter-destination=stdout',
    '--test-reporter=./scripts/test-durations-reporter.mjs',
    `--test-reporter-destination=${measured}`,
    ...files,
  ],
  { stdio: 'inherit', env: { ...process.env, NODE_ENV: 'test' } },
);
const cwd = process.cwd();
for (const [file, ms] of Object.entries(readJson(measured))) known[path.relative(cwd, file)] = Math.round(ms);
mkdirSync(path.dirname(DURATIONS), { recursive: true });
writeFileSync(DURATIONS, `${JSON.stringify(known, null, 1)}\n`);
rmSync(scratch, { recursive: true, force: true });
process.exit(result.status ?? 1);
