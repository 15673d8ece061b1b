// Compiles the black-box test files and the server's entry (src/main.ts) for one test run
// (scripts/run-tests.mjs), with esbuild, the compiler tsx runs: each entry one ES module, the code
// they share in common chunks.
//
// Why: a test file run through tsx spends about 2.5 s of CPU before its first test (the loader thread
// resolving and transforming some 400 modules), and a `blockyard …` a test starts as a child process
// about 1 s; compiled, they take 0.8 s and 0.3 s. Over a full run (60-odd files and about 160 child
// processes) that is a few minutes of a 2-core machine.
//
// Each module keeps its own `import.meta.url` (the source file's URL, see `ownImportMetaUrl`), so
// paths a module finds from its own location (the console bundle, package.json, fixtures) are
// those it finds under tsx; packages stay imports, resolved from the project's node_modules; a
// dynamic import stays lazy (a chunk of its own), so the CLI loads only the command it runs. Source
// maps are written beside: with --enable-source-maps a failure names the .ts file and line.
import { mkdirSync, realpathSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';

/** The server's entry: `node <main> <command> …` is `blockyard <command> …`. */
export const MAIN_SOURCE = path.join('src', 'main.ts');

/**
 * Each module's `import.meta.url` as its source file's URL: `define` turns the expression (never text
 * in a string) into a name, and each module declares that name first, on its first line (the source
 * map's lines stay right). esbuild keeps module scopes apart in the bundle.
 */
const IMPORT_META_URL = '__sourceImportMetaUrl';
const ownImportMetaUrl = (root) => ({
  name: 'own-import-meta-url',
  setup(builder) {
    // The project's .mjs scripts too (a test imports scripts/check-kind-cycles.mjs).
    builder.onLoad({ filter: /\.(tsx?|mjs)$/ }, async ({ path: file }) => {
      if (!file.startsWith(root)) return undefined;
      const source = await readFile(file, 'utf8');
      const extension = path.extname(file).slice(1);
      return {
        contents: `const ${IMPORT_META_URL} = ${JSON.stringify(pathToFileURL(file).href)};${source}`,
        loader: extension === 'mjs' ? 'js' : extension,
      };
    });
  },
});

/**
 * Builds `sources` (paths relative to `root`) into `outdir`, mirroring their paths with `.mjs`;
 * answers the compiled file of each source (its absolute real path, as the test runner names it) and
 * the packages the compiled code imports (a process may load them ahead: the chaos driver's standbys).
 */
export async function buildForTests(root, sources, outdir) {
  // esbuild names sources by their real paths, and the source maps name them relative to where the
  // compiled files really are: both by real path (node_modules may be a link in a second working tree).
  root = realpathSync(root);
  mkdirSync(outdir, { recursive: true });
  const realOutdir = realpathSync(outdir);
  const { metafile } = await build({
    absWorkingDir: root,
    entryPoints: sources,
    outbase: root,
    outdir: realOutdir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    packages: 'external',
    platform: 'node',
    format: 'esm',
    splitting: true,
    target: 'node20',
    sourcemap: 'linked',
    define: { 'import.meta.url': IMPORT_META_URL },
    plugins: [ownImportMetaUrl(root)],
    metafile: true,
    logLevel: 'warning',
  });
  const packages = new Set();
  for (const output of Object.values(metafile.outputs))
    for (const { path: name, external } of output.imports) if (external && !name.startsWith('node:')) packages.add(name);
  return {
    compiled: new Map(sources.map((source) => [source, path.join(realOutdir, source.replace(/\.tsx?$/, '.mjs'))])),
    packages: [...packages].sort(),
  };
}
