import { versionOf, type Operation } from '../operation.js';
import { resourceOperations } from '../resource.js';
import type { AuthorizedWorkspaceService } from './authorized-service.js';
import type { Workspace } from './model.js';
import { WORKSPACE_CODECS } from './wire/index.js';
import { WORKSPACES_PATH } from './model.js';

export function workspaceOperations(workspaces: AuthorizedWorkspaceService): Operation[] {
  return resourceOperations<Workspace>({
    path: WORKSPACES_PATH,
    codecs: WORKSPACE_CODECS.codecs,
    embedded: 'meshWorkspaces',
    resource: 'WORKSPACE',
    encode: (workspace, call) => WORKSPACE_CODECS.of(versionOf(call)).encode(workspace, call),
    get: (call, name) => workspaces.get(call.ctx, name),
    list: (call, page) => workspaces.list(call.ctx, page),
    create: (call) => workspaces.create(call.ctx, WORKSPACE_CODECS.of(call.consumes?.version).decode(call.body)),
    update: (call, name) => workspaces.update(call.ctx, name, WORKSPACE_CODECS.of(call.consumes?.version).decode(call.body)),
    remove: { status: 204, run: (call, name) => workspaces.delete(call.ctx, name) },
  });
}
