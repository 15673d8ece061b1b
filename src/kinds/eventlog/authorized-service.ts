import type { RequestContext } from '../../auth/context.js';
import { listScope, seesWorkspace, seesEveryWorkspace } from '../../auth/policy.js';
import type { Page, PageRequest } from '../../lib/paging.js';
import { CallerView } from '../view.js';
import type { EventFilter, EventRecord } from './model.js';
import type { EventQuery } from './query.js';
import type { EventLogService } from './service.js';

/**
 * The event log as the caller sees it: API users and keys with `ADM_EVENTLOG_LIST` every event (those
 * of no workspace too), keys with `EVENTLOG_LIST` their own workspace's. Another workspace's event
 * is 404 by uuid and absent from lists and streams — `filterFor` folds the caller's view into the
 * filter, so a list (SQL) and a stream (in memory) read one and the same description (`filter.ts`).
 */
export class AuthorizedEventLogService extends CallerView<EventRecord> {
  protected readonly kindName = 'meshEventLog';

  constructor(private readonly inner: EventLogService) {
    super();
  }

  async find(ctx: RequestContext, uuid: string): Promise<EventRecord | undefined> {
    const event = await this.inner.find(uuid);
    if (!event) return undefined;
    const everything = seesEveryWorkspace(ctx.principal, 'EVENTLOG');
    return everything || (event.workspace !== undefined && seesWorkspace(ctx.principal, 'EVENTLOG', event.workspace)) ? event : undefined;
  }

  /**
   * The filter of a list or stream: the query's, `workspaceName` resolved to the identifiers of the
   * workspaces whose display name contains it (resolved now: a stream keeps the workspaces named at
   * its start), restricted to what the caller may see. 403 without `EVENTLOG_LIST` or its `ADM_` twin.
   */
  async filterFor(ctx: RequestContext, query: EventQuery): Promise<EventFilter> {
    const scope = listScope(ctx.principal, 'EVENTLOG');
    const { workspaceName, workspaceIdentifier, ...rest } = query;
    let workspaces: string[] | undefined;
    if (workspaceIdentifier !== undefined) workspaces = [workspaceIdentifier];
    if (workspaceName !== undefined) workspaces = await this.inner.workspacesNamed(workspaceName);
    if (scope !== 'all') workspaces = (workspaces ?? [scope.workspace]).filter((name) => name === scope.workspace);
    return workspaces === undefined ? rest : { ...rest, workspaces };
  }

  /** Newest first (by position). */
  async list(ctx: RequestContext, query: EventQuery, page: PageRequest): Promise<Page<EventRecord>> {
    return this.inner.list(await this.filterFor(ctx, query), page);
  }
}
