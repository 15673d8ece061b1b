import type { Project } from './model.js';
import type { FastifyInstance } from 'fastify';
import { badRequest, notFound } from '../../errors.js';
import type { AppContext } from '../../http/app.js';
import { filterValue, registerResourceRoutes, versionOf, type Query } from '../../http/resource-routes.js';
import type { ProjectFilter } from './store.js';
import { decodeProject, encodeProject, PROJECT_VERSIONS, PROJECTS_PATH } from './wire.js';

/** `<workspace>.<project>` of a path; anything else names no project (404). */
function parseProjectIdentifier(id: string): [string, string] {
  const dot = id.indexOf('.');
  if (dot <= 0 || dot === id.length - 1) throw notFound(`meshProject ${id} not found`);
  return [id.slice(0, dot), id.slice(dot + 1)];
}

const PROJECT_STATES = ['ACTIVE', 'DELETED'];

/** `state`: deleted projects are forgotten, so `DELETED` matches none (README, Design). */
function parseProjectFilter(query: Query): ProjectFilter | 'none' {
  const state = filterValue(query, 'state');
  if (state !== undefined && !PROJECT_STATES.includes(state)) throw badRequest(`state: must be one of ${PROJECT_STATES.join(', ')}, got "${state}"`);
  if (state === 'DELETED') return 'none';
  const workspace = filterValue(query, 'workspaceIdentifier');
  const paymentMethod = filterValue(query, 'paymentIdentifier');
  return { ...(workspace !== undefined ? { workspace } : {}), ...(paymentMethod !== undefined ? { paymentMethod } : {}) };
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
