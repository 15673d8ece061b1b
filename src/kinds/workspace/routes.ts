import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../http/app.js';
import { registerResourceRoutes, versionOf } from '../../http/resource-routes.js';
import { decodeWorkspace, encodeWorkspace, WORKSPACE_VERSIONS, WORKSPACES_PATH } from './wire.js';
import type { Workspace } from './model.js';

export async function workspaceRoutes(app: FastifyInstance, context: AppContext): Promise<void> {
  const workspaces = context.services.workspaces;
  registerResourceRoutes<Workspace>(app, context, {
    path: WORKSPACES_PATH,
    versions: WORKSPACE_VERSIONS,
    embedded: 'meshWorkspaces',
    resource: 'WORKSPACE',
    encode: (workspace, request) => encodeWorkspace(workspace, versionOf(request), context.baseUrl()),
    get: (request, name) => workspaces.get(request.principal, name),
    list: (request, _query, page) => workspaces.list(request.principal, page),
    create: (request, body) => workspaces.create(request.principal, decodeWorkspace(body)),
    update: (request, name, body) => workspaces.update(request.principal, name, decodeWorkspace(body)),
    remove: { status: 204, run: (request, name) => workspaces.delete(request.principal, name) },
  });
}
