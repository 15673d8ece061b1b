import { Type } from '@sinclair/typebox';
import { Echoed, Identifier, KindOf, NonEmptyShortString, ShortString, Tags } from '../../../lib/wire-schemas.js';
import type { EncodeView } from '../../codec.js';
import { sentObject } from '../../document.js';
import { objectVersion, selfLink } from '../../wire-helpers.js';
import type { ProjectRole, ProjectRoleInput } from '../model.js';
import { PROJECT_ROLES_PATH } from '../model.js';

const Body = Type.Object({
  kind: KindOf('meshProjectRole'),
  metadata: Type.Object({ name: Identifier, tags: Type.Optional(Tags) }),
  spec: Type.Object({
    name: NonEmptyShortString,
    description: Type.Optional(ShortString),
    rank: Type.Number({ minimum: -1e9, maximum: 1e9 }),
  }),
});

/** meshProjectRole v1 (OpenAPI): `metadata{name, tags}`, `spec{name, description, rank}`. */
export const projectRoleV1 = objectVersion('meshProjectRole', 'v1', {
  answer: {
    metadata: Echoed({ name: Identifier, tags: Tags }),
    spec: Echoed({ name: Type.String(), description: Type.Optional(Type.String()), rank: Type.Number() }),
  },
  body: Body,
  decode: ({ metadata, spec }): ProjectRoleInput => ({ name: metadata.name, displayName: spec.name, document: sentObject(metadata, spec) }),
  encode: (role: ProjectRole, view: EncodeView) => ({
    metadata: { ...role.document.metadata, name: role.name, tags: role.document.metadata.tags ?? {} },
    spec: { ...role.document.spec, name: role.displayName },
    _links: selfLink(view, PROJECT_ROLES_PATH, role.name),
  }),
});
