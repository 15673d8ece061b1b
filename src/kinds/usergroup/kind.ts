import { requireHoldable } from '../collection/model.js';
import { importable, metadataName, rawField, rawText } from '../importable.js';
import { type KindManifest } from '../manifest.js';
import { AuthorizedUserGroupService } from './authorized-service.js';
import { USER_GROUP_TITLES } from './events.js';
import { userGroupOperations } from './routes.js';
import { deleteCollectedGroup, UserGroupService } from './service.js';
import { UserGroupStore } from './store.js';
import { USER_GROUP_CODECS } from './wire/index.js';
import { groupIdentifier, USER_GROUPS_PATH } from './model.js';

declare module '../services.js' {
  interface AuthorizedServices {
    userGroups: AuthorizedUserGroupService;
  }
}

export const userGroupKind: KindManifest<'userGroups'> = {
  name: 'userGroups',
  resources: [
    {
      path: USER_GROUPS_PATH,
      codecs: USER_GROUP_CODECS,
      index: ['workspaceIdentifier', 'username'],
      cli: { aliases: ['groups', 'group'] },
    },
  ],
  events: USER_GROUP_TITLES,
  references: [
    { to: 'workspace', kind: 'meshWorkspaceUserGroups', table: 'user_groups', columns: ['workspace'] },
    {
      to: 'collection',
      kind: 'meshWorkspaceUserGroups',
      table: 'user_groups',
      columns: ['collection'],
      deleteHeld: (trx, held, events, references) =>
        held.kind === USER_GROUP_CODECS.kind ? deleteCollectedGroup(trx, held, events, references) : Promise.resolve(),
    },
    // A user's memberships go with it.
    {
      to: 'user',
      kind: 'group memberships',
      table: 'group_members',
      columns: ['username'],
      onDelete: 'cascade',
      cascade: (trx, [username]) => new UserGroupStore(trx).deleteMembershipsOf(username!),
    },
  ],
  build(context) {
    const plain = new UserGroupService(context.db, context.plain('workspaces'), context.recorder, context.references);
    return { authorized: new AuthorizedUserGroupService(plain, context.authorized('users')) };
  },
  operations: (services) => userGroupOperations(services.userGroups),
  importable: (services) => [
    importable(
      USER_GROUP_CODECS,
      (object) => `${rawText(rawField(object, 'metadata', 'ownedByWorkspace'))}.${metadataName(object)}`,
      async (ctx, input, collection) => {
        if (collection)
          requireHoldable(collection, 'meshWorkspaceUserGroup', input.workspace, `meshWorkspaceUserGroup[${groupIdentifier(input)}]`);
        const { group, created } = await services.userGroups.save(ctx, input, collection?.name);
        return { name: groupIdentifier(group), created };
      },
      async (ctx, inputs, collection) => {
        for (const input of inputs)
          requireHoldable(collection, 'meshWorkspaceUserGroup', input.workspace, `meshWorkspaceUserGroup[${groupIdentifier(input)}]`);
        const saved = await services.userGroups.saveAll(ctx, inputs, collection.name);
        return saved.map(({ group, created }) => ({ name: groupIdentifier(group), created }));
      },
    ),
  ],
};
