/**
 * The lint step that keeps kind folders out of import loops (scripts/check-kind-cycles.mjs): it finds a
 * loop through a type-only import two folders deep, names the lines behind it, and passes the real tree.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { kindCycles, kindEdges } from '../scripts/check-kind-cycles.mjs';

const checkout = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const script = path.join(checkout, 'scripts', 'check-kind-cycles.mjs');

async function tree(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'blockyard-kinds-'));
  for (const [name, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, name)), { recursive: true });
    await writeFile(path.join(dir, name), text);
  }
  return dir;
}

describe('the kind-folder cycle check', () => {
  const made: string[] = [];
  after(() => Promise.all(made.map((dir) => rm(dir, { recursive: true, force: true }))));

  it('finds a loop through a type-only import in a subfolder, and names the import lines', async () => {
    const dir = await tree({
      'a/service.ts': "import { b } from '../b/model.js';\nexport const a = b;\n",
      'b/model.ts': "export const b = 1;\nimport type { C } from '../c/wire/v1.js';\nexport type B = C;\n",
      'c/wire/v1.ts': "import type { A } from '../../a/service.js';\nexport type C = A;\n",
      'd/kind.ts': "import { a } from '../a/service.js';\nimport { shared } from '../shared.js';\nexport const d = [a, shared];\n",
      'shared.ts': "import { d } from './d/kind.js';\nexport const shared = d;\n",
    });
    made.push(dir);
    assert.deepEqual(kindCycles(kindEdges(dir)), [['a', 'b', 'c']]);
    const run = spawnSync(process.execPath, [script, dir], { encoding: 'utf8' });
    assert.equal(run.status, 1);
    assert.match(run.stderr, /kind folders in an import cycle: a, b, c/);
    assert.match(run.stderr, /c\/wire\/v1\.ts → \.\.\/\.\.\/a\/service\.js/);
  });

  it('passes kinds that use each other one way, and files beside the folders', async () => {
    const dir = await tree({
      'a/service.ts': "import { b } from '../b/model.js';\nexport const a = b;\n",
      'b/model.ts': "import { root } from '../root.js';\nexport const b = root;\n",
      'root.ts': "import { a } from './a/service.js';\nexport const root = 1;\nexport { a };\n",
    });
    made.push(dir);
    assert.deepEqual(kindCycles(kindEdges(dir)), []);
    assert.equal(spawnSync(process.execPath, [script, dir], { encoding: 'utf8' }).status, 0);
  });

  it('passes the kinds of this tree', () => {
    assert.deepEqual(kindCycles(kindEdges(path.join(checkout, 'src', 'kinds'))), []);
  });
});
