import { sql } from 'kysely';
import type { Db } from '../store/transaction.js';
import type { EventDraft } from './eventlog/model.js';

/**
 * A reference the rows of one kind's table hold on an object of kind `to`, declared in the holding
 * kind's manifest. What a deletion of that object does with the rows:
 * - `restrict` (the default): while one counts (those with `unlessSet` set do not), the deletion is
 *   refused with 409 "still has …";
 * - `cascade`: they go with it, removed by the holding kind's own code (`cascade`, with its events),
 *   in the deletion's unit of work. A restricting reference may cascade too: the rows that do not
 *   count (soft-deleted tenants) go with the object.
 * - `detach`: the rows stay and let go of it (`detach`: a deleted tag definition's key leaves the
 *   tags of its kind's objects), by the holding kind's declaration, in the deletion's unit of work.
 * A holder may also let one held object go (a collection's declarative deletion): each holding kind
 * removes its own (`deleteHeld`), so no kind writes another kind's tables.
 */
export interface KindReference {
  /** The referenced kind in the graph: `workspace`, `project`, `platform`, … */
  readonly to: string;
  /** Plural name used in the 409's message, e.g. `meshProjects`. */
  readonly kind: string;
  readonly table: string;
  /** Columns that together hold the reference, in the order of the referenced key's values. */
  readonly columns: readonly string[];
  /** Rows with this column set (soft-deleted, ended) do not keep the object. */
  readonly unlessSet?: string;
  readonly onDelete?: 'restrict' | 'cascade' | 'detach';
  /** Removes the rows that go with the deleted object (`key`: its key's values), adding their events. */
  cascade?(trx: Db, key: readonly string[], events: EventDraft[]): Promise<void>;
  /** Lets go of the deleted object (`key`: its key's values) in the rows that name it; answers how many changed. */
  detach?(trx: Db, key: readonly string[]): Promise<number>;
  /** Removes one held object when it is of this kind (`held.kind`, its wire kind), adding its event (and its own references' cascades). */
  deleteHeld?(trx: Db, held: HeldObject, events: EventDraft[], references: ReferenceGraph): Promise<void>;
}

/** An object a holder (a collection) holds, as the holder names it. */
export interface HeldObject {
  /** Its wire kind, e.g. `meshWorkspaceUserGroup`. */
  readonly kind: string;
  readonly workspace: string;
  readonly name: string;
}

/** Every declared reference of the kinds served, by the kind they point at. */
export class ReferenceGraph {
  private readonly byTarget = new Map<string, KindReference[]>();

  constructor(references: readonly KindReference[]) {
    for (const reference of references) {
      const list = this.byTarget.get(reference.to) ?? [];
      list.push(reference);
      this.byTarget.set(reference.to, list);
    }
  }

  /** `["2 meshProjects", "1 meshPlatforms"]`: what keeps the `of` object with this key from being deleted, or `[]`. */
  async holding(db: Db, of: string, key: readonly string[]): Promise<string[]> {
    const found: string[] = [];
    for (const reference of this.byTarget.get(of) ?? []) {
      if (reference.onDelete === 'cascade' || reference.onDelete === 'detach') continue;
      const conditions = reference.columns.map((column, index) => sql`${sql.ref(column)} = ${key[index]}`);
      if (reference.unlessSet) conditions.push(sql`${sql.ref(reference.unlessSet)} is null`);
      const { rows } = await sql<{
        total: number | string;
      }>`select count(*) as total from ${sql.table(reference.table)} where ${sql.join(conditions, sql` and `)}`.execute(db);
      const total = Number(rows[0]?.total ?? 0);
      if (total > 0) found.push(`${total} ${reference.kind}`);
    }
    return found;
  }

  /** Removes, in `trx`, one object the `of` holder holds, by the code of the kind it is of. */
  async deleteHeld(trx: Db, of: string, held: HeldObject, events: EventDraft[]): Promise<void> {
    for (const reference of this.byTarget.get(of) ?? []) await reference.deleteHeld?.(trx, held, events, this);
  }

  /** Lets go, in `trx`, of the deleted `of` object wherever a row names it; answers how many rows changed. */
  async detach(trx: Db, of: string, key: readonly string[]): Promise<number> {
    let changed = 0;
    for (const reference of this.byTarget.get(of) ?? []) changed += (await reference.detach?.(trx, key)) ?? 0;
    return changed;
  }

  /** Removes, in `trx`, what goes with the deleted `of` object, each holding kind by its own code. */
  async cascade(trx: Db, of: string, key: readonly string[], events: EventDraft[]): Promise<void> {
    for (const reference of this.byTarget.get(of) ?? []) await reference.cascade?.(trx, key, events);
  }
}
