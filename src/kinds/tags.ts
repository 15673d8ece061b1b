import { sql } from 'kysely';
import type { Db } from '../store/transaction.js';
import { parseDocument, serializeDocument } from './document.js';
import type { KindReference } from './references.js';
import type { TagTargetKind } from './tagdefinition/model.js';

/** Where a taggable kind keeps its tags: its wire kind, table, key columns and the document's section holding `tags`. */
export interface TagHolder {
  readonly kind: TagTargetKind;
  readonly table: string;
  readonly keys: readonly string[];
  readonly section: 'metadata' | 'spec';
}

/**
 * A taggable kind's reference on the tag definitions of its kind: deleting a definition
 * (`[targetKind, key]`) removes the key from the tags of every object of the holder, which keeps
 * its objects (`detach`).
 */
export const taggedBy = (holder: TagHolder): KindReference => ({
  to: 'tagDefinition',
  kind: `${holder.kind}s`,
  table: holder.table,
  columns: [],
  onDelete: 'detach',
  detach: async (trx, [targetKind, key]) => (targetKind === holder.kind && key !== undefined ? stripTag(trx, holder, key) : 0),
});

/**
 * Removes the key from the tags of the holder's objects (inside the caller's transaction).
 * Candidates are found by a text search of the stored JSON, then each is checked and rewritten.
 * Answers how many objects lost the tag.
 */
async function stripTag(trx: Db, holder: TagHolder, key: string): Promise<number> {
  const needle = `%${JSON.stringify(key).replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const columns = sql.join(holder.keys.map((column) => sql.ref(column)));
  const { rows } = await sql<
    Record<string, string>
  >`select ${columns}, document from ${sql.table(holder.table)} where document like ${needle} escape '\\'`.execute(trx);
  let changed = 0;
  for (const row of rows) {
    const document = parseDocument(row.document!);
    const tags = document[holder.section].tags as Record<string, unknown> | undefined;
    if (!tags || !Object.prototype.hasOwnProperty.call(tags, key)) continue;
    const { [key]: _removed, ...kept } = tags;
    const updated = { ...document, [holder.section]: { ...document[holder.section], tags: kept } };
    const where = sql.join(
      holder.keys.map((column) => sql`${sql.ref(column)} = ${row[column]}`),
      sql` and `,
    );
    await sql`update ${sql.table(holder.table)} set document = ${serializeDocument(updated)} where ${where}`.execute(trx);
    changed++;
  }
  return changed;
}
