import { importable, metadataName } from '../importable.js';
import { column, type KindManifest, deprecated, example } from '../manifest.js';
import { AuthorizedUserService } from './authorized-service.js';
import { USER_TITLES } from './events.js';
import { userOperations } from './routes.js';
import { UserService } from './service.js';
import { USER_CODECS } from './wire/index.js';
import { USERS_PATH } from './model.js';

declare module '../services.js' {
  interface AuthorizedServices {
    users: AuthorizedUserService;
  }
  interface PlainServices {
    users: UserService;
  }
}

export const userKind: KindManifest<'users'> = {
  name: 'users',
  resources: [
    {
      path: USERS_PATH,
      codecs: USER_CODECS,
      index: [
        'workspaceIdentifier',
        'projectIdentifier',
        'platformIdentifier',
        'workspaceUserGroupIdentifier',
        'projectRole',
        'workspaceRole',
        'email',
        'firstName',
        'lastName',
        'username',
        'euid',
      ],
      cli: { columns: [column('EMAIL', 'spec.email'), column('FIRST NAME', 'spec.firstName'), column('LAST NAME', 'spec.lastName')] },
    },
  ],
  events: USER_TITLES,
  lifecycle: [deprecated('meshUser.v1', 'v2', { endOfLife: '2025-03-01' })],
  importLifecycle: [deprecated('meshUser.v1', 'v2', { endOfLife: '2025-07-01' })],
  examples: [
    example('meshUser.v2', { metadata: { name: 'jdoe' }, spec: { email: 'jdoe@example.com', firstName: 'Jane', lastName: 'Doe' } }),
  ],
  build(context) {
    const plain = new UserService(context.db, context.recorder, context.references);
    return { plain, authorized: new AuthorizedUserService(plain, context.scimEnabled) };
  },
  operations: (services) => userOperations(services.users),
  importable: (services) => [
    importable(USER_CODECS, metadataName, async (ctx, input) => {
      const { user, created } = await services.users.save(ctx, input.username, input);
      return { name: user.username, created };
    }),
  ],
};
