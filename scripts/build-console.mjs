#!/usr/bin/env node
// Builds the web console (src/console/) into dist/console/: one ES module bundle, its stylesheet and
// the page. Run by `npm ci` (prepare), `npm run build` and the browser tests when the bundle is missing.
import { copyFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const source = path.join(root, 'src', 'console');
const out = path.join(root, 'dist', 'console');

await mkdir(out, { recursive: true });
await build({
  entryPoints: [path.join(source, 'main.tsx')],
  outfile: path.join(out, 'app.js'),
  bundle: true,
  format: 'esm',
  target: 'es2022',
  minify: true,
  legalComments: 'none',
  tsconfig: path.join(source, 'tsconfig.json'),
  logLevel: 'warning',
});
await copyFile(path.join(source, 'index.html'), path.join(out, 'index.html'));
await copyFile(path.join(source, 'styles.css'), path.join(out, 'app.css'));
