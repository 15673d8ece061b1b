/**
 * Fails when the kind folders (`src/kinds/<kind>/`, each one node) import each other in a loop, type-only
 * imports included: a kind may use another, never be used back through any path. Module-level cycles are
 * dependency-cruiser's (`no-cycle`); this is the folder level it cannot express for siblings only.
 * `npm run lint` runs it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const IMPORT = /(?:from|import)\s*\(?\s*'(\.[^']+)'/g;

/** The kind folders' imports of each other: `Map<from, Map<to, "file → specifier" lines>>`. */
export function kindEdges(kindsDir) {
  const edges = new Map();
  const kindOf = (file) => {
    const parts = path.relative(kindsDir, file).split(path.sep);
    return parts.length > 1 && !parts[0].startsWith('..') ? parts[0] : undefined;
  };
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) scan(file);
    }
  };
  const scan = (file) => {
    const from = kindOf(file);
    if (from === undefined) return;
    for (const [, specifier] of readFileSync(file, 'utf8').matchAll(IMPORT)) {
      const to = kindOf(path.resolve(path.dirname(file), specifier));
      if (to === undefined || to === from) continue;
      if (!edges.has(from)) edges.set(from, new Map());
      const lines = edges.get(from);
      if (!lines.has(to)) lines.set(to, []);
      lines.get(to).push(`${path.relative(kindsDir, file)} → ${specifier}`);
    }
  };
  walk(kindsDir);
  return edges;
}

/** The strongly connected groups of more than one kind (Tarjan), each a cycle or several. */
export function kindCycles(edges) {
  let next = 0;
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const groups = [];
  const visit = (v) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v)?.keys() ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
    }
    if (low.get(v) === index.get(v)) {
      const group = [];
      let w;
      do {
        w = stack.pop();
        onStack.delete(w);
        group.push(w);
      } while (w !== v);
      if (group.length > 1) groups.push(group.sort());
    }
  };
  for (const v of edges.keys()) if (!index.has(v)) visit(v);
  return groups;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const kindsDir = path.resolve(process.argv[2] ?? 'src/kinds');
  const edges = kindEdges(kindsDir);
  const cycles = kindCycles(edges);
  for (const group of cycles) {
    console.error(`kind folders in an import cycle: ${group.join(', ')}`);
    for (const from of group)
      for (const [to, lines] of edges.get(from) ?? []) if (group.includes(to)) for (const line of lines) console.error(`  ${line}`);
  }
  if (cycles.length > 0) process.exit(1);
  console.log(
    `✔ no import cycle between the ${new Set([...edges.keys(), ...[...edges.values()].flatMap((m) => [...m.keys()])]).size} kind folders`,
  );
}
