import { Type } from '@sinclair/typebox';
import { compileDecoder } from '../../../lib/validation.js';
import { Echoed, Identifier, KindOf, Links, NonEmptyShortString, ShortString, Tags } from '../../../lib/wire-schemas.js';
import type { EncodeView } from '../../codec.js';
import { sentObject } from '../../document.js';
import { objectUrl } from '../../paths.js';
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
const decodeBody = compileDecoder(Body);

const Answer = Type.Object({
  apiVersion: Type.Literal('v1'),
  kind: Type.Literal('meshProjectRole'),
  metadata: Echoed({ name: Identifier, tags: Tags }),
  spec: Echoed({ name: Type.String(), description: Type.Optional(Type.String()), rank: Type.Number() }),
  _links: Links,
});

/** meshProjectRole v1 (OpenAPI): `metadata{name, tags}`, `spec{name, description, rank}`. */
export const projectRoleV1 = {
  media: { kind: 'meshprojectrole', version: 'v1' } as const,
  schema: Answer,
  bodySchema: Body,
  decode(body: unknown): ProjectRoleInput {
    const { metadata, spec } = decodeBody(body);
    return { name: metadata.name, displayName: spec.name, document: sentObject(metadata, spec) };
  },
  encode(role: ProjectRole, { baseUrl }: EncodeView) {
    return {
      apiVersion: 'v1',
      kind: 'meshProjectRole',
      metadata: { ...role.document.metadata, name: role.name, tags: role.document.metadata.tags ?? {} },
      spec: { ...role.document.spec, name: role.displayName },
      _links: { self: { href: objectUrl(baseUrl, PROJECT_ROLES_PATH, role.name) } },
    };
  },
};
