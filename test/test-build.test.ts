/**
 * The test run's compiled files (scripts/test-build.mjs) behave as the sources do under tsx: each
 * module keeps its own import.meta.url (paths found from a module's location, such as the console
 * bundle or package.json, stay right), packages stay imports from node_modules, and a dynamic import
 * stays lazy (the CLI loads only the command it runs). Built from a small project of the same layout.
 */
import assert from 'node:assert/strict';
import { realpathSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildForTests } from '../scripts/test-build.mjs';

const checkout = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');

const SOURCES: Record<string, string> = {
  'src/lib/where.ts':
    "export const where = (): string => import.meta.url;\nexport const packageFile = new URL('../../package.json', import.meta.url).pathname;\n",
  'src/cli/lazy.ts': "export const lazy = 'loaded on demand';\n",
  'src/main.ts': [
    "import { createRequire } from 'node:module';",
    "import { where, packageFile } from './lib/where.js';",
    'export const main = import.meta.url;',
    "export const text = 'import.meta.url names the module';",
    'export const lib = where();',
    'export const packageJson = packageFile;',
    "export const semver = createRequire(import.meta.url).resolve('semver');",
    "export const later = async (): Promise<string> => (await import('./cli/lazy.js')).lazy;",
    '',
  ].join('\n'),
};

describe('the test run compiles files that behave as their sources', () => {
  let project: string;
  let built: Map<string, string>;

  before(async () => {
    // Inside the checkout, as the runner's own build: packages resolve from its node_modules.
    await mkdir(path.join(checkout, 'node_modules', '.cache', 'blockyard'), { recursive: true });
    project = await mkdtemp(path.join(checkout, 'node_modules', '.cache', 'blockyard', 'test-build-'));
    for (const [name, text] of Object.entries(SOURCES)) {
      await mkdir(path.dirname(path.join(project, name)), { recursive: true });
      await writeFile(path.join(project, name), text);
    }
    await writeFile(path.join(project, 'package.json'), '{ "type": "module" }\n');
    built = (await buildForTests(project, ['src/main.ts'], path.join(project, 'build'))).compiled;
  });
  after(() => rm(project, { recursive: true, force: true }));

  it('keeps each module’s own import.meta.url, and strings as they are', async () => {
    const main = await import(pathToFileURL(built.get('src/main.ts')!).href);
    // Sources by their real paths (node_modules may be a link in a second working tree).
    const real = realpathSync(project);
    assert.equal(main.main, pathToFileURL(path.join(real, 'src', 'main.ts')).href);
    assert.equal(main.text, 'import.meta.url names the module', 'text in a string is left alone');
    assert.equal(main.lib, pathToFileURL(path.join(real, 'src', 'lib', 'where.ts')).href);
    assert.equal(main.packageJson, path.join(real, 'package.json'));
    assert.equal(main.semver, realpathSync(path.join(checkout, 'node_modules', 'semver', 'index.js')));
  });

  it('keeps a dynamic import lazy: its code is a file of its own, loaded when asked for', async () => {
    const entry = await readFile(built.get('src/main.ts')!, 'utf8');
    assert.ok(!entry.includes('loaded on demand'), 'the lazily imported module is not in the entry');
    const files = await readdir(path.join(project, 'build'));
    assert.ok(
      files.some((name) => name.startsWith('lazy-') && name.endsWith('.mjs')),
      `a chunk of its own: ${files.join(', ')}`,
    );
    const main = await import(pathToFileURL(built.get('src/main.ts')!).href);
    assert.equal(await main.later(), 'loaded on demand');
  });
});
