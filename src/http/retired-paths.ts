import type { FastifyInstance, FastifyRequest } from 'fastify';
import { notFound } from '../lib/errors.js';
import { retiredMessage } from '../lib/versions.js';
import { REST_VERSIONS } from '../lifecycle.js';
import type { AppContext } from './app.js';
import { retiredVersionNamed } from './negotiation.js';

/**
 * The collection paths of the deprecation list's kinds that no route serves (spec §3.4, §9), so a
 * retired version keeps answering as retired even where its kind is not built here: a kind whose
 * every version is retired and replaced by another kind (`meshcustomers`) answers 404 saying so; the
 * others answer 406 (Accept) or 415 (Content-Type) with the retirement message for a retired version
 * (`meshUser.v1`: "retired on 2025-03-01"), as every route does, and 404 for anything else. Registered once
 * every route is, from the route table; every method, credentials required (like every route).
 */
export function registerRetiredPaths(app: FastifyInstance, context: AppContext): void {
  const served = new Set([...context.access.keys()].map((key) => key.slice(key.indexOf(' ') + 1)));
  for (const kind of REST_VERSIONS.kinds()) {
    const path = `/api/meshobjects/${kind}s`;
    if (served.has(path) || served.has(`${path}/:id`)) continue;
    const answer = async (request: FastifyRequest) => {
      if (REST_VERSIONS.retiredKinds().includes(kind)) {
        throw notFound(
          retiredMessage(REST_VERSIONS.entries.find((entry) => entry.kind === kind)!).replace(/^version \S+ of/, 'every version of'),
        );
      }
      const retired = retiredVersionNamed(request.headers, context.config.mediaVendors);
      if (retired) throw retired;
      throw notFound(`${path} is not served by this server`);
    };
    for (const url of [path, `${path}/*`]) app.all(url, { config: { unservedKind: true } }, answer);
  }
}
