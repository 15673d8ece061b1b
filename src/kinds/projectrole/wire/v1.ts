import { Type } from '@sinclair/typebox';
import { compileDecoder } from '../../../lib/validation.js';
import { Identifier, KindOf, NonEmptyShortString, ShortString, Tags } from '../../../lib/wire-schemas.js';
import type { EncodeView } from '../../codec.js';
import { sentObject } from '../../document.js';
import { objectUrl, PATHS } from '../../paths.js';
import type { ProjectRole, ProjectRoleInput } from '../model.js';

const decodeBody = compileDecoder(
  Type.Object({
    kind: KindOf('meshProjectRole'),
    metadata: Type.Object({ name: Identifier, tags: Type.Optional(Tags) }),
    spec: Type.Object({ name: NonEmptyShortString, description: Type.Optional(ShortString), rank: Type.Number({ minimum: -1e9, maximum: 1e9 }) }),
  }),
);

/** meshProjectRole v1 (OpenAPI): `metadata{name, tags}`, `spec{name, description, rank}`. */
export const projectRoleV1 = {
  media: { kind: 'meshprojectrole', version: 'v1' } as const,
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
      _links: { self: { href: objectUrl(baseUrl, PATHS.projectRoles, role.name) } },
    };
  },
};
