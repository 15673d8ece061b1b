import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { KindManifest } from './manifest.js';
import { KINDS } from './registry.js';
import { relationsOf } from './relations.js';

const kindsDir = path.dirname(fileURLToPath(import.meta.url));
const checkout = path.join(kindsDir, '..', '..');
const duplicates = (values: readonly string[]) => values.filter((value, index) => values.indexOf(value) !== index);

describe('the registry', () => {
  it('lists every kind folder’s manifest once', async () => {
    const folders = readdirSync(kindsDir, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && existsSync(path.join(kindsDir, entry.name, 'kind.ts')))
      .map((entry) => entry.name);
    const declared: KindManifest[] = [];
    for (const folder of folders) {
      const module = (await import(`./${folder}/kind.js`)) as Record<string, unknown>;
      declared.push(
        ...Object.values(module).filter((value): value is KindManifest => typeof value === 'object' && value !== null && 'build' in value),
      );
    }
    assert.deepEqual(declared.map((kind) => kind.name).sort(), KINDS.map((kind) => kind.name).sort());
    assert.deepEqual(duplicates(KINDS.map((kind) => kind.name)), []);
  });

  it('gives every collection path, index relation, CLI name and event title to one kind', () => {
    const resources = KINDS.flatMap((kind) => kind.resources);
    assert.deepEqual(duplicates(resources.map((resource) => resource.path)), []);
    assert.deepEqual(duplicates(relationsOf(KINDS).map((relation) => relation.rel)), []);
    assert.deepEqual(duplicates(resources.flatMap((resource) => (resource.cli ? [resource.codecs.kind] : []))), []);
    assert.deepEqual(duplicates(KINDS.flatMap((kind) => Object.values(kind.events ?? {}).map((event) => event.title))), []);
  });

  it('has references only to kinds that answer for them, and tables of its kinds', () => {
    const referenced = new Set(KINDS.flatMap((kind) => (kind.references ?? []).map((reference) => reference.to)));
    // Each referenced kind's deletion asks the graph under this name (`holding`, `cascade`, `detach`, or a CRUD strategy's `reference`).
    const sources = readdirSync(kindsDir, { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
      .map((file) => readFileSync(path.join(kindsDir, file), 'utf8'))
      .join('\n');
    for (const name of referenced)
      assert.match(
        sources,
        new RegExp(`(holding\\(|cascade\\(|detach\\(|reference: )[^\\n]*'${name}'`),
        `no kind's deletion asks for ${name}`,
      );
  });

  it('is described by docs/architecture.md: every field of the manifest is named there', () => {
    const contract = readFileSync(path.join(kindsDir, 'manifest.ts'), 'utf8');
    const body = contract.slice(
      contract.indexOf('export interface KindManifest'),
      contract.indexOf('\n}\n', contract.indexOf('export interface KindManifest')),
    );
    const fields = [...body.matchAll(/^ {2}(?:readonly )?(\w+)\??[(:]/gm)].map((match) => match[1]!);
    assert.ok(fields.length >= 10, `fields found: ${fields.join(', ')}`);
    const architecture = readFileSync(path.join(checkout, 'docs', 'architecture.md'), 'utf8');
    for (const field of fields)
      assert.match(architecture, new RegExp(`\`${field}[\`(]`), `docs/architecture.md does not name the manifest's ${field}`);
  });
});
