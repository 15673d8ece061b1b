import { versionOf, type Operation } from '../operation.js';
import { resourceOperations } from '../resource.js';
import type { AuthorizedProjectRoleService } from './authorized-service.js';
import type { ProjectRole } from './model.js';
import { PROJECT_ROLE_CODECS } from './wire/index.js';
import { PROJECT_ROLES_PATH } from './model.js';

/** meshProjectRole v1: list and GET for every caller; POST 201, PUT (upsert) 200, DELETE 204 with `ADM_PROJECTROLE_*`. */
export function projectRoleOperations(roles: AuthorizedProjectRoleService): Operation[] {
  return resourceOperations<ProjectRole>({
    path: PROJECT_ROLES_PATH,
    codecs: PROJECT_ROLE_CODECS.codecs,
    embedded: 'meshProjectRoles',
    resource: 'PROJECTROLE',
    readAccess: 'authenticated',
    adminOnly: 'writes',
    encode: (role, call) => PROJECT_ROLE_CODECS.of(versionOf(call)).encode(role, call),
    get: (call, name) => roles.get(call.ctx, name),
    list: (call, page) => roles.list(call.ctx, page),
    create: (call) => roles.create(call.ctx, PROJECT_ROLE_CODECS.of(call.consumes?.version).decode(call.body)),
    update: async (call, name) => (await roles.save(call.ctx, name, PROJECT_ROLE_CODECS.of(call.consumes?.version).decode(call.body))).role,
    remove: { status: 204, run: (call, name) => roles.delete(call.ctx, name) },
  });
}
