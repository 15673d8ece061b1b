import type { KindManifest } from '../manifest.js';
import { AuthorizedApiUserService } from './authorized-service.js';
import { API_USER_TITLES } from './events.js';
import { apiUserOperations } from './routes.js';
import { ApiUserService } from './service.js';
import { API_USER_CODECS } from './wire/index.js';
import { API_USERS_PATH } from './model.js';

declare module '../services.js' {
  interface AuthorizedServices {
    apiUsers: AuthorizedApiUserService;
  }
  interface PlainServices {
    apiUsers: ApiUserService;
  }
}

export const apiUserKind: KindManifest<'apiUsers'> = {
  name: 'apiUsers',
  resources: [{ path: API_USERS_PATH, codecs: API_USER_CODECS, cli: {} }],
  events: API_USER_TITLES,
  build(context) {
    const plain = new ApiUserService(context.db, context.recorder, context.passwordCost);
    return { plain, authorized: new AuthorizedApiUserService(plain) };
  },
  operations: (services) => apiUserOperations(services.apiUsers),
};
