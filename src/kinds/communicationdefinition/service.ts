import { randomUUID } from 'node:crypto';
import type { RequestContext } from '../../auth/context.js';
import { conflict } from '../../lib/errors.js';
import type { PageRequest } from '../../lib/paging.js';
import { isForeignKeyViolation } from '../../store/database.js';
import type { Db } from '../../store/transaction.js';
import type { EventRecorder } from '../eventlog/recorder.js';
import type { ReferenceGraph } from '../references.js';
import { differs, eventOf } from '../eventlog/titles.js';
import { noCommunications, type CommunicationContent, type CommunicationDefinition } from './model.js';
import { CommunicationDefinitionStore, type CommunicationDefinitionFilter } from './store.js';
import { COMMUNICATION_DEFINITION_EVENTS } from './wire/index.js';
import { COMMUNICATION_DEFINITION_TITLES } from './events.js';

// A definition belongs to no workspace: its events are the admins' (they read every workspace's
// events), so their content keeps the counters over every workspace.
const subject = (definition: CommunicationDefinition) => ({
  codec: COMMUNICATION_DEFINITION_EVENTS,
  id: definition.uuid,
  object: definition,
});

/** Communication definitions without any notion of who asks (AuthorizedCommunicationDefinitionService adds that). */
export class CommunicationDefinitionService {
  private readonly store: CommunicationDefinitionStore;

  constructor(
    db: Db,
    private readonly events: EventRecorder,
    private readonly references: ReferenceGraph,
  ) {
    this.store = new CommunicationDefinitionStore(db);
  }

  find(uuid: string): Promise<CommunicationDefinition | undefined> {
    return this.store.find(uuid);
  }

  /**
   * These definitions, each with the counters of `workspace`'s communications only (zero where none
   * of them names it), counted in one grouped query.
   */
  async countedIn(workspace: string, definitions: readonly CommunicationDefinition[]): Promise<CommunicationDefinition[]> {
    const counts = await this.store.countsIn(
      workspace,
      definitions.map((definition) => definition.uuid),
    );
    return definitions.map((definition) => ({ ...definition, counters: counts.get(definition.uuid) ?? noCommunications() }));
  }

  list(filter: CommunicationDefinitionFilter, page: PageRequest) {
    return this.store.list(filter, page);
  }

  async create(ctx: RequestContext, communication: CommunicationContent): Promise<CommunicationDefinition> {
    const definition: CommunicationDefinition = {
      uuid: randomUUID(),
      communication,
      counters: noCommunications(),
      createdOn: new Date().toISOString(),
    };
    await this.events.change(ctx, async (trx, events) => {
      await new CommunicationDefinitionStore(trx).insert(definition);
      events.push(eventOf(COMMUNICATION_DEFINITION_TITLES.communicationDefinitionCreated, subject(definition)));
    });
    return definition;
  }

  /** The type changes only while no communication names the definition (409 otherwise). */
  async update(
    ctx: RequestContext,
    existing: CommunicationDefinition,
    communication: CommunicationContent,
  ): Promise<CommunicationDefinition> {
    if (!differs(existing.communication, communication)) return existing;
    return this.events.change(ctx, async (trx, events) => {
      const store = new CommunicationDefinitionStore(trx);
      if (!(await store.update(existing.uuid, communication))) {
        throw conflict(
          `spec.communication.type: meshCommunicationDefinition ${existing.uuid} has communications; its type stays ${existing.communication.type}`,
        );
      }
      // The counters as they are now (communications may have moved them since `existing` was read).
      const updated = (await store.find(existing.uuid))!;
      events.push(eventOf(COMMUNICATION_DEFINITION_TITLES.communicationDefinitionUpdated, { ...subject(updated), previous: existing }));
      return updated;
    });
  }

  /** 409 while communications name it: delete them first (each moves the counters and is recorded). */
  async delete(ctx: RequestContext, existing: CommunicationDefinition): Promise<void> {
    const refuse = (what: string) => conflict(`meshCommunicationDefinition ${existing.uuid} still has ${what}; delete them first`);
    try {
      await this.events.change(ctx, async (trx, events) => {
        const store = new CommunicationDefinitionStore(trx);
        const dependents = await this.references.holding(trx, 'communicationDefinition', [existing.uuid]);
        if (dependents.length > 0) throw refuse(dependents.join(', '));
        await store.delete(existing.uuid);
        events.push(eventOf(COMMUNICATION_DEFINITION_TITLES.communicationDefinitionDeleted, subject(existing)));
      });
    } catch (error) {
      if (isForeignKeyViolation(error)) throw refuse('meshCommunications');
      throw error;
    }
  }
}
