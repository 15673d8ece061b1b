import type { Migration } from 'kysely';
import type { RequestContext } from '../auth/context.js';
import type { ScryptCost } from '../auth/passwords.js';
import type { TokenService } from '../auth/tokens.js';
import type { Config } from '../config.js';
import type { SecretBox } from '../crypto/secret-box.js';
import type { VersionRef } from '../lib/media-types.js';
import type { LifecycleEntry } from '../lib/versions.js';
import type { DialectName } from '../store/database.js';
import type { Db } from '../store/transaction.js';
import type { ObjectCollection } from './collection/model.js';
import type { EventTitle } from './eventlog/titles.js';
import type { EventRecorder } from './eventlog/recorder.js';
import type { Operation } from './operation.js';
import type { KindReference, ReferenceGraph } from './references.js';
import type { AuthorizedServices, PlainServices } from './services.js';

/**
 * A kind, declared once in its folder (`kinds/<kind>/kind.ts`) and listed in `kinds/registry.ts`:
 * everything the rest of the server knows about it — its collection paths and names, the index link,
 * the CLI's columns, its events, versions, examples, the references it holds on other kinds, how its
 * services are made and which routes and import entries it serves. The composition root, the HTTP
 * layer, the import and the CLI derive their tables from the registry; nothing lists kinds by hand.
 */
export interface KindManifest<K extends KindName = KindName> {
  /** Its key among the services (`AuthorizedServices`), e.g. `locations`. */
  readonly name: K;
  /** The collections it serves (most kinds one; bindings four, definitions two). */
  readonly resources: readonly KindResource[];
  /** The events it writes: their titles and event types, by the key services name them with. */
  readonly events?: Readonly<Record<string, EventTitle>>;
  /** Its deprecated REST versions (spec §9): Deprecation, Sunset and successor links, 406 once retired. */
  readonly lifecycle?: readonly LifecycleEntry[];
  /** Its deprecated object versions of the declarative import. */
  readonly importLifecycle?: readonly LifecycleEntry[];
  /** Request-body examples of its versions: the served OpenAPI shows them. */
  readonly examples?: readonly RequestExample[];
  /** The references its rows hold on other kinds' objects: what their deletion does (restrict or cascade). */
  readonly references?: readonly KindReference[];
  /** Migrations of its tables kept in its folder, by name (applied with the service's own, in name order). */
  readonly migrations?: Readonly<Record<string, Migration>>;
  /** Its services: the plain one (rules and storage) and the authorized one callers reach. */
  build(context: KindContext): BuiltKind<K>;
  /** Its routes, over its own authorized service and, where a route needs them, other kinds'. */
  operations?(services: AuthorizedServices): Operation[];
  /** What the declarative import takes of it. */
  importable?(services: AuthorizedServices): ImportableKind[];
}

export type KindName = keyof AuthorizedServices;

export interface BuiltKind<K extends KindName> {
  authorized: AuthorizedServices[K];
  plain?: K extends keyof PlainServices ? PlainServices[K] : never;
}

/** One collection of a kind: its path, the index's link to it and how the CLI shows it. */
export interface KindResource {
  /** Collection path, e.g. `/api/meshobjects/meshlocations`. */
  readonly path: string;
  /** The wire kind and the versions served (its codec registry): the CLI asks for the newest. */
  readonly codecs: { readonly kind: string; readonly media: readonly VersionRef[] };
  /**
   * Its link in the meshObjects index (spec §2.3), named by the kind's plural (`meshlocations`): the
   * query variables the link advertises, or an RFC 6570 template where it is not a plain query;
   * absent: the index does not link it.
   */
  readonly index?: readonly string[] | string;
  /** How `blockyard get` names and shows it; absent: the CLI does not offer it. */
  readonly cli?: CliExtras;
}

/** What the CLI cannot derive: short names, filters the index does not advertise, columns for people. */
export interface CliExtras {
  readonly aliases?: readonly string[];
  readonly extraFilters?: readonly string[];
  readonly columns?: readonly CliColumn[];
  readonly wide?: readonly CliColumn[];
}

/** A table column: its header and where its value is in a wire object (dotted paths, the first with a value). */
export interface CliColumn {
  readonly header: string;
  readonly path: string | readonly string[];
}

export const column = (header: string, ...paths: string[]): CliColumn => ({ header, path: paths.length === 1 ? paths[0]! : paths });

/** `meshProject.v1` → the kind and version. */
function refOf(dotted: string): { kind: string; version: string } {
  const [kind, version] = dotted.split('.');
  if (!kind || !version) throw new Error(`${dotted}: expected <kind>.<version>`);
  return { kind, version };
}

/**
 * A deprecated version (spec §9) of `ref` (`meshProject.v1`), replaced by `replacedBy` (a version of
 * the same kind, as the spec names it); `successor`: the version served instead, for the
 * `successor-version` link.
 */
export function deprecated(ref: string, replacedBy: string, options: { endOfLife?: string; successor?: string } = {}): LifecycleEntry {
  const { kind, version } = refOf(ref);
  const lower = kind.toLowerCase();
  return {
    kind: lower,
    version,
    ...(options.endOfLife !== undefined ? { endOfLife: options.endOfLife } : {}),
    replacedBy: `${kind}.${replacedBy}`,
    ...(options.successor !== undefined ? { successor: { kind: lower, version: options.successor } } : {}),
  };
}

/** A request body the served OpenAPI shows, under its `<kind>/<version>` media type. */
export interface RequestExample {
  readonly mediaType: string;
  readonly body: Readonly<Record<string, unknown>>;
}

/** The example of `ref` (`meshProject.v2`): `apiVersion` and `kind` from the ref, then the body's fields. */
export function example(ref: string, body: Readonly<Record<string, unknown>>): RequestExample {
  const { kind, version } = refOf(ref);
  return { mediaType: `${kind.toLowerCase()}/${version}`, body: { apiVersion: version, kind, ...body } };
}

/** What a kind's services are made with: the shared infrastructure and the other kinds' services. */
export interface KindContext {
  readonly db: Db;
  readonly dialect: DialectName;
  readonly config: Config;
  readonly secrets: SecretBox;
  readonly recorder: EventRecorder;
  readonly tokens: TokenService;
  readonly passwordCost: ScryptCost;
  /** Resolves once written events are on disk (`Database.durable`). */
  readonly durable: () => Promise<void>;
  /** The references every kind declares: a kind's deletion asks what holds it and removes what goes with it. */
  readonly references: ReferenceGraph;
  /** Whether SCIM provisioning is on (users are then SCIM's). */
  readonly scimEnabled: () => Promise<boolean>;
  /** Another kind's plain service, made on first use. */
  plain<N extends keyof PlainServices>(name: N): PlainServices[N];
  /** Another kind's authorized service, made on first use. */
  authorized<N extends KindName>(name: N): AuthorizedServices[N];
}

export type RawObject = Record<string, unknown> & { metadata?: unknown; spec?: unknown };

/**
 * A kind the declarative import takes (spec §1): how one object is named and created or updated by
 * its identity. The versions it takes are its kind's codecs, so a new codec is importable at once.
 * Decoding is apart from saving: the import decodes every object before its unit of work begins, so
 * the transaction (and SQLite's single writer) is held for the saves alone.
 */
export interface ImportableKind<D = unknown> {
  kind: string;
  versions: readonly string[];
  /** `<kind>[<name>]`'s name, from the raw object before it is validated. */
  name(object: RawObject): string;
  /** The object validated and decoded in one of `versions`; throws a 4xx naming the field. Touches no database. */
  decode(object: RawObject, version: string): D;
  /**
   * Creates or updates the decoded object as the caller; returns its name (several, comma-separated,
   * for an object that is several bindings) and what happened. `collection`: the meshObjectCollection
   * the import fills (kinds with declarative deletion mark their objects with it, once its owner may
   * hold them; others ignore it).
   */
  save(ctx: RequestContext, decoded: D, collection?: ObjectCollection): Promise<{ name: string; created: boolean }>;
  /**
   * Several decoded objects of the kind at once for an import into a collection: what `save` does for
   * each, in a few statements for all of them (an import of 1 000 objects then holds its transaction,
   * and SQLite's single writer, for a few milliseconds instead of a thousand saves). Throws when any
   * of them cannot be saved so; the import then saves them one by one, to say which and why.
   */
  saveAll?(ctx: RequestContext, decoded: readonly D[], collection: ObjectCollection): Promise<{ name: string; created: boolean }[]>;
}
