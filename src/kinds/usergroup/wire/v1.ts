import { Type } from '@sinclair/typebox';
import { Echoed, Identifier, KindOf, NonEmptyShortString, ShortString, Tags } from '../../../lib/wire-schemas.js';
import type { RelationsView } from '../../codec.js';
import { sentObject } from '../../document.js';
import { checkedUsername } from '../../user/wire/v2.js';
import { objectLinks, objectVersion } from '../../wire-helpers.js';
import { USER_GROUPS_PATH, groupIdentifier, type UserGroup, type UserGroupInput } from '../model.js';

/** At most this many members per group (one import object stays bounded). */
export const MAX_MEMBERS = 10_000;

const Body = Type.Object({
  kind: KindOf('meshWorkspaceUserGroup'),
  metadata: Type.Object({ name: Identifier, ownedByWorkspace: Identifier }),
  spec: Type.Object({
    displayName: NonEmptyShortString,
    egid: Type.Optional(ShortString),
    members: Type.Optional(Type.Array(Type.String({ maxLength: 1024 }), { maxItems: MAX_MEMBERS })),
    tags: Type.Optional(Tags),
  }),
});

/** meshWorkspaceUserGroup v1: read over REST, written by the import (`spec.members`: usernames, `egid` optional). */
export const userGroupV1 = objectVersion('meshWorkspaceUserGroup', 'v1', {
  answer: {
    metadata: Echoed({ name: Identifier, ownedByWorkspace: Identifier }),
    spec: Echoed({
      displayName: Type.String(),
      egid: Type.Optional(Type.String()),
      members: Type.Array(Type.String(), { description: 'usernames' }),
      tags: Tags,
    }),
  },
  body: Body,
  decode({ metadata, spec }): UserGroupInput {
    const { members = [], ...rest } = spec;
    const usernames = [...new Set(members.map((member, index) => checkedUsername(member, `spec.members[${index}]`)))];
    return { workspace: metadata.ownedByWorkspace, name: metadata.name, members: usernames, document: sentObject(metadata, rest) };
  },
  encode(group: UserGroup, view: RelationsView) {
    const id = groupIdentifier(group);
    return {
      metadata: { ...group.document.metadata, name: group.name, ownedByWorkspace: group.workspace },
      spec: { ...group.document.spec, members: group.members, tags: group.document.spec.tags ?? {} },
      _links: objectLinks(view, USER_GROUPS_PATH, id, {
        meshworkspace: { rel: 'meshworkspaces', workspace: group.workspace, id: group.workspace },
        meshusers: { rel: 'meshusers', workspace: group.workspace, query: `?workspaceUserGroupIdentifier=${encodeURIComponent(id)}` },
      }),
    };
  },
});
