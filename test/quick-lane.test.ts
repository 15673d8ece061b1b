/**
 * The quick lane (`npm run test:quick`) as test/quick-lane.json defines it: every unit test beside
 * the code, the listed black-box files and nothing else, every kind's routes tried by one of them,
 * and none of the suites that make `npm test` long (crash, kill, browser, load and the like).
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, it } from 'node:test';
import { KINDS } from '../src/kinds/registry.js';

const lane = JSON.parse(readFileSync('test/quick-lane.json', 'utf8')) as { files: Record<string, string> };
const listed = Object.keys(lane.files);

function testFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.posix.join(dir, name);
    if (statSync(full).isDirectory()) return testFiles(full);
    return name.endsWith('.test.ts') ? [full] : [];
  });
}

/** A listed file's text and that of the test/support modules it imports: where its routes are named. */
function withSupport(file: string): string {
  const text = readFileSync(file, 'utf8');
  const support = [...text.matchAll(/from '\.\/support\/([\w-]+)\.js'/g)].map((match) =>
    readFileSync(`test/support/${match[1]}.ts`, 'utf8'),
  );
  return [text, ...support].join('\n');
}

describe('the quick lane', () => {
  it('lists black-box test files that exist, each with the reason it is in', () => {
    assert.ok(listed.length > 0);
    for (const [file, reason] of Object.entries(lane.files)) {
      assert.match(file, /^test\/[\w/-]+\.test\.ts$/, `${file}: a test file under test/`);
      assert.ok(existsSync(file), `${file} is listed but does not exist`);
      assert.ok(reason.trim().length > 0, `${file}: no reason given`);
    }
  });

  it('runs every unit test in src/ and the listed files, nothing else', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, ['scripts/run-tests.mjs', '--quick', '--list']);
    const selected = stdout
      .split('\n')
      .filter((line) => line !== '')
      .map((file) => file.split(path.sep).join('/'));
    assert.deepEqual([...selected].sort(), [...testFiles('src'), ...listed].sort());
  });

  it('leaves out the suites that make the full run long: crash, kill, browser, load, several instances, upgrades', () => {
    const heavy = /crash|chaos|kill|console|event-load|overload|slow-clients|outage|^instances|upgrade|^cli/;
    const heavySupport = /from '\.\/support\/(chaos|browser|console|upgrades|private-postgres|cli)\.js'/;
    for (const file of listed) {
      assert.doesNotMatch(path.basename(file), heavy, file);
      assert.doesNotMatch(readFileSync(file, 'utf8'), heavySupport, file);
    }
  });

  it('tries every kind: each collection path is named by a listed file or the support it imports', () => {
    const texts = listed.map(withSupport);
    // Suites build some paths from a base (`${BASE}/meshlocations`): the part after /api/meshobjects/ names the kind.
    const untried = KINDS.flatMap((kind) => kind.resources.map((resource) => resource.path))
      .map((route) => route.replace(/^\/api\/(meshobjects\/)?/, ''))
      .filter((kind) => !texts.some((text) => text.includes(kind)));
    assert.deepEqual(untried, [], 'kinds no quick-lane file tries');
  });
});
