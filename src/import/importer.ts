import type { RequestContext } from '../auth/context.js';
import { ApiError, badRequest } from '../lib/errors.js';
import { deprecatedMessage, isRetired, retiredMessage } from '../lib/versions.js';
import { IMPORT_VERSIONS } from '../lifecycle.js';
import { isDatabaseUnavailable } from '../store/database.js';
import { isRetriedConflict, type UnitOfWork } from '../store/transaction.js';
import { turns } from '../lib/turns.js';
import type { AuthorizedCollectionService } from '../kinds/collection/authorized-service.js';
import { isCollectedKind, requireHoldable, type ObjectCollection } from '../kinds/collection/model.js';
import type { ImportableKind, RawObject } from '../kinds/manifest.js';

/** At most this many objects per import request: the work of one request stays bounded. */
export const MAX_IMPORT_OBJECTS = 1000;

/**
 * Objects saved together at most: each such save is one piece of work, between two turns. 250 user
 * groups take about one turn on SQLite (5 ms); on PostgreSQL each run costs some six round trips,
 * each waiting for a busy event loop, so fewer runs make an import under load faster (1 000 groups
 * alone there: ~112 ms, against ~130 with 100 at a time).
 */
const TOGETHER = 250;

export type ImportResultCode = 'WORKSPACE_NOT_FOUND' | 'PROJECT_NOT_FOUND' | 'INVALID_MESH_OBJECT' | 'SERVER_ERROR';

/** One entry of the import's answer (COMPAT §7), in the order of the objects sent. */
export interface ImportResult {
  meshObject: string;
  status: 'SUCCESS' | 'FAILED';
  resultCode: ImportResultCode | null;
  message: string;
  remarks: string[];
}

function resultCodeOf(error: ApiError): ImportResultCode {
  if (error.status >= 500) return 'SERVER_ERROR';
  if (error.missing === 'WORKSPACE') return 'WORKSPACE_NOT_FOUND';
  if (error.missing === 'PROJECT') return 'PROJECT_NOT_FOUND';
  return 'INVALID_MESH_OBJECT';
}

const isRawObject = (value: unknown): value is RawObject => value !== null && typeof value === 'object' && !Array.isArray(value);

/** Ends the attempt to save an import's objects together: one failed, and they are saved one by one instead. */
class OneByOne extends Error {
  constructor() {
    super('an object of an import into a meshObjectCollection failed while saved together with others');
  }
}

/** Ends an import into a collection of which an object failed: its unit of work rolls back, and these are the answer. */
class NothingStored extends Error {
  constructor(readonly results: ImportResult[]) {
    super('an object of an import into a meshObjectCollection failed; nothing of it is stored');
  }
}

/**
 * The declarative import: every object is created or updated by its identity, one after the other,
 * each in its own write, so one failing object neither stops the others nor leaves anything half
 * written. Only an unreachable database ends the request (503: the client retries the whole,
 * idempotent import).
 *
 * An import into a meshObjectCollection is all or nothing, one unit of work: one transaction, each
 * object in a savepoint of it, then the declarative deletion, then one commit. The savepoints keep
 * the transaction usable after a failing object (PostgreSQL refuses every statement of a transaction
 * after a failed one), so every object is still tried and reported; but if any failed, the whole
 * unit rolls back and the others are reported as not stored. Its writes, deletions and their events
 * are stored together or not at all.
 */
export class Importer {
  private readonly byKind: Map<string, ImportableKind>;

  constructor(
    kinds: ImportableKind[],
    private readonly collections: AuthorizedCollectionService,
    private readonly units: UnitOfWork,
    private readonly log: { error(details: object, message: string): void },
  ) {
    this.byKind = new Map(kinds.map((kind) => [kind.kind, kind]));
  }

  /**
   * `options.collection` (the `meshObjectCollection` query parameter, with its optional `owner`):
   * groups and workspace bindings imported are put in the collection (only objects its owner may
   * hold), and once every object of the import succeeded, the collection's objects this import did
   * not name are deleted; they are reported after the objects sent ("deleted"). If any object failed,
   * nothing of the import is stored: the failed say why, the others that they were not stored, and
   * one more entry that nothing was deleted. If the deletion is refused (or the commit fails), the
   * whole import is undone and the request fails with that error.
   */
  async import(ctx: RequestContext, body: unknown, options: { collection?: string; owner?: string } = {}): Promise<ImportResult[]> {
    if (!Array.isArray(body)) throw badRequest('body: a JSON array of meshObjects or a YAML stream of them is required');
    if (body.length > MAX_IMPORT_OBJECTS)
      throw badRequest(`body: at most ${MAX_IMPORT_OBJECTS} meshObjects per import, got ${body.length}`);
    const { collection, owner } = options;
    if (collection === undefined) {
      const results: ImportResult[] = [];
      const pause = turns();
      for (const [index, object] of body.entries()) {
        await pause();
        results.push(await this.importOne(ctx, this.checked(object, index), (save) => save()));
      }
      return results;
    }
    // First all together (runs of one kind in a few statements, nothing else in a savepoint); if
    // anything fails, that attempt is rolled back and the import runs again one object at a time,
    // each in its savepoint, to say which failed and why.
    try {
      return await this.attempt(ctx, body, collection, owner, 'together');
    } catch (error) {
      if (!(error instanceof OneByOne)) throw error;
    }
    return this.attempt(ctx, body, collection, owner, 'one by one');
  }

  /**
   * One unit of work of an import into a collection: its results, or what it would have stored had
   * nothing failed. The objects are decoded first, outside it: its transaction is held for the saves.
   */
  private async attempt(
    ctx: RequestContext,
    body: unknown[],
    collection: string,
    owner: string | undefined,
    mode: 'together' | 'one by one',
  ): Promise<ImportResult[]> {
    const checks = await this.checkAll(body);
    try {
      return await this.units.run(() => this.importIntoCollection(ctx, checks, collection, owner, mode));
    } catch (error) {
      if (error instanceof NothingStored) return error.results;
      throw error;
    }
  }

  /** Inside the import's unit of work; may run again from the start (see `UnitOfWork.run`). */
  private async importIntoCollection(
    ctx: RequestContext,
    checks: readonly Check[],
    name: string,
    owner: string | undefined,
    mode: 'together' | 'one by one',
  ): Promise<ImportResult[]> {
    const collection = await this.collections.forImport(ctx, name, owner);
    const results =
      mode === 'together' ? await this.saveTogether(ctx, checks, collection) : await this.saveOneByOne(ctx, checks, collection);
    const kept = new Map<string, Set<string>>();
    for (const result of results) {
      const kind = result.meshObject.slice(0, result.meshObject.indexOf('['));
      if (result.status === 'SUCCESS' && isCollectedKind(kind)) {
        const ids = kept.get(kind) ?? new Set<string>();
        for (const id of result.meshObject.slice(kind.length + 1, -1).split(',')) ids.add(id);
        kept.set(kind, ids);
      }
    }
    const failures = results.filter((result) => result.status === 'FAILED').length;
    if (failures > 0) throw new NothingStored(notStored(collection, results, failures));
    results.push(...(await this.deleteMissing(ctx, collection, kept)));
    return results;
  }

  /** Each object in a savepoint of the unit of work: a failing one is reported, and the others are still tried. */
  private async saveOneByOne(ctx: RequestContext, checks: readonly Check[], collection: ObjectCollection): Promise<ImportResult[]> {
    const results: ImportResult[] = [];
    const pause = turns();
    for (const check of checks) {
      await pause();
      results.push(await this.importOne(ctx, check, (save) => this.units.savepoint(save), collection));
    }
    return results;
  }

  /**
   * Consecutive objects of a kind that saves several at once (`ImportableKind.saveAll`) in one call,
   * any other object by itself; no savepoints. The first failure ends the attempt (OneByOne): the
   * unit of work is rolled back, then every object is tried one by one.
   */
  private async saveTogether(ctx: RequestContext, checks: readonly Check[], collection: ObjectCollection): Promise<ImportResult[]> {
    const results: ImportResult[] = [];
    const pause = turns();
    for (let start = 0; start < checks.length;) {
      await pause();
      const first = checks[start]!;
      let end = start + 1;
      if (first.kind?.saveAll) while (end < checks.length && end - start < TOGETHER && checks[end]!.kind === first.kind) end++;
      if ('failed' in first || end - start === 1) {
        const result = await this.importOne(ctx, first, (save) => save(), collection);
        if (result.status === 'FAILED') throw new OneByOne();
        results.push(result);
      } else {
        const run = checks.slice(start, end) as Checked[];
        let saved: { name: string; created: boolean }[];
        try {
          saved = await first.kind.saveAll!(
            ctx,
            run.map((check) => check.decoded),
            collection,
          );
        } catch (error) {
          if (isDatabaseUnavailable(error) || isRetriedConflict(error)) throw error;
          throw new OneByOne();
        }
        results.push(...saved.map((one, offset) => succeeded(first.kind, one, run[offset]!.lifecycle)));
      }
      start = end;
    }
    return results;
  }

  private async deleteMissing(ctx: RequestContext, collection: ObjectCollection, kept: Map<string, Set<string>>): Promise<ImportResult[]> {
    try {
      const deleted = await this.collections.deleteMissing(ctx, collection, kept);
      return deleted.map((object) => ({
        meshObject: `${object.kind}[${object.id}]`,
        status: 'SUCCESS',
        resultCode: null,
        message: 'deleted',
        remarks: [`missing from this import into meshObjectCollection ${collection.name}`],
      }));
    } catch (error) {
      if (!(error instanceof ApiError) || error.status >= 500) throw error;
      // Thrown on, it undoes the whole unit of work: the writes of this import go with the deletion.
      throw new ApiError(
        error.errorCode,
        `declarative deletion from meshObjectCollection ${collection.name}: ${error.message}; nothing of this import was stored`,
        error.headers,
      );
    }
  }

  /** Every object checked and decoded, with turns between them: an import of 1 000 objects decodes for milliseconds. */
  private async checkAll(body: unknown[]): Promise<Check[]> {
    const pause = turns();
    const checks: Check[] = [];
    for (const [index, object] of body.entries()) {
      await pause();
      checks.push(this.checked(object, index));
    }
    return checks;
  }

  /** What an object is before it is saved: its kind, version, label and decoded value, or why it cannot be imported. */
  private checked(object: unknown, index: number): Check {
    const failed = (meshObject: string, message: string) => ({ failed: failure(meshObject, 'INVALID_MESH_OBJECT', message) });
    if (!isRawObject(object)) return failed(`unknown[${index}]`, `object ${index + 1}: not a meshObject`);
    const kindName = typeof object.kind === 'string' ? object.kind : 'unknown';
    const kind = this.byKind.get(kindName);
    // The spec's deprecation list of import objects (§9): retired versions are refused as retired,
    // whether or not their kind is imported here; deprecated ones work, with a remark saying so.
    const lifecycle =
      typeof object.apiVersion === 'string' ? IMPORT_VERSIONS.of({ kind: kindName, version: object.apiVersion }) : undefined;
    if (lifecycle && isRetired(lifecycle)) {
      const name =
        kind?.name(object) ??
        (typeof (object.metadata as { name?: unknown } | undefined)?.name === 'string'
          ? (object.metadata as { name: string }).name
          : String(index));
      return failed(`${kindName}[${name}]`, `apiVersion: ${retiredMessage(lifecycle)}`);
    }
    if (!kind)
      return failed(`${kindName}[${index}]`, `kind: "${kindName}" cannot be imported; supported: ${[...this.byKind.keys()].join(', ')}`);
    const label = `${kind.kind}[${kind.name(object)}]`;
    if (typeof object.apiVersion !== 'string' || !kind.versions.includes(object.apiVersion))
      return failed(label, `apiVersion: ${kind.kind} is imported as ${kind.versions.join(' or ')}, got "${String(object.apiVersion)}"`);
    try {
      return { kind, decoded: kind.decode(object, object.apiVersion), label, lifecycle };
    } catch (error) {
      return { failed: this.failureOf(error, label) };
    }
  }

  /** `apply` runs the object's save: directly, or in a savepoint of the import's unit of work. */
  private async importOne(
    ctx: RequestContext,
    check: Check,
    apply: <T>(save: () => Promise<T>) => Promise<T>,
    collection?: ObjectCollection,
  ): Promise<ImportResult> {
    if ('failed' in check) return check.failed;
    const { kind, decoded, label, lifecycle } = check;
    try {
      // Collected kinds are checked by their workspace once decoded; any other kind here.
      if (collection !== undefined && !isCollectedKind(kind.kind)) requireHoldable(collection, kind.kind, undefined, label);
      return succeeded(kind, await apply(() => kind.save(ctx, decoded, collection)), lifecycle);
    } catch (error) {
      // An import into a collection is one unit of work: a deadlock victim there is retried whole (UnitOfWork.run).
      if (isDatabaseUnavailable(error) || (collection !== undefined && isRetriedConflict(error))) throw error;
      return this.failureOf(error, label);
    }
  }

  /** An object's failed result: a 4xx as it says, anything else an internal error (logged). */
  private failureOf(error: unknown, label: string): ImportResult {
    const api = error instanceof ApiError ? error : new ApiError('InternalError', 'internal error');
    if (api.status >= 500) this.log.error({ err: error, meshObject: label }, 'import of a meshObject failed');
    return failure(label, resultCodeOf(api), api.message);
  }
}

/** An object ready to be saved: of a kind imported here, decoded in one of its versions. */
interface Checked {
  kind: ImportableKind;
  decoded: unknown;
  label: string;
  /** Its version's place in the deprecation list, when it has one (a remark says so). */
  lifecycle: ReturnType<typeof IMPORT_VERSIONS.of>;
}

/** An object checked before it is saved: ready, or failed already (not a meshObject, an unknown kind or version, invalid). */
type Check = Checked | { failed: ImportResult; kind?: undefined };

const failure = (meshObject: string, resultCode: ImportResultCode, message: string): ImportResult => ({
  meshObject,
  status: 'FAILED',
  resultCode,
  message,
  remarks: [],
});

const succeeded = (
  kind: ImportableKind,
  { name, created }: { name: string; created: boolean },
  lifecycle: Checked['lifecycle'],
): ImportResult => ({
  meshObject: `${kind.kind}[${name}]`,
  status: 'SUCCESS',
  resultCode: null,
  message: created ? 'created' : 'updated',
  remarks: lifecycle ? [deprecatedMessage(lifecycle)] : [],
});

/** The answer of an import into a collection of which `failures` objects failed: nothing of it was stored. */
function notStored(collection: ObjectCollection, results: ImportResult[], failures: number): ImportResult[] {
  const why = `${failures} object(s) of this import into meshObjectCollection ${collection.name} failed, and such an import is stored whole or not at all`;
  return [
    ...results.map((result): ImportResult =>
      result.status === 'FAILED'
        ? result
        : {
            ...result,
            status: 'FAILED',
            resultCode: null,
            message: `not stored: ${why}`,
            remarks: [`would have been ${result.message}`, ...result.remarks],
          },
    ),
    {
      meshObject: `meshObjectCollection[${collection.name}]`,
      status: 'FAILED',
      resultCode: 'INVALID_MESH_OBJECT',
      message: `declarative deletion skipped: ${failures} object(s) of this import failed; nothing was deleted, and nothing of this import was stored`,
      remarks: [],
    },
  ];
}
