import { Type } from '@sinclair/typebox';
import { CodecRegistry, eventCodec, type Codec, type EncodeView } from '../../../src/kinds/codec.js';
import { objectUrl } from '../../../src/kinds/paths.js';
import { compileDecoder } from '../../../src/lib/validation.js';
import { DateTime, Identifier, KindOf, Links, NonEmptyShortString } from '../../../src/lib/wire-schemas.js';
import { GADGETS_PATH, type Gadget, type GadgetInput } from './model.js';

/** meshGadget v1 knows a display name; v2 adds an optional colour. */
const body = (version: 'v1' | 'v2') =>
  Type.Object({
    apiVersion: Type.Optional(Type.Literal(version)),
    kind: KindOf('meshGadget'),
    metadata: Type.Object({ name: Identifier, ownedByWorkspace: Identifier }),
    spec: Type.Object({
      displayName: NonEmptyShortString,
      ...(version === 'v2' ? { color: Type.Optional(Type.String({ maxLength: 40 })) } : {}),
    }),
  });
const answer = (version: 'v1' | 'v2') =>
  Type.Object({
    apiVersion: Type.Literal(version),
    kind: Type.Literal('meshGadget'),
    metadata: Type.Object({ name: Identifier, ownedByWorkspace: Identifier, createdOn: DateTime }),
    spec: Type.Object({ displayName: Type.String(), ...(version === 'v2' ? { color: Type.Optional(Type.String()) } : {}) }),
    _links: Links,
  });

interface GadgetCodec extends Codec<Gadget> {
  decode(body: unknown): GadgetInput;
}

function gadgetCodec(version: 'v1' | 'v2'): GadgetCodec {
  const decodeBody = compileDecoder(body(version));
  return {
    media: { kind: 'meshgadget', version },
    schema: answer(version),
    bodySchema: body(version),
    decode(raw) {
      const { metadata, spec } = decodeBody(raw) as {
        metadata: { name: string; ownedByWorkspace: string };
        spec: { displayName: string; color?: string };
      };
      return {
        name: metadata.name,
        workspace: metadata.ownedByWorkspace,
        displayName: spec.displayName,
        ...(spec.color ? { color: spec.color } : {}),
      };
    },
    encode(gadget: Gadget, { baseUrl }: EncodeView) {
      return {
        apiVersion: version,
        kind: 'meshGadget',
        metadata: { name: gadget.name, ownedByWorkspace: gadget.workspace, createdOn: gadget.createdOn },
        spec: { displayName: gadget.displayName, ...(version === 'v2' && gadget.color !== undefined ? { color: gadget.color } : {}) },
        _links: { self: { href: objectUrl(baseUrl, GADGETS_PATH, gadget.name) } },
      };
    },
  };
}

export const GADGET_CODECS = new CodecRegistry<GadgetCodec>('meshGadget', [gadgetCodec('v2'), gadgetCodec('v1')]);
export const GADGET_EVENTS = eventCodec(GADGET_CODECS.kind, gadgetCodec('v2'), {});
