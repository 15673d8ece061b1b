import { Type } from '@sinclair/typebox';
import { TEXT_LIMITS } from '../../../lib/limits.js';
import { compileDecoder } from '../../../lib/validation.js';
import { DateTime, Echoed, Identifier, KindOf, Links, NonEmptyShortString, Uuid } from '../../../lib/wire-schemas.js';
import type { EncodeView } from '../../codec.js';
import { sentObject } from '../../document.js';
import { objectUrl } from '../../paths.js';
import type { Location, LocationInput } from '../model.js';
import { LOCATIONS_PATH } from '../model.js';

const Body = Type.Object({
  kind: KindOf('meshLocation'),
  metadata: Type.Object({ name: Identifier, ownedByWorkspace: Type.Optional(Identifier) }),
  spec: Type.Object({ displayName: NonEmptyShortString, description: Type.Optional(Type.String({ maxLength: TEXT_LIMITS.description })) }),
});
const decodeBody = compileDecoder(Body);

/** A location as v1 and v1-preview answer it. */
export const locationAnswer = (apiVersion: 'v1' | 'v1-preview') =>
  Type.Object({
    apiVersion: Type.Literal(apiVersion),
    kind: Type.Literal('meshLocation'),
    metadata: Echoed({ name: Identifier, ownedByWorkspace: Type.Optional(Identifier), uuid: Uuid, createdOn: DateTime }),
    spec: Echoed({ displayName: Type.String(), description: Type.Optional(Type.String()) }),
    status: Type.Object({ isPublic: Type.Boolean() }),
    _links: Links,
  });

/** meshLocation v1 (COMPAT §7): identified by `metadata.name`; `metadata.uuid` and `status.isPublic` computed. */
export const locationV1 = {
  media: { kind: 'meshlocation', version: 'v1' } as const,
  schema: locationAnswer('v1'),
  bodySchema: Body,
  decode(body: unknown): LocationInput {
    const { metadata, spec } = decodeBody(body);
    return {
      name: metadata.name,
      displayName: spec.displayName,
      ...(metadata.ownedByWorkspace ? { ownedByWorkspace: metadata.ownedByWorkspace } : {}),
      document: sentObject(metadata, spec),
    };
  },
  encode(location: Location, { baseUrl }: EncodeView, apiVersion = 'v1') {
    return {
      apiVersion,
      kind: 'meshLocation',
      metadata: { ...location.document.metadata, name: location.name, uuid: location.uuid, createdOn: location.createdOn },
      spec: location.document.spec,
      status: { isPublic: location.isPublic },
      _links: { self: { href: objectUrl(baseUrl, LOCATIONS_PATH, location.name) } },
    };
  },
};
