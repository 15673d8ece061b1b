import { Type } from '@sinclair/typebox';
import { MAX_STRING } from './validation.js';

/** Building blocks of wire schemas shared by every kind. */

/** Identifiers of workspaces, projects, locations, platforms: lower-case letters, digits and dashes. */
export const IDENTIFIER_PATTERN = '^[a-z0-9]([a-z0-9-]*[a-z0-9])?$';
export const Identifier = Type.String({ pattern: IDENTIFIER_PATTERN, maxLength: MAX_STRING });
export const ShortString = Type.String({ maxLength: MAX_STRING });
export const NonEmptyShortString = Type.String({ minLength: 1, maxLength: MAX_STRING });
export const Uuid = Type.String({ format: 'uuid' });
