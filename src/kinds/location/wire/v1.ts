import { Type } from '@sinclair/typebox';
import { TEXT_LIMITS } from '../../../lib/limits.js';
import { DateTime, Echoed, Identifier, KindOf, NonEmptyShortString, Uuid } from '../../../lib/wire-schemas.js';
import type { EncodeView } from '../../codec.js';
import { sentObject } from '../../document.js';
import { objectVersion, selfLink } from '../../wire-helpers.js';
import type { Location, LocationInput } from '../model.js';
import { LOCATIONS_PATH } from '../model.js';

const Body = Type.Object({
  kind: KindOf('meshLocation'),
  metadata: Type.Object({ name: Identifier, ownedByWorkspace: Type.Optional(Identifier) }),
  spec: Type.Object({ displayName: NonEmptyShortString, description: Type.Optional(Type.String({ maxLength: TEXT_LIMITS.description })) }),
});

/** meshLocation v1 (COMPAT §7): identified by `metadata.name`; `metadata.uuid` and `status.isPublic` computed. */
export const locationV1 = objectVersion('meshLocation', 'v1', {
  answer: {
    metadata: Echoed({ name: Identifier, ownedByWorkspace: Type.Optional(Identifier), uuid: Uuid, createdOn: DateTime }),
    spec: Echoed({ displayName: Type.String(), description: Type.Optional(Type.String()) }),
    status: Type.Object({ isPublic: Type.Boolean() }),
  },
  body: Body,
  decode: ({ metadata, spec }): LocationInput => ({
    name: metadata.name,
    displayName: spec.displayName,
    ...(metadata.ownedByWorkspace ? { ownedByWorkspace: metadata.ownedByWorkspace } : {}),
    document: sentObject(metadata, spec),
  }),
  encode: (location: Location, view: EncodeView) => ({
    metadata: { ...location.document.metadata, name: location.name, uuid: location.uuid, createdOn: location.createdOn },
    spec: location.document.spec,
    status: { isPublic: location.isPublic },
    _links: selfLink(view, LOCATIONS_PATH, location.name),
  }),
});
