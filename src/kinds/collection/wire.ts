import { Type } from '@sinclair/typebox';
import { badRequest } from '../../lib/errors.js';
import { compileDecoder } from '../../lib/validation.js';
import { ShortString } from '../../lib/wire-schemas.js';
import type { ObjectCollection } from './model.js';

/** `application/vnd.<vendor>.api.meshobjectcollection.v1+json` (no HAL, no answer body). */
export const COLLECTION_MEDIA = { kind: 'meshobjectcollection', version: 'v1', format: 'json' } as const;

const Name = Type.String({ pattern: '^[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?$', maxLength: 255 });
const Owner = Type.String({ minLength: 1, maxLength: 255 });

/**
 * The published body `{name, owner, description}` plus `ownedByWorkspace`, required: the workspace
 * whose collection it is, or null for a collection of admins only (docs/collections.md).
 */
export const CreateBody = Type.Object({
  name: Name,
  owner: Owner,
  description: ShortString,
  ownedByWorkspace: Type.Union([Owner, Type.Null()], { description: 'the owning meshWorkspace, or null: admins only' }),
});
export const DeleteBody = Type.Object({ name: Name, owner: Owner });
const decodeCreateFields = compileDecoder(Type.Object({ name: Name, owner: Owner, description: ShortString, ownedByWorkspace: Type.Optional(Owner) }));
export const decodeDelete = compileDecoder(DeleteBody);

/** The decoder drops nulls, so whether `ownedByWorkspace` was given at all is asked of the body itself. */
export function decodeCreate(body: unknown): Omit<ObjectCollection, 'createdOn'> {
  const { ownedByWorkspace, ...fields } = decodeCreateFields(body);
  if (!Object.hasOwn(body as object, 'ownedByWorkspace')) {
    throw badRequest('ownedByWorkspace: required: the meshWorkspace whose collection this is, or null for a collection of admins only');
  }
  return { ...fields, ownedByWorkspace: ownedByWorkspace ?? null };
}
