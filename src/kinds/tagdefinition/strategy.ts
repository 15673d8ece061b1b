import { sql } from 'kysely';
import { isAdminFor } from '../../auth/policy.js';
import { insufficientPermissions } from '../../lib/errors.js';
import type { Tables } from '../../store/schema.js';
import type { Db } from '../../store/transaction.js';
import { actionOf, SEEN_BY_ALL, type CrudAccess } from '../crud/authorized-service.js';
import type { CrudStrategy } from '../crud/service.js';
import { parseDocument, serializeDocument } from '../document.js';
import { TAG_DEFINITION_TITLES } from './events.js';
import type { TagDefinition, TagDefinitionInput, TagTargetKind, TagValueType } from './model.js';
import { TAG_DEFINITION_EVENTS } from './wire/index.js';

/**
 * A tag definition's rules: named `<targetKind>.<key>` (so a PUT never changes either); its deletion
 * removes the tag from every object of its kind.
 */
export const TAG_DEFINITION_STRATEGY: CrudStrategy<TagDefinition, TagDefinitionInput> = {
  kind: 'meshTagDefinition',
  table: {
    table: 'tag_definitions',
    key: 'name',
    toRow: (definition) => ({
      name: definition.name,
      target_kind: definition.targetKind,
      tag_key: definition.key,
      document: serializeDocument(definition.document),
    }),
    fromRow(row) {
      const document = parseDocument(String(row.document));
      const spec = document.spec as {
        displayName: string;
        valueType: TagValueType;
        mandatory?: boolean;
        immutable?: boolean;
        restricted?: boolean;
      };
      return {
        name: String(row.name),
        targetKind: row.target_kind as TagTargetKind,
        key: String(row.tag_key),
        displayName: spec.displayName,
        valueType: spec.valueType,
        mandatory: spec.mandatory ?? false,
        immutable: spec.immutable ?? false,
        restricted: spec.restricted ?? false,
        document,
      };
    },
  },
  events: {
    created: TAG_DEFINITION_TITLES.tagDefinitionCreated,
    changed: TAG_DEFINITION_TITLES.tagDefinitionChanged,
    deleted: TAG_DEFINITION_TITLES.tagDefinitionDeleted,
  },
  eventCodec: TAG_DEFINITION_EVENTS,
  describe: (definition, change) => `Tag definition ${definition.name} was ${change}`,
  prepareForCreate: (input) => ({ ...input, createdOn: new Date().toISOString() }),
  prepareForUpdate: (existing, input) => ({ ...input, createdOn: existing.createdOn }),
  writeUnchanged: true,
  beforeDelete: async (trx, definition) =>
    `the tag was removed from ${await stripTag(trx, definition.targetKind, definition.key)} ${definition.targetKind} object(s)`,
};

/**
 * Tag definitions: reading is free (OpenAPI: "does not require any special permissions"), writing
 * needs `ADM_TAGDEFINITION_SAVE` / `_DELETE` (there are no workspace-scoped codes).
 */
export const TAG_DEFINITION_ACCESS: CrudAccess<TagDefinition, TagDefinitionInput> = {
  ...SEEN_BY_ALL,
  requireWrite(ctx, write) {
    const action = actionOf(write);
    if (!isAdminFor(ctx.principal, 'TAGDEFINITION', action)) throw insufficientPermissions(`ADM_TAGDEFINITION_${action} is required`);
  },
};

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
async function stripTag(trx: Db, targetKind: TagTargetKind, key: string): Promise<number> {
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
