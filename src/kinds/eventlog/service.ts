import type { Page, PageRequest } from '../../lib/paging.js';
import { canonicalUuid } from '../../lib/validation.js';
import type { Db } from '../../store/transaction.js';
import type { EventFilter, EventRecord } from './model.js';
import { EventStore } from './store.js';

/** What the event log asks of the workspaces: which have a display name containing a text (`workspaceName`). */
export interface WorkspaceNames {
  namesWithDisplayNameContaining(text: string): Promise<string[]>;
}

/** The event log without any notion of who asks (AuthorizedEventLogService adds that). */
export class EventLogService {
  private readonly store: EventStore;

  constructor(
    db: Db,
    private readonly workspaces: WorkspaceNames,
    /** `Database.durable`: the log shows an event only once it is on disk (its uuid may be a stream's Last-Event-ID). */
    private readonly durable: () => Promise<void> = () => Promise.resolve(),
  ) {
    this.store = new EventStore(db);
  }

  async find(uuid: string): Promise<EventRecord | undefined> {
    const id = canonicalUuid(uuid);
    const found = id ? await this.store.find(id) : undefined;
    if (found) await this.durable();
    return found;
  }

  async list(filter: EventFilter, page: PageRequest): Promise<Page<EventRecord>> {
    const found = await this.store.list(filter, page);
    if (found.items.length > 0) await this.durable();
    return found;
  }

  /** The identifiers of the workspaces whose display name contains `text` (case-insensitive). */
  workspacesNamed(text: string): Promise<string[]> {
    return this.workspaces.namesWithDisplayNameContaining(text);
  }

  /** Deletes at most `limit` events created before `before`; answers how many went. */
  prune(before: string, limit: number): Promise<number> {
    return this.store.prune(before, limit);
  }
}
