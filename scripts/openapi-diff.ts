/**
 * Compares this server's OpenAPI document with the original product's:
 *
 *   npm run openapi:diff [-- --url https://host:port --ca cert.pem] [--reference file.json] [--details]
 *
 * Without `--url`, a server is started in this process on a temporary SQLite directory and its
 * `GET /api/openapi.json` read. The reference is the repository's copy of the original OpenAPI
 * (test/reference/original-openapi.json). Printed: the operations in both, only here and only there,
 * and per operation in both what differs: query parameters, answer statuses, media types (the
 * original's `meshcloud` vendor segment), and the property paths of the answer schemas (three levels
 * deep). `--details` lists every property difference, otherwise each operation's counts.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import pino from 'pino';
import { loadConfig } from '../src/config.js';
import { startServer } from '../src/server.js';
import { ApiClient } from '../test/support/client.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const METHODS = ['get', 'post', 'put', 'patch', 'delete'];
/** How deep answer schemas are compared (`spec.inputs.value` is three). */
const DEPTH = 3;

const { values: args } = parseArgs({
  options: {
    url: { type: 'string' },
    ca: { type: 'string' },
    reference: { type: 'string', default: path.join(ROOT, 'test/reference/original-openapi.json') },
    details: { type: 'boolean', default: false },
  },
});

async function servedDocument(): Promise<Json> {
  if (args.url) {
    const client = new ApiClient(args.url, args.ca ? await readFile(args.ca, 'utf8') : '');
    try {
      return (await client.get('/api/openapi.json', { anonymous: true })).json as Json;
    } finally {
      await client.close();
    }
  }
  const dataDir = await mkdtemp(path.join(tmpdir(), 'blockyard-openapi-'));
  const env = {
    BLOCKYARD_PORT: '0',
    BLOCKYARD_HOST: '127.0.0.1',
    BLOCKYARD_DATA_DIR: dataDir,
    BLOCKYARD_MASTER_KEY: 'b3BlbmFwaS1kaWZmLW1hc3Rlci1rZXktMzItYnl0ZXM=',
  };
  const server = await startServer(loadConfig(env), { logDestination: pino.destination('/dev/null'), print: () => undefined });
  const client = new ApiClient(server.url, await readFile(path.join(dataDir, 'tls', 'cert.pem'), 'utf8'));
  try {
    return (await client.get('/api/openapi.json', { anonymous: true })).json as Json;
  } finally {
    await client.close();
    await server.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** `/api/meshobjects/meshtenants/{uuid}` and `…/{id}` are one path. */
const normalPath = (template: string) => template.replace(/\{[^}]+\}/g, '{}');
/** Media types in the original's vendor segment, lower case, without parameters. */
const documentedForm = (type: string) =>
  type
    .split(';')[0]!
    .trim()
    .toLowerCase()
    .replace(/^application\/vnd\.vendor\./, 'application/vnd.meshcloud.');

function operationsOf(document: Json): Map<string, Json> {
  const operations = new Map<string, Json>();
  for (const [template, item] of Object.entries(document.paths as Record<string, Json>)) {
    for (const method of METHODS) if (item[method]) operations.set(`${method.toUpperCase()} ${normalPath(template)}`, item[method] as Json);
  }
  return operations;
}

function resolver(document: Json) {
  return function resolve(schema: Json | undefined): Json | undefined {
    let current = schema;
    for (let hops = 0; current?.$ref && hops < 20; hops++) {
      const pointer = (current.$ref as string)
        .replace(/^#\//, '')
        .split('/')
        .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
      current = pointer.reduce<Json | undefined>((node, segment) => node?.[segment], document);
    }
    return current;
  };
}

/** Every property path of a schema down to `depth` levels (`spec.displayName`, `_embedded.meshTenants[].metadata`). */
function propertyPaths(
  schema: Json | undefined,
  resolve: (schema: Json | undefined) => Json | undefined,
  prefix = '',
  depth = DEPTH,
  out = new Set<string>(),
): Set<string> {
  const node = resolve(schema);
  if (!node || depth <= 0) return out;
  for (const part of [...((node.allOf ?? []) as Json[]), ...((node.oneOf ?? []) as Json[]), ...((node.anyOf ?? []) as Json[])])
    propertyPaths(part, resolve, prefix, depth, out);
  if (node.type === 'array' || node.items) return propertyPaths(node.items as Json | undefined, resolve, `${prefix}[]`, depth, out);
  for (const [name, child] of Object.entries((node.properties ?? {}) as Record<string, Json>)) {
    const at = prefix === '' ? name : `${prefix}.${name}`;
    out.add(at);
    propertyPaths(child, resolve, at, depth - 1, out);
  }
  return out;
}

let errorStatusesOnlyHere = 0;

interface OperationDiff {
  key: string;
  notes: string[];
}

const minus = <T>(a: Iterable<T>, b: Set<T>) => [...a].filter((x) => !b.has(x));

function compare(
  key: string,
  here: Json,
  there: Json,
  resolveHere: (s: Json | undefined) => Json | undefined,
  resolveThere: (s: Json | undefined) => Json | undefined,
): OperationDiff {
  const notes: string[] = [];
  const list = (label: string, items: string[]) => {
    if (items.length > 0) notes.push(`${label}: ${items.join(', ')}`);
  };
  const queryOf = (operation: Json) =>
    new Set(((operation.parameters ?? []) as Json[]).filter((p) => p.in === 'query').map((p) => p.name as string));
  const [queryHere, queryThere] = [queryOf(here), queryOf(there)];
  list('query parameters only there', minus(queryThere, queryHere));
  list('query parameters only here', minus(queryHere, queryThere));

  const answers = (operation: Json) => new Map(Object.entries((operation.responses ?? {}) as Record<string, Json>));
  const [answersHere, answersThere] = [answers(here), answers(there)];
  // Every operation here documents its error answers (the house error body); the original documents few.
  const isError = (status: string) => Number(status) >= 400;
  list('statuses only there', minus(answersThere.keys(), new Set(answersHere.keys())));
  list(
    'statuses only here',
    minus(answersHere.keys(), new Set(answersThere.keys())).filter((status) => !isError(status)),
  );
  errorStatusesOnlyHere += minus(answersHere.keys(), new Set(answersThere.keys())).filter(isError).length;

  const typesOf = (content: Json | undefined) =>
    new Map(Object.entries((content ?? {}) as Record<string, Json>).map(([type, body]) => [documentedForm(type), body]));
  const bodyHere = typesOf(here.requestBody?.content);
  const bodyThere = typesOf(there.requestBody?.content);
  list('body media types only there', minus(bodyThere.keys(), new Set(bodyHere.keys())));
  list('body media types only here', minus(bodyHere.keys(), new Set(bodyThere.keys())));

  for (const [status, answerThere] of answersThere) {
    const answerHere = answersHere.get(status);
    if (!answerHere || !status.startsWith('2')) continue;
    const [typesHere, typesThere] = [typesOf(resolveHere(answerHere)?.content), typesOf(resolveThere(answerThere)?.content)];
    list(`${status} media types only there`, minus(typesThere.keys(), new Set(typesHere.keys())));
    list(`${status} media types only here`, minus(typesHere.keys(), new Set(typesThere.keys())));
    for (const [type, bodyThere] of typesThere) {
      const bodyHere = typesHere.get(type);
      if (!bodyHere) continue;
      const [pathsHere, pathsThere] = [
        propertyPaths(bodyHere.schema as Json, resolveHere),
        propertyPaths(bodyThere.schema as Json, resolveThere),
      ];
      const onlyThere = minus(pathsThere, pathsHere);
      const onlyHere = minus(pathsHere, pathsThere);
      if (args.details) {
        list(`${status} ${type}: properties only there`, onlyThere);
        list(`${status} ${type}: properties only here`, onlyHere);
      } else if (onlyThere.length + onlyHere.length > 0) {
        notes.push(`${status} ${type}: ${onlyThere.length} properties only there, ${onlyHere.length} only here`);
      }
    }
  }
  return { key, notes };
}

/** Answers served with one schema under `application/vnd.vendor.…` and another under `…meshcloud.…`: the properties that differ in shape or in being required. */
function vendorForms(document: Json): string[] {
  const resolve = resolver(document);
  // A property at a path (`a.b[].c`) and whether its parent requires it.
  const pick = (schema: Json, at: string) =>
    at.split('.').reduce<{ node?: Json; required?: boolean }>(
      ({ node }, segment) => {
        const name = segment.replace(/\[\]$/, '');
        const parent = resolve(node);
        const child = resolve(parent?.properties?.[name]);
        return {
          node: segment.endsWith('[]') ? resolve(child?.items) : child,
          required: ((parent?.required ?? []) as string[]).includes(name),
        };
      },
      { node: schema },
    );
  const lines: string[] = [];
  for (const [key, operation] of operationsOf(document)) {
    for (const [status, answer] of Object.entries((operation.responses ?? {}) as Record<string, Json>)) {
      if (!status.startsWith('2')) continue;
      const content = (resolve(answer)?.content ?? {}) as Record<string, Json>;
      for (const [type, body] of Object.entries(content)) {
        if (!type.startsWith('application/vnd.vendor.')) continue;
        const other = content[type.replace('application/vnd.vendor.', 'application/vnd.meshcloud.')];
        if (!other) continue;
        const [spec, meshcloud] = [body.schema as Json, other.schema as Json];
        // Deep enough for a list's items' fields (`_embedded.meshBuildingBlocks[].spec.inputs`).
        const paths = new Set([...propertyPaths(spec, resolve, '', DEPTH + 2), ...propertyPaths(meshcloud, resolve, '', DEPTH + 2)]);
        const differing = [...paths].filter((at) => JSON.stringify(pick(spec, at)) !== JSON.stringify(pick(meshcloud, at)));
        const below = (at: string, above: string) => at !== above && (at.startsWith(`${above}.`) || at.startsWith(`${above}[]`));
        // A property of another type (array or map) or only in one form is named, not what is inside it; else the innermost differences.
        const typeOf = (schema: Json, at: string) => resolve(pick(schema, at).node)?.type ?? null;
        const reshaped = differing.filter((at) => typeOf(spec, at) !== typeOf(meshcloud, at));
        const named = differing.filter(
          (at) => !reshaped.some((above) => below(at, above)) && (reshaped.includes(at) || !differing.some((deeper) => below(deeper, at))),
        );
        if (named.length > 0) lines.push(`${key} ${status} ${type.replace('application/vnd.vendor.api.', '')}: ${named.join(', ')}`);
      }
    }
  }
  return lines;
}

const reference = JSON.parse(await readFile(args.reference, 'utf8')) as Json;
const served = await servedDocument();
const [here, there] = [operationsOf(served), operationsOf(reference)];
const both = [...here.keys()].filter((key) => there.has(key)).sort();
const onlyHere = [...here.keys()].filter((key) => !there.has(key)).sort();
const onlyThere = [...there.keys()].filter((key) => !here.has(key)).sort();
const diffs = both.map((key) => compare(key, here.get(key)!, there.get(key)!, resolver(served), resolver(reference)));

const out: string[] = [];
out.push(
  `Served document: ${served.info?.title} ${served.info?.version} (OpenAPI ${served.openapi}); reference: ${path.relative(process.cwd(), args.reference)} (OpenAPI ${reference.openapi})`,
);
out.push('', `Operations in both: ${both.length}; only here: ${onlyHere.length}; only there: ${onlyThere.length}`);
out.push('', `Only here (${onlyHere.length}):`, ...onlyHere.map((key) => `  ${key}`));
out.push('', `Only there (${onlyThere.length}):`, ...onlyThere.map((key) => `  ${key}`));
const differing = diffs.filter((diff) => diff.notes.length > 0);
out.push(
  '',
  `In both, with differences (${differing.length} of ${both.length}; error answers documented only here are not listed: ${errorStatusesOnlyHere} in all):`,
);
for (const diff of differing) out.push(`  ${diff.key}`, ...diff.notes.map((note) => `    - ${note}`));
out.push(
  '',
  `In both, the same (${both.length - differing.length}):`,
  ...diffs.filter((diff) => diff.notes.length === 0).map((diff) => `  ${diff.key}`),
);
const forms = vendorForms(served);
out.push(
  '',
  `Answers whose form differs by vendor segment (${forms.length}; COMPAT §1 "Colliding forms": the original's form today under meshcloud, the spec's under vendor):`,
  ...forms.map((line) => `  ${line}`),
);
process.stdout.write(`${out.join('\n')}\n`);
