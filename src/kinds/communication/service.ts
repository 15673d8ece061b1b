import { randomUUID } from 'node:crypto';
import type { RequestContext } from '../../auth/context.js';
import { conflict, notFound, unprocessable } from '../../lib/errors.js';
import type { PageRequest } from '../../lib/paging.js';
import { isForeignKeyViolation, isUniqueViolation } from '../../store/database.js';
import type { Db } from '../../store/transaction.js';
import { isResolvable, noCommunications } from '../communicationdefinition/model.js';
import { CommunicationDefinitionStore } from '../communicationdefinition/store.js';
import type { EventRecorder } from '../eventlog/recorder.js';
import { eventOf, type EventTitle } from '../eventlog/titles.js';
import type { Communication, TargetRef } from './model.js';
import { CommunicationStore, type CommunicationFilter } from './store.js';
import { COMMUNICATION_EVENTS } from './wire/index.js';
import { COMMUNICATION_TITLES } from './events.js';

/**
 * The event of a change, filed under the communication's workspace, whose members read it: its
 * description says how the change left that workspace's counts of the definition, never another
 * workspace's (counted in the change's transaction).
 */
async function eventAbout(trx: Db, key: EventTitle, communication: Communication, verb: string) {
  const { target, definition, workspace } = communication;
  const counts = await new CommunicationDefinitionStore(trx).countsIn(workspace, [definition.uuid]);
  const counters = counts.get(definition.uuid) ?? noCommunications();
  const tally = isResolvable(definition.type)
    ? `${counters.open} open, ${counters.resolved} resolved of ${counters.total}`
    : `${counters.total} sent`;
  return eventOf(key, {
    codec: COMMUNICATION_EVENTS,
    id: communication.uuid,
    workspace,
    object: communication,
    description: `meshCommunication ${communication.uuid} to ${target.kind} ${target.name} ${verb} (meshCommunicationDefinition ${definition.uuid} in workspace ${workspace}: ${tally})`,
  });
}

/**
 * Communications without any notion of who asks (AuthorizedCommunicationService adds that). Every
 * change moves its definition's counters in the same transaction, with `UPDATE … SET x = x ± 1`
 * guarded by the change itself (only the request that moved a communication from OPEN moves the
 * counters), so concurrent requests on several instances keep them exact.
 */
export class CommunicationService {
  private readonly store: CommunicationStore;

  constructor(
    db: Db,
    private readonly events: EventRecorder,
  ) {
    this.store = new CommunicationStore(db);
  }

  find(uuid: string): Promise<Communication | undefined> {
    return this.store.find(uuid);
  }

  list(filter: CommunicationFilter, page: PageRequest) {
    return this.store.list(filter, page);
  }

  /** One communication per definition and target (409); an ACTION_REQUIRED one starts OPEN. */
  async create(ctx: RequestContext, sent: { definitionUuid: string; target: TargetRef; workspace: string }): Promise<Communication> {
    const gone = () =>
      unprocessable(`spec.communicationDefinitionRef.uuid: meshCommunicationDefinition "${sent.definitionUuid}" does not exist`);
    try {
      return await this.events.change(ctx, async (trx, events) => {
        const definition = await new CommunicationDefinitionStore(trx).countCreated(sent.definitionUuid);
        if (!definition) throw gone();
        const { title, dueDate, type } = definition.communication;
        const communication: Communication = {
          uuid: randomUUID(),
          workspace: sent.workspace,
          target: sent.target,
          definition: { uuid: definition.uuid, title, dueDate, type },
          ...(isResolvable(type) ? { resolutionStatus: 'OPEN' as const } : {}),
          createdOn: new Date().toISOString(),
        };
        await new CommunicationStore(trx).insert(communication);
        events.push(await eventAbout(trx, COMMUNICATION_TITLES.communicationCreated, communication, 'was created'));
        return communication;
      });
    } catch (error) {
      if (isUniqueViolation(error))
        throw conflict(
          `spec.targetMeshObjectRef: meshCommunicationDefinition ${sent.definitionUuid} was already sent to ${sent.target.kind} ${sent.target.name}`,
        );
      if (isForeignKeyViolation(error))
        throw unprocessable(`spec.targetMeshObjectRef.name: meshWorkspace "${sent.workspace}" does not exist`, 'WORKSPACE');
      throw error;
    }
  }

  /**
   * OPEN → RESOLVED, moving one count from open to resolved. Resolving a RESOLVED one changes nothing;
   * a NOTIFICATION has nothing to resolve (409).
   */
  async resolve(ctx: RequestContext, existing: Communication): Promise<Communication> {
    if (!isResolvable(existing.definition.type))
      throw conflict(`meshCommunication ${existing.uuid} is a ${existing.definition.type}: there is nothing to resolve`);
    const resolved = await this.events.change(ctx, async (trx, events) => {
      if (!(await new CommunicationStore(trx).resolve(existing.uuid))) return false;
      await new CommunicationDefinitionStore(trx).move(existing.definition.uuid, { total: 0, open: -1, resolved: 1 });
      events.push(
        await eventAbout(trx, COMMUNICATION_TITLES.communicationResolved, { ...existing, resolutionStatus: 'RESOLVED' }, 'was resolved'),
      );
      return true;
    });
    const current = resolved ? { ...existing, resolutionStatus: 'RESOLVED' as const } : await this.store.find(existing.uuid);
    if (!current) throw notFound(`meshCommunication ${existing.uuid} not found`);
    return current;
  }

  /** Removes it and its counts (as it stood when deleted); a second DELETE changes nothing. */
  async delete(ctx: RequestContext, existing: Communication): Promise<void> {
    await this.events.change(ctx, async (trx, events) => {
      const deleted = await new CommunicationStore(trx).delete(existing.uuid);
      if (!deleted) return;
      const delta = {
        total: -1,
        open: deleted.resolutionStatus === 'OPEN' ? -1 : 0,
        resolved: deleted.resolutionStatus === 'RESOLVED' ? -1 : 0,
      };
      await new CommunicationDefinitionStore(trx).move(existing.definition.uuid, delta);
      const { resolutionStatus: _before, ...rest } = existing;
      const last =
        deleted.resolutionStatus === null ? rest : { ...rest, resolutionStatus: deleted.resolutionStatus as 'OPEN' | 'RESOLVED' };
      events.push(await eventAbout(trx, COMMUNICATION_TITLES.communicationDeleted, last, 'was deleted'));
    });
  }
}
