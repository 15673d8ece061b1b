import { Type } from '@sinclair/typebox';
import { compileDecoder } from '../../http/validation.js';
import { Identifier, KindOf, NonEmptyShortString } from '../../http/wire-schemas.js';
import { sentObject } from '../document.js';
import type { Location, LocationInput } from './model.js';

/** meshLocation v1 and the deprecated v1-preview: the same shape (COMPAT §7). */
export const LOCATION_VERSIONS = [
  { kind: 'meshlocation', version: 'v1' },
  { kind: 'meshlocation', version: 'v1-preview' },
] as const;
export const LOCATIONS_PATH = '/api/meshobjects/meshlocations';

const decodeBody = compileDecoder(
  Type.Object({
    kind: KindOf('meshLocation'),
    metadata: Type.Object({ name: Identifier, ownedByWorkspace: Type.Optional(Identifier) }),
    spec: Type.Object({ displayName: NonEmptyShortString, description: Type.Optional(Type.String({ maxLength: 4096 })) }),
  }),
);

export function decodeLocation(body: unknown): LocationInput {
  const { metadata, spec } = decodeBody(body);
  return { name: metadata.name, displayName: spec.displayName, ...(metadata.ownedByWorkspace ? { ownedByWorkspace: metadata.ownedByWorkspace } : {}), document: sentObject(metadata, spec) };
}

export function encodeLocation(location: Location, version: string, baseUrl: string) {
  return {
    apiVersion: version,
    kind: 'meshLocation',
    metadata: { ...location.document.metadata, name: location.name, uuid: location.uuid, createdOn: location.createdOn },
    spec: location.document.spec,
    status: { isPublic: location.isPublic },
    _links: { self: { href: `${baseUrl}${LOCATIONS_PATH}/${encodeURIComponent(location.name)}` } },
  };
}

