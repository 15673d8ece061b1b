import { Type } from '@sinclair/typebox';
import type { EventCodec } from '../codec.js';
import { compileDecoder } from '../../lib/validation.js';
import { ShortString } from '../../lib/wire-schemas.js';
import type { ObjectCollection } from './model.js';

/** `application/vnd.<vendor>.api.meshobjectcollection.v1+json` (no HAL, no answer body). */
export const COLLECTION_MEDIA = { kind: 'meshobjectcollection', version: 'v1', format: 'json' } as const;

const Name = Type.String({ pattern: '^[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?$', maxLength: 255 });
const Owner = Type.String({ minLength: 1, maxLength: 255 });

/**
 * The published body `{name, owner, description}` plus `ownedByWorkspace`: the workspace whose
 * collection it is, or null — also when absent, as in the published form — for a collection of
 * admins only (docs/collections.md).
 */
export const CreateBody = Type.Object({
  name: Name,
  owner: Owner,
  description: ShortString,
  ownedByWorkspace: Type.Optional(
    Type.Union([Owner, Type.Null()], { description: 'the owning meshWorkspace; null or absent: admins only' }),
  ),
});
export const DeleteBody = Type.Object({ name: Name, owner: Owner });
const decodeCreateFields = compileDecoder(
  Type.Object({ name: Name, owner: Owner, description: ShortString, ownedByWorkspace: Type.Optional(Owner) }),
);
export const decodeDelete = compileDecoder(DeleteBody);

/** A collection named by no workspace is the admins' (the decoder drops a null `ownedByWorkspace`). */
export function decodeCreate(body: unknown): Omit<ObjectCollection, 'createdOn'> {
  const { ownedByWorkspace, ...fields } = decodeCreateFields(body);
  return { ...fields, ownedByWorkspace: ownedByWorkspace ?? null };
}

/** What a collection's events carry: it has no answer body of its own, so the body it was created with, and when. */
export const COLLECTION_EVENTS: EventCodec<ObjectCollection> = {
  kind: 'meshObjectCollection',
  encode: ({ name, owner, ownedByWorkspace, description, createdOn }) => ({ name, owner, ownedByWorkspace, description, createdOn }),
};
