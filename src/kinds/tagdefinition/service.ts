import type { RequestContext } from '../../auth/context.js';
import { conflict } from '../../lib/errors.js';
import type { PageRequest } from '../../lib/paging.js';
import { isUniqueViolation } from '../../store/database.js';
import type { Db } from '../../store/transaction.js';
import type { EventRecorder } from '../eventlog/recorder.js';
import type { TagDefinition, TagDefinitionInput, Tags, TagTargetKind } from './model.js';
import { enforceTags } from './rules.js';
import { stripTag, TagDefinitionStore } from './store.js';
import { eventOf } from '../eventlog/titles.js';
import { TAG_DEFINITION_EVENTS } from './wire/index.js';
import { TAG_DEFINITION_TITLES } from './events.js';

/** Tag definitions without any notion of who asks (AuthorizedTagDefinitionService adds that). */
export class TagDefinitionService {
  private readonly store: TagDefinitionStore;

  constructor(
    db: Db,
    private readonly events: EventRecorder,
  ) {
    this.store = new TagDefinitionStore(db);
  }

  find(name: string): Promise<TagDefinition | undefined> {
    return this.store.find(name);
  }

  list(page: PageRequest) {
    return this.store.list(page);
  }

  /** The tags a write of a `targetKind` object stores, or 400 naming the tag (see `enforceTags`). */
  async enforce(
    targetKind: TagTargetKind,
    sent: Tags | undefined,
    previous: Tags | undefined,
    options: { admin: boolean; field: string },
  ): Promise<Tags> {
    const definitions = await this.store.ofKind(targetKind);
    return enforceTags(definitions, sent, previous, { ...options, creating: previous === undefined });
  }

  async create(ctx: RequestContext, input: TagDefinitionInput): Promise<TagDefinition> {
    const definition: TagDefinition = { ...input, createdOn: new Date().toISOString() };
    try {
      await this.events.change(ctx, async (trx, events) => {
        await new TagDefinitionStore(trx).insert(definition);
        events.push(
          eventOf(TAG_DEFINITION_TITLES.tagDefinitionCreated, {
            codec: TAG_DEFINITION_EVENTS,
            id: definition.name,
            description: `Tag definition ${definition.name} was created`,
            object: definition,
          }),
        );
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict(`meshTagDefinition ${input.name} already exists`);
      throw error;
    }
    return definition;
  }

  async update(ctx: RequestContext, existing: TagDefinition, input: TagDefinitionInput): Promise<TagDefinition> {
    const definition: TagDefinition = { ...input, createdOn: existing.createdOn };
    await this.events.change(ctx, async (trx, events) => {
      await new TagDefinitionStore(trx).update(definition);
      events.push(
        eventOf(TAG_DEFINITION_TITLES.tagDefinitionChanged, {
          codec: TAG_DEFINITION_EVENTS,
          id: definition.name,
          description: `Tag definition ${definition.name} was changed`,
          object: definition,
          previous: existing,
        }),
      );
    });
    return definition;
  }

  /** Removes the definition and the tag from every object of its kind, in one transaction with its event. */
  async delete(ctx: RequestContext, existing: TagDefinition): Promise<void> {
    await this.events.change(ctx, async (trx, events) => {
      const stripped = await stripTag(trx, existing.targetKind, existing.key);
      await new TagDefinitionStore(trx).delete(existing.name);
      events.push(
        eventOf(TAG_DEFINITION_TITLES.tagDefinitionDeleted, {
          codec: TAG_DEFINITION_EVENTS,
          id: existing.name,
          description: `Tag definition ${existing.name} was deleted; the tag was removed from ${stripped} ${existing.targetKind} object(s)`,
          object: existing,
        }),
      );
    });
  }
}
