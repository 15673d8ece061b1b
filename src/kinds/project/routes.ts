import type { FastifyInstance } from 'fastify';
import { notFound } from '../../errors.js';
import type { AppContext } from '../../http/app.js';
import { registerResourceRoutes, versionOf } from '../../http/resource-routes.js';
import { parseProjectFilter } from './parse-project-filter.js';
import { decodeProject, encodeProject, PROJECT_VERSIONS, PROJECTS_PATH } from './wire.js';
import type { Project } from './model.js';

/** `<workspace>.<project>` of a path; anything else names no project (404). */
function parseProjectIdentifier(id: string): [string, string] {
  const dot = id.indexOf('.');
  if (dot <= 0 || dot === id.length - 1) throw notFound(`meshProject ${id} not found`);
  return [id.slice(0, dot), id.slice(dot + 1)];
}

export async function projectRoutes(app: FastifyInstance, context: AppContext): Promise<void> {
  const projects = context.services.projects;
  registerResourceRoutes<Project>(app, context, {
    path: PROJECTS_PATH,
    versions: PROJECT_VERSIONS,
    embedded: 'meshProjects',
    resource: 'PROJECT',
    encode: (project, request) => encodeProject(project, versionOf(request), context.baseUrl()),
    get: (request, id) => projects.get(request.principal, ...parseProjectIdentifier(id)),
    list: async (request, query, page) => {
      const filter = parseProjectFilter(query);
      return filter === 'none' ? { items: [], total: 0 } : projects.list(request.principal, filter, page);
    },
    create: (request, body) => projects.create(request.principal, decodeProject(body)),
    update: (request, id, body) => projects.update(request.principal, ...parseProjectIdentifier(id), decodeProject(body)),
    remove: { status: 202, run: (request, id) => projects.delete(request.principal, ...parseProjectIdentifier(id)) },
  });
}
