import { CrudService } from '../crud/service.js';
import { example, type KindManifest } from '../manifest.js';
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
      index: [],
      cli: { aliases: ['roles', 'role'] },
    },
  ],
  events: PROJECT_ROLE_TITLES,
  examples: [example('meshProjectRole.v1', { metadata: { name: 'reader' }, spec: { name: 'Reader', rank: 1 } })],
  build: (context) => ({
    authorized: new AuthorizedProjectRoleService(new CrudService(context.db, context.recorder, context.references, PROJECT_ROLE_STRATEGY)),
  }),
  operations: (services) => projectRoleOperations(services.projectRoles),
};
