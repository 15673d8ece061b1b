import { sql, type Selectable } from 'kysely';
import type { Page, PageRequest } from '../../lib/paging.js';
import { fetchPage } from '../../store/paged.js';
import type { TagDefinitionTable, Tables } from '../../store/schema.js';
import type { Db } from '../../store/transaction.js';
import { parseDocument, serializeDocument } from '../document.js';
import type { TagDefinition, TagDefinitionInput, TagTargetKind, TagValueType } from './model.js';

const toModel = (row: Selectable<TagDefinitionTable>): TagDefinition => {
  const document = parseDocument(row.document);
  const spec = document.spec as {
    displayName: string;
    valueType: TagValueType;
    mandatory?: boolean;
    immutable?: boolean;
    restricted?: boolean;
  };
  return {
    name: row.name,
    targetKind: row.target_kind as TagTargetKind,
    key: row.tag_key,
    displayName: spec.displayName,
    valueType: spec.valueType,
    mandatory: spec.mandatory ?? false,
    immutable: spec.immutable ?? false,
    restricted: spec.restricted ?? false,
    createdOn: row.created_on,
    document,
  };
};

/** The `tag_definitions` table. */
export class TagDefinitionStore {
  constructor(private readonly db: Db) {}

  async insert(definition: TagDefinitionInput & { createdOn: string }): Promise<void> {
    await this.db
      .insertInto('tag_definitions')
      .values({
        name: definition.name,
        target_kind: definition.targetKind,
        tag_key: definition.key,
        document: serializeDocument(definition.document),
        created_on: definition.createdOn,
      })
      .execute();
  }

  async update(definition: TagDefinition): Promise<void> {
    await this.db
      .updateTable('tag_definitions')
      .set({ document: serializeDocument(definition.document) })
      .where('name', '=', definition.name)
      .execute();
  }

  async find(name: string): Promise<TagDefinition | undefined> {
    const row = await this.db.selectFrom('tag_definitions').selectAll().where('name', '=', name).executeTakeFirst();
    return row ? toModel(row) : undefined;
  }

  /** Every definition of one kind, in one query (index `tag_definitions_target`). */
  async ofKind(targetKind: TagTargetKind): Promise<TagDefinition[]> {
    const rows = await this.db.selectFrom('tag_definitions').selectAll().where('target_kind', '=', targetKind).orderBy('tag_key').execute();
    return rows.map(toModel);
  }

  async list(page: PageRequest): Promise<Page<TagDefinition>> {
    const { rows, total } = await fetchPage(
      this.db.selectFrom('tag_definitions'),
      (q) => q.selectAll().orderBy('created_on').orderBy('name'),
      page,
    );
    return { items: rows.map(toModel), total };
  }

  async delete(name: string): Promise<void> {
    await this.db.deleteFrom('tag_definitions').where('name', '=', name).execute();
  }
}

/** Where each taggable kind keeps its tags: its table, key columns and the document's section. */
const TAGGED: Partial<Record<TagTargetKind, { table: keyof Tables; keys: readonly string[]; section: 'metadata' | 'spec' }>> = {
  meshWorkspace: { table: 'workspaces', keys: ['name'], section: 'metadata' },
  meshProject: { table: 'projects', keys: ['workspace', 'name'], section: 'spec' },
  meshPaymentMethod: { table: 'payment_methods', keys: ['name'], section: 'spec' },
  meshLandingZone: { table: 'landing_zones', keys: ['name'], section: 'metadata' },
  meshBuildingBlockDefinition: { table: 'definitions', keys: ['uuid'], section: 'metadata' },
};

/**
 * The unit of work of a tag definition's deletion that writes other kinds' tables: removes the key
 * from the tags of every object of the target kind (inside the caller's transaction). Candidates are
 * found by a text search of the stored JSON, then each is checked and rewritten. Answers how many
 * objects lost the tag.
 */
export async function stripTag(trx: Db, targetKind: TagTargetKind, key: string): Promise<number> {
  const tagged = TAGGED[targetKind];
  if (!tagged) return 0;
  const needle = `%${JSON.stringify(key).replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const columns = sql.join(tagged.keys.map((column) => sql.ref(column)));
  const { rows } = await sql<
    Record<string, string>
  >`select ${columns}, document from ${sql.table(tagged.table)} where document like ${needle} escape '\\'`.execute(trx);
  let changed = 0;
  for (const row of rows) {
    const document = parseDocument(row.document!);
    const tags = document[tagged.section].tags as Record<string, unknown> | undefined;
    if (!tags || !Object.prototype.hasOwnProperty.call(tags, key)) continue;
    const { [key]: _removed, ...kept } = tags;
    const updated = { ...document, [tagged.section]: { ...document[tagged.section], tags: kept } };
    const where = sql.join(
      tagged.keys.map((column) => sql`${sql.ref(column)} = ${row[column]}`),
      sql` and `,
    );
    await sql`update ${sql.table(tagged.table)} set document = ${serializeDocument(updated)} where ${where}`.execute(trx);
    changed++;
  }
  return changed;
}
