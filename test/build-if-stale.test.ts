/**
 * `npm start` builds only what is older than its sources (scripts/build-if-stale.mjs, its prestart):
 * an unchanged checkout starts at once, a changed source or a missing output builds again. Run on a
 * small project of the same layout (the real scripts and tsconfigs, a few sources) so that each build
 * takes a second or two, in a directory of its own: the checkout's dist/ is not touched.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readFile, rm, stat, symlink, unlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const checkout = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const SCRIPT = 'scripts/build-if-stale.mjs';

/** What one run of the script said, and how it ended. */
function build(project: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [path.join(project, SCRIPT)], { cwd: project }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code) : 0, stdout, stderr }),
    );
  });
}

const SOURCES: Record<string, string> = {
  'src/main.ts': "import { greeting } from './lib/greeting.js';\nprocess.stdout.write(greeting);\n",
  'src/lib/greeting.ts': "export const greeting = 'hello\\n';\n",
  'src/lib/greeting.test.ts': "import './greeting.js';\n",
  'src/console/main.tsx': "document.title = 'console';\nexport {};\n",
  'src/console/index.html': '<!doctype html><title>console</title>\n',
  'src/console/styles.css': 'body { margin: 0; }\n',
  'package.json': '{ "name": "tiny", "private": true, "type": "module" }\n',
  'package-lock.json': '{ "name": "tiny", "lockfileVersion": 3, "packages": {} }\n',
};
const COPIED = ['tsconfig.json', 'tsconfig.build.json', 'src/console/tsconfig.json', 'scripts/build-console.mjs', SCRIPT];
const OUTPUTS = ['dist/main.js', 'dist/lib/greeting.js', 'dist/console/app.js', 'dist/console/app.css', 'dist/console/index.html'];

describe('npm start builds only when the sources changed', () => {
  let project: string;
  const file = (name: string) => path.join(project, name);
  const mtimes = async () =>
    Object.fromEntries(await Promise.all(OUTPUTS.map(async (name) => [name, (await stat(file(name))).mtimeMs] as const)));
  const touch = (name: string) => utimes(file(name), new Date(), new Date());

  before(async () => {
    project = await mkdtemp(path.join(tmpdir(), 'blockyard-build-'));
    for (const name of [...Object.keys(SOURCES), ...COPIED]) await mkdir(path.dirname(file(name)), { recursive: true });
    for (const [name, text] of Object.entries(SOURCES)) await writeFile(file(name), text);
    for (const name of COPIED) await copyFile(path.join(checkout, name), file(name));
    await symlink(path.join(checkout, 'node_modules'), file('node_modules'));
  });
  after(() => rm(project, { recursive: true, force: true }));

  it('is what npm start runs first', async () => {
    const { scripts } = JSON.parse(await readFile(path.join(checkout, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    assert.equal(scripts.prestart, `node ${SCRIPT}`);
  });

  it('builds the server and the console when dist/ is missing, and nothing the second time', async () => {
    const first = await build(project);
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stdout, /build: server: dist\/\S+ is missing: building/);
    assert.match(first.stdout, /build: console: dist\/console\/\S+ is missing: building/);
    const built = await mtimes();

    const second = await build(project);
    assert.equal(second.code, 0, second.stderr);
    assert.equal(second.stdout, 'build: dist/ is up to date with the sources\n');
    assert.deepEqual(await mtimes(), built, 'nothing in dist/ was written again');
  });

  it('builds only the server when a tsconfig changed, nothing when a test changed', async () => {
    await touch('src/lib/greeting.test.ts');
    assert.equal((await build(project)).stdout, 'build: dist/ is up to date with the sources\n');

    const before = await mtimes();
    await touch('tsconfig.build.json');
    const result = await build(project);
    assert.equal(result.stdout, 'build: server: tsconfig.build.json changed since it was built: building\n');
    const now = await mtimes();
    assert.ok(now['dist/main.js']! > before['dist/main.js']!, 'the server was built again');
    assert.equal(now['dist/console/app.js'], before['dist/console/app.js'], 'the console was not');
  });

  it('builds both when a source of both changed, and the console when one of its outputs is gone', async () => {
    await touch('src/lib/greeting.ts');
    const changed = await build(project);
    assert.match(
      changed.stdout,
      /^build: server: src\/lib\/greeting\.ts changed since it was built: building\nbuild: console: src\/lib\/greeting\.ts changed/,
    );

    await unlink(file('dist/console/app.css'));
    assert.equal((await build(project)).stdout, 'build: console: dist/console/app.css is missing: building\n');
    assert.equal((await build(project)).stdout, 'build: dist/ is up to date with the sources\n');
  });

  it('fails when the build fails, and tries again at the next start', async () => {
    await writeFile(file('src/main.ts'), `${await readFile(file('src/main.ts'), 'utf8')}const wrong: number = 'text';\n`);
    const failed = await build(project);
    assert.equal(failed.code, 1);
    assert.match(failed.stderr, /build: server: the build failed/);
    const again = await build(project);
    assert.equal(again.code, 1, 'a failed build is not taken for an up-to-date one');
  });
});
