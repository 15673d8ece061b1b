import type { FastifyInstance } from 'fastify';
import { methodNotAllowed } from '../lib/errors.js';
import type { AppContext } from './app.js';

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/**
 * A method a path does not have answers 405 with `Allow` (`GET /api/login` is not a 401 or a 404):
 * registered once every route is, from the route table. It is decided before authentication — it
 * says which methods a path has, which the route table (and the index) say anyway, never whether an
 * object exists. Wildcard paths (the retired kinds) take every method already.
 */
export function registerMethodNotAllowed(app: FastifyInstance, context: AppContext): void {
  const byPath = new Map<string, Set<string>>();
  for (const key of context.access.keys()) {
    const space = key.indexOf(' ');
    const path = key.slice(space + 1);
    if (!byPath.has(path)) byPath.set(path, new Set());
    byPath.get(path)!.add(key.slice(0, space));
  }
  for (const [path, methods] of byPath) {
    if (path.endsWith('*')) continue;
    if (methods.has('GET')) methods.add('HEAD');
    const allow = METHODS.filter((method) => methods.has(method));
    const missing = METHODS.filter((method) => !methods.has(method));
    if (missing.length === 0) continue;
    app.route({
      method: missing,
      url: path,
      config: { access: 'public', methodNotAllowed: true },
      handler: async (request) => {
        throw methodNotAllowed(`${request.method} is not allowed on ${path.replace(/:(\w+)/g, '{$1}')}; use ${allow.join(', ')}`, allow);
      },
    });
  }
}
