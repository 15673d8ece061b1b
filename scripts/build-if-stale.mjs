#!/usr/bin/env node
// Run by `npm start` before the server: builds the server (tsc into dist/) and the web console
// (dist/console/) only when one of their sources changed since they were built, or an output is
// missing, so an unchanged checkout starts at once. Sources and outputs are compared by mtime.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, utimesSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const at = (...parts) => path.join(root, ...parts);
const relative = (file) => path.relative(root, file);

/** Every file below `dir` (none when it does not exist). */
function walk(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? walk(full) : [full];
  });
}

const isTest = (file) => file.endsWith('.test.ts');
const inConsole = (file) => file.startsWith(at('src', 'console') + path.sep);
const sources = walk(at('src')).filter((file) => !isTest(file));
// A different dependency set or compiler can change either build.
const shared = [at('package.json'), at('package-lock.json')];

const targets = [
  {
    name: 'server',
    // What tsconfig.build.json compiles: src without the console and the tests, one .js per .ts.
    inputs: [...sources.filter((file) => !inConsole(file)), at('tsconfig.json'), at('tsconfig.build.json'), ...shared],
    outputs: sources
      .filter((file) => !inConsole(file) && file.endsWith('.ts') && !file.endsWith('.d.ts'))
      .map((file) => at('dist', path.relative(at('src'), file).replace(/\.ts$/, '.js'))),
    command: [createRequire(import.meta.url).resolve('typescript/bin/tsc'), '-p', at('tsconfig.build.json')],
  },
  {
    name: 'console',
    // The console imports a few modules from outside src/console (its permissions): all of src counts.
    inputs: [...sources, at('tsconfig.json'), at('scripts', 'build-console.mjs'), ...shared],
    outputs: ['app.js', 'app.css', 'index.html'].map((name) => at('dist', 'console', name)),
    command: [at('scripts', 'build-console.mjs')],
  },
];

const mtime = (file) => statSync(file).mtimeMs;

/** Why the target must be built, or undefined when its outputs are newer than every source. */
function staleness({ inputs, outputs }) {
  const missing = outputs.find((file) => !existsSync(file));
  if (missing) return `${relative(missing)} is missing`;
  const oldest = Math.min(...outputs.map(mtime));
  const changed = inputs.find((file) => existsSync(file) && mtime(file) > oldest);
  return changed ? `${relative(changed)} changed since it was built` : undefined;
}

let built = 0;
for (const target of targets) {
  const reason = staleness(target);
  if (reason === undefined) continue;
  process.stdout.write(`build: ${target.name}: ${reason}: building\n`);
  const startedAt = new Date();
  const result = spawnSync(process.execPath, target.command, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    process.stderr.write(`build: ${target.name}: the build failed (exit ${result.status ?? result.signal}); nothing is started\n`);
    // A failed tsc still writes its output: dated back so that the next start builds it again.
    for (const file of target.outputs) if (existsSync(file)) utimesSync(file, 0, 0);
    process.exit(1);
  }
  // Dated at the build's start: a source saved while it ran is newer, and the next start builds again.
  for (const file of target.outputs) utimesSync(file, startedAt, startedAt);
  built += 1;
}
if (built === 0) process.stdout.write('build: dist/ is up to date with the sources\n');
