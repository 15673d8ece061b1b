import { Type } from '@sinclair/typebox';
import { MAX_STRING } from './limits.js';

/** Building blocks of wire schemas shared by every kind. */

/** Identifiers of workspaces, projects, locations, platforms: lower-case letters, digits and dashes. */
export const IDENTIFIER_PATTERN = '^[a-z0-9]([a-z0-9-]*[a-z0-9])?$';
export const Identifier = Type.String({ pattern: IDENTIFIER_PATTERN, maxLength: MAX_STRING });
export const ShortString = Type.String({ maxLength: MAX_STRING });
export const NonEmptyShortString = Type.String({ minLength: 1, maxLength: MAX_STRING });
export const Uuid = Type.String({ format: 'uuid' });

/** Tags (spec §2.1): values are always arrays of strings, even for one value. */
export const Tags = Type.Record(Type.String({ maxLength: MAX_STRING }), Type.Array(ShortString, { maxItems: 1000 }));

/** `kind` may be omitted in a body; when sent it must name the resource. */
export const KindOf = (kind: string) => Type.Optional(Type.Literal(kind));

/** Integers stored in 32-bit integer columns (PostgreSQL `integer`): larger ones are 400, not an overflow. */
export const Int32 = (options: { minimum?: number } = {}) => Type.Integer({ maximum: 2_147_483_647, minimum: -2_147_483_648, ...options });
