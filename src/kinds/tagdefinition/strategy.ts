import { isAdminFor } from '../../auth/policy.js';
import { insufficientPermissions } from '../../lib/errors.js';
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
  beforeDelete: async (trx, definition, references) =>
    `the tag was removed from ${await references.detach(trx, 'tagDefinition', [definition.targetKind, definition.key])} ${definition.targetKind} object(s)`,
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
