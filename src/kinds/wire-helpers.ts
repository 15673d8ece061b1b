import { Type, type Static, type TObject, type TProperties, type TSchema } from '@sinclair/typebox';
import type { HalLink } from '../lib/hal.js';
import type { MediaRef } from '../lib/media-types.js';
import { compileDecoder } from '../lib/validation.js';
import { ObjectAnswer } from '../lib/wire-schemas.js';
import type { EncodeView, RelationsView, VendorForm } from './codec.js';
import { objectUrl } from './paths.js';
import { relatedLinks, type Related } from './relations.js';
import type { Encoded } from './resource.js';

/** An answer's parts from `metadata` on, `_links` included: what a kind's encoder writes of it. */
interface AnswerParts<T, V extends EncodeView, A extends Encoded> {
  /** The schemas of the parts before `_links` (and of `_links` when they are not plain HAL links), in order. */
  answer: TProperties;
  encode(object: T, view: V): A;
}

/** One version of a kind, without what every version has: the parts of its answer and how its body is read. */
export interface ObjectVersionParts<T, V extends EncodeView, B extends TSchema, R, A extends Encoded> extends AnswerParts<T, V, A> {
  /** The schema of a create or update body. */
  body: B;
  /** What a valid body asks for (an invalid one was answered 400, naming the field). */
  decode(body: Static<B>): R;
  /** Answers that differ by vendor segment (codec.ts `Codec.vendorForms`), as parts likewise. */
  vendorForms?: Readonly<Record<string, AnswerParts<T, V, Encoded>>>;
}

/**
 * The codec of `version` of the wire kind `kind` (e.g. `meshProject`; its media type names it in
 * lower case) from its parts: the answer's schema and every answer start with `apiVersion` and
 * `kind`, and a body is checked against its schema before the kind reads it.
 */
export function objectVersion<T, V extends EncodeView, B extends TSchema, R, A extends Encoded>(
  kind: string,
  version: string,
  parts: ObjectVersionParts<T, V, B, R, A>,
) {
  const { body, vendorForms } = parts;
  const decodeBody = compileDecoder(body);
  const enveloped =
    <P extends Encoded>(encode: (object: T, view: V) => P) =>
    (object: T, view: V) => ({ apiVersion: version, kind, ...encode(object, view) });
  return {
    media: { kind: kind.toLowerCase(), version },
    schema: ObjectAnswer(version, kind, parts.answer),
    bodySchema: body,
    decode: (sent: unknown): R => parts.decode(decodeBody(sent)),
    encode: enveloped(parts.encode),
    ...(vendorForms
      ? {
          vendorForms: Object.fromEntries(
            Object.entries(vendorForms).map(([vendor, form]): [string, VendorForm<T, V>] => [
              vendor,
              { schema: ObjectAnswer(version, kind, form.answer), encode: enveloped(form.encode) },
            ]),
          ),
        }
      : {}),
  };
}

/** The `uuid` a body names its object by in `metadata.uuid` (a PUT must name its path), when it names one. */
export const sentUuid = ({ uuid }: { uuid?: string | undefined }): { uuid?: string } => (uuid ? { uuid } : {});

/** An answer's schema with another `apiVersion`, in the same place. */
function withApiVersion(schema: TSchema, apiVersion: string): TSchema {
  const { properties } = schema as TObject;
  return { ...schema, properties: { ...properties, apiVersion: Type.Literal(apiVersion) } };
}

/**
 * A version of the same shape as its successor (a deprecated one, spec §9): the successor's answers
 * with its own `apiVersion`, its bodies decoded alike.
 */
export function sameShapeVersion<T, V extends EncodeView, D>(
  successor: { media: MediaRef; schema: TSchema; bodySchema: TSchema; decode: D; encode(object: T, view: V): Encoded },
  version: string,
) {
  return {
    media: { ...successor.media, version },
    schema: withApiVersion(successor.schema, version),
    bodySchema: successor.bodySchema,
    decode: successor.decode,
    encode: (object: T, view: V) => ({ ...successor.encode(object, view), apiVersion: version }),
  };
}

/** The `_links` of an object that links nothing else: its `self`. */
export const selfLink = ({ baseUrl }: EncodeView, path: string, id: string): { self: HalLink } => ({
  self: { href: objectUrl(baseUrl, path, id) },
});

/**
 * The `_links` of an object: its `self`, then those of `related` the caller may follow (relations.ts).
 * Added to one object, not spread into a new one: lists build one per item, and objects built by
 * spreads are slower to build and to serialise (bench/encode-page.ts).
 */
export const objectLinks = (view: RelationsView, path: string, id: string, related: Readonly<Record<string, Related | undefined>>) =>
  Object.assign(selfLink(view, path, id), relatedLinks(view, related));
