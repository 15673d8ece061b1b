import { Type } from '@sinclair/typebox';
import { compileDecoder } from '../../lib/validation.js';
import { ShortString } from '../../lib/wire-schemas.js';

/** `application/vnd.<vendor>.api.meshobjectcollection.v1+json` (no HAL, no answer body). */
export const COLLECTION_MEDIA = { kind: 'meshobjectcollection', version: 'v1', format: 'json' } as const;

const Name = Type.String({ pattern: '^[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?$', maxLength: 255 });

export const CreateBody = Type.Object({ name: Name, owner: Type.String({ minLength: 1, maxLength: 255 }), description: ShortString });
export const DeleteBody = Type.Object({ name: Name, owner: Type.String({ minLength: 1, maxLength: 255 }) });
export const decodeCreate = compileDecoder(CreateBody);
export const decodeDelete = compileDecoder(DeleteBody);
