import { Type, type ObjectOptions, type TProperties, type TSchema } from '@sinclair/typebox';
import { MAX_STRING } from './limits.js';

/** Building blocks of wire schemas shared by every kind. */

/** Identifiers of workspaces, projects, locations, platforms: lower-case letters, digits and dashes. */
export const IDENTIFIER_PATTERN = '^[a-z0-9]([a-z0-9-]*[a-z0-9])?$';
export const Identifier = Type.String({ pattern: IDENTIFIER_PATTERN, maxLength: MAX_STRING });
export const ShortString = Type.String({ maxLength: MAX_STRING });
export const NonEmptyShortString = Type.String({ minLength: 1, maxLength: MAX_STRING });
export const Uuid = Type.String({ format: 'uuid' });
/** An instant as answers show it (RFC 3339). */
export const DateTime = Type.String({ format: 'date-time' });

/** Tags (spec §2.1): values are always arrays of strings, even for one value. */
export const Tags = Type.Record(Type.String({ maxLength: MAX_STRING }), Type.Array(ShortString, { maxItems: 1000 }));

/** `kind` may be omitted in a body; when sent it must name the resource. */
export const KindOf = (kind: string) => Type.Optional(Type.Literal(kind));

/** Integers stored in 32-bit integer columns (PostgreSQL `integer`): larger ones are 400, not an overflow. */
export const Int32 = (options: { minimum?: number } = {}) => Type.Integer({ maximum: 2_147_483_647, minimum: -2_147_483_648, ...options });

/*
 * Building blocks of answer schemas (the route schemas document and serialise every answer with them).
 * An object with `additionalProperties: true` is answered exactly as it is (the serialiser writes it
 * whole, in its own order: http/serialization.ts), so parts a client sent and gets back unchanged
 * (COMPAT §3 "echo fidelity") are described with `Echoed` and never lose or reorder a field.
 */

/** An object the answer carries as it is: its known properties described, any other kept. */
export const Echoed = <P extends TProperties>(properties: P, options: { description?: string } = {}) =>
  Type.Object(properties, { ...options, additionalProperties: true });

/** A string, or null when not set. */
export const Nullable = <S extends TSchema>(schema: S) => Type.Union([schema, Type.Null()]);

/** A HAL link. */
export const Link = Type.Object({ href: Type.String(), templated: Type.Optional(Type.Boolean()) });

/** HAL `_links`: `self` and the links the kind adds (some only for callers who may follow them). */
export const Links = Type.Object(
  { self: Link },
  { additionalProperties: Link, description: 'HAL links; `self` always, others when the caller may follow them' },
);

/**
 * The answer of one version of a kind: `apiVersion` and `kind` first, then the kind's parts
 * (`metadata`, `spec`, `status`, …) in their order, and `_links` last: HAL links unless the parts
 * describe their own.
 */
export const ObjectAnswer = <P extends TProperties>(apiVersion: string, kind: string, parts: P, options?: ObjectOptions) =>
  Type.Object({ apiVersion: Type.Literal(apiVersion), kind: Type.Literal(kind), ...parts, _links: parts._links ?? Links }, options);

/** What a client may send for anything (tags of foreign systems, inputs, outputs, contents). */
export const AnyValue = Type.Unknown();

/** The one error body of every 4xx and 5xx answer (http/error-handler.ts). */
export const ErrorBody = Type.Object(
  {
    message: Type.String({ description: 'what went wrong, naming the field or parameter at fault' }),
    errorCode: Type.String({ description: 'stable code (lib/errors.ts), e.g. BadRequest, NotFound' }),
    errorId: Type.String({ format: 'uuid', description: 'the same id is in the server log line of this error' }),
  },
  { title: 'Error' },
);
