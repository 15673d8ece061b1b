import { CrudService } from '../crud/service.js';
import type { KindManifest } from '../manifest.js';
import { AuthorizedProjectRoleService } from './authorized-service.js';
import { PROJECT_ROLE_TITLES } from './events.js';
import { projectRoleOperations } from './routes.js';
import { PROJECT_ROLE_STRATEGY } from './strategy.js';
import { PROJECT_ROLE_CODECS } from './wire/index.js';
import { PROJECT_ROLES_PATH } from './model.js';

declare module '../services.js' {
  interface AuthorizedServices {
    projectRoles: AuthorizedProjectRoleService;
  }
}

export const projectRoleKind: KindManifest<'projectRoles'> = {
  name: 'projectRoles',
  resources: [
    {
      path: PROJECT_ROLES_PATH,
      codecs: PROJECT_ROLE_CODECS,
      relation: { rel: 'meshprojectroles', template: '' },
      cli: { aliases: ['roles', 'role'] },
    },
  ],
  events: PROJECT_ROLE_TITLES,
  examples: {
    'meshprojectrole/v1': { apiVersion: 'v1', kind: 'meshProjectRole', metadata: { name: 'reader' }, spec: { name: 'Reader', rank: 1 } },
  },
  build: (context) => ({
    authorized: new AuthorizedProjectRoleService(new CrudService(context.db, context.recorder, context.references, PROJECT_ROLE_STRATEGY)),
  }),
  operations: (services) => projectRoleOperations(services.projectRoles),
};
