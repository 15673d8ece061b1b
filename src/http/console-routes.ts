import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { notFound } from '../lib/errors.js';
import type { AppContext } from './app.js';

/**
 * The web console: the bundle `scripts/build-console.mjs` writes to `dist/console/` at
 * install and build time (the same place from `src/http/` and `dist/http/`). Files are read once at
 * start and served from memory by name, so no request path ever reaches the file system.
 */
const BUNDLE_DIR = fileURLToPath(new URL('../../dist/console/', import.meta.url));

/**
 * The console's own policy: scripts, styles and images only from this origin (definition symbols are
 * `data:` URIs), requests only to this API; no inline script or style, no framing, no form posts.
 */
export const CONSOLE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
};

async function loadBundle(): Promise<Map<string, Buffer>> {
  const names = await readdir(BUNDLE_DIR).catch(() => []);
  const files = new Map<string, Buffer>();
  for (const name of names) if (path.extname(name) in CONTENT_TYPES) files.set(name, await readFile(path.join(BUNDLE_DIR, name)));
  return files;
}

export async function consoleRoutes(app: FastifyInstance, _context: AppContext): Promise<void> {
  const files = await loadBundle();
  if (!files.has('index.html')) app.log.warn({ dir: BUNDLE_DIR }, 'the console is not built (npm run build): /console answers 404');
  const config = { access: 'public' as const };
  app.get('/console', { config }, async (_request, reply) => reply.redirect('/console/'));
  app.get('/console/*', { config }, async (request, reply) => {
    const name = (request.params as { '*': string })['*'] || 'index.html';
    const file = files.get(name);
    if (!file) throw notFound(files.size === 0 ? 'the console is not built: run npm run build' : `no console file ${name}`);
    return reply.type(CONTENT_TYPES[path.extname(name)]!).header('content-security-policy', CONSOLE_CSP).send(file);
  });
}
