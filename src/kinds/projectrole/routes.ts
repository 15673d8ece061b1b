import type { Operation } from '../operation.js';
import { crudOperations } from '../crud/routes.js';
import type { AuthorizedProjectRoleService } from './authorized-service.js';
import { PROJECT_ROLES_PATH } from './model.js';
import { PROJECT_ROLE_CODECS } from './wire/index.js';

/** meshProjectRole v1: list and GET for every caller; POST 201, PUT (upsert) 200, DELETE 204 with `ADM_PROJECTROLE_*`. */
export function projectRoleOperations(roles: AuthorizedProjectRoleService): Operation[] {
  return crudOperations(roles, PROJECT_ROLE_CODECS, {
    path: PROJECT_ROLES_PATH,
    embedded: 'meshProjectRoles',
    resource: 'PROJECTROLE',
    readAccess: 'authenticated',
    adminOnly: 'writes',
    put: 'upsert',
  });
}
