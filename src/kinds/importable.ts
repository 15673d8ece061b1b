import type { RequestContext } from '../auth/context.js';
import type { Codec, CodecRegistry } from './codec.js';
import type { ObjectCollection } from './collection/model.js';
import type { ImportableKind, RawObject } from './manifest.js';

const text = (value: unknown) => (typeof value === 'string' ? value : '?');

/** `object.<part>.<key>` of a raw object before it is validated, or undefined. */
export const rawField = (object: RawObject, part: 'metadata' | 'spec', key: string) => {
  const holder = object[part];
  return holder !== null && typeof holder === 'object' ? (holder as Record<string, unknown>)[key] : undefined;
};

/** A raw value as a name part: itself when a string, `?` otherwise. */
export const rawText = text;

/** `metadata.name`: how most kinds are named in the import's results. */
export const metadataName = (object: RawObject) => text(rawField(object, 'metadata', 'name'));

type Saved = { name: string; created: boolean };

/** One importable kind from its codecs: decoded with the object's version, then saved (or several at once, `saveAll`). */
export function importable<D>(
  codecs: CodecRegistry<Codec<never, never> & { decode(body: unknown): D }>,
  name: (object: RawObject) => string,
  save: (ctx: RequestContext, decoded: D, collection?: ObjectCollection) => Promise<Saved>,
  saveAll?: (ctx: RequestContext, decoded: readonly D[], collection: ObjectCollection) => Promise<Saved[]>,
): ImportableKind<D> {
  return {
    kind: codecs.kind,
    versions: codecs.media.map((media) => media.version),
    name,
    decode: (object, version) => codecs.of(version).decode(object),
    save,
    saveAll,
  };
}
