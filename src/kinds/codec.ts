import type { TSchema } from '@sinclair/typebox';
import type { CollectionPermissions } from '../auth/route-access.js';
import type { MediaRef } from '../lib/media-types.js';
import type { Encoded } from './resource.js';

/** What an encoder needs besides the object: the base of its links. Kinds add what the caller may see. */
export interface EncodeView {
  baseUrl: string;
}

/** For encoders that link related collections or objects (kinds/relations.ts `relatedLinks`): which the caller may list. */
export interface RelationsView extends EncodeView {
  collections: CollectionPermissions;
}

/** How a version answers under one vendor segment where that differs: its schema and its encoder. */
export interface VendorForm<T, V extends EncodeView = EncodeView> {
  readonly schema: TSchema;
  encode(object: T, view: V): Encoded;
}

/**
 * One wire version of a kind (the Kubernetes way: one internal type per kind, one codec per version).
 * A kind's codec interface extends this with its decoders (`decode` of a create body, `decodeUpdate`,
 * its version-specific list filters); `wire/index.ts` of the kind lists its codecs.
 */
export interface Codec<T, V extends EncodeView = EncodeView> {
  readonly media: MediaRef;
  /** The TypeBox schema of exactly what `encode` returns (`_links` included): the route documents and serialises answers with it. */
  readonly schema: TSchema;
  /** The schema of a create or update body in this version (its decoder's); absent for read-only versions. */
  readonly bodySchema?: TSchema;
  encode(object: T, view: V): Encoded;
  /** Why this version cannot show the object (answered 406), or undefined when it can. */
  unrepresentable?(object: T): string | undefined;
  /**
   * Answers that differ by vendor segment: under `meshcloud` the original's form as its newest clients
   * decode it, under the spec's `vendor` the spec's form (COMPAT §1). Requests are decoded alike.
   */
  readonly vendorForms?: Readonly<Record<string, VendorForm<T, V>>>;
}

/**
 * A kind's codecs, by version: the versions a route serves and the import takes are derived from
 * here, so a new wire version is one codec file and one line in the kind's registry.
 */
export class CodecRegistry<C extends Codec<never, never>> {
  private readonly byVersion: ReadonlyMap<string, C>;
  private readonly byVendor = new Map<string, C>();

  constructor(
    /** The `kind` of the wire objects, e.g. `meshBuildingBlock`. */
    readonly kind: string,
    readonly codecs: readonly C[],
  ) {
    this.byVersion = new Map(codecs.map((codec) => [codec.media.version, codec]));
  }

  /** Every version, for the routes' `produces`/`consumes`. */
  get media(): MediaRef[] {
    return this.codecs.map((codec) => codec.media);
  }

  /** The codec of a negotiated version (negotiation only lets served versions through), answering in the vendor's form. */
  of(version: string | undefined, vendor?: string): C {
    const codec = version === undefined ? undefined : this.byVersion.get(version);
    if (!codec) throw new Error(`${this.kind} has no codec for version "${version ?? ''}"`);
    const form = vendor === undefined ? undefined : codec.vendorForms?.[vendor];
    if (!form) return codec;
    const key = `${vendor}/${version}`;
    let variant = this.byVendor.get(key);
    if (!variant) this.byVendor.set(key, (variant = { ...codec, schema: form.schema, encode: form.encode.bind(form) }));
    return variant;
  }

  has(version: string): boolean {
    return this.byVersion.has(version);
  }
}

/**
 * What the event log keeps of an object of one kind: the answer the kind's GET gives a reader of the
 * workspace the event is filed under, without `_links` (links are the reader's, drawn when read). Event
 * content comes only from here, so nothing the kind's own route does not show (a key's secret hash, a
 * run's system messages, sealed values) ever reaches an event.
 */
export interface EventCodec<T> {
  /** The wire kind, e.g. `meshApiKey`: event descriptions name it. */
  readonly kind: string;
  encode(object: T): Record<string, unknown>;
}

/** The event codec answering as `codec` does for `view` (the workspace reader's: no secret, no privileged part). */
export function eventCodec<T, V extends EncodeView>(
  kind: string,
  codec: Pick<Codec<T, V>, 'encode'>,
  view: Omit<V, 'baseUrl'>,
): EventCodec<T> {
  const readerView = { ...view, baseUrl: '' } as V;
  return {
    kind,
    encode(object) {
      const { _links: _dropped, ...content } = codec.encode(object, readerView);
      return content;
    },
  };
}

/** The view of a reader who may list no related collection: event content carries no links anyway. */
export const LINKLESS: Omit<RelationsView, 'baseUrl'> = {
  collections: { mayList: () => false, pathOf: (rel: string) => rel } as Pick<
    CollectionPermissions,
    'mayList' | 'pathOf'
  > as CollectionPermissions,
};
