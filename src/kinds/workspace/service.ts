import type { RequestContext } from '../../auth/context.js';
import { conflict, notFound, unprocessable } from '../../lib/errors.js';
import type { PageRequest } from '../../lib/paging.js';
import { isForeignKeyViolation, isUniqueViolation } from '../../store/database.js';
import type { Db } from '../../store/transaction.js';
import type { EventRecorder } from '../eventlog/recorder.js';
import type { ReferenceGraph } from '../references.js';
import { differs, eventOf, type EventTitle } from '../eventlog/titles.js';
import type { Workspace, WorkspaceInput } from './model.js';
import { WorkspaceStore } from './store.js';
import { WORKSPACE_EVENTS } from './wire/index.js';
import { WORKSPACE_TITLES } from './events.js';

/** What a workspace's events say about it. */
const subject = (workspace: Workspace) => ({ codec: WORKSPACE_EVENTS, id: workspace.name, workspace: workspace.name, object: workspace });

/** Workspaces without any notion of who asks (AuthorizedWorkspaceService adds that). */
export class WorkspaceService {
  private readonly store: WorkspaceStore;
  private readonly deletionListeners: ((name: string) => void)[] = [];

  constructor(
    private readonly db: Db,
    private readonly events: EventRecorder,
    private readonly references: ReferenceGraph,
  ) {
    this.store = new WorkspaceStore(db);
  }

  /** Called after a workspace is gone (its API keys went with it: caches must forget them). */
  onDeleted(listener: (name: string) => void): void {
    this.deletionListeners.push(listener);
  }

  async create(ctx: RequestContext, input: WorkspaceInput): Promise<Workspace> {
    const workspace: Workspace = { ...input, createdOn: new Date().toISOString() };
    try {
      await this.events.change(ctx, async (trx, events) => {
        await new WorkspaceStore(trx).insert(workspace);
        events.push(eventOf(WORKSPACE_TITLES.workspaceCreated, subject(workspace)));
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict(`meshWorkspace ${input.name} already exists`);
      throw error;
    }
    return workspace;
  }

  find(name: string): Promise<Workspace | undefined> {
    return this.store.find(name);
  }

  async get(name: string): Promise<Workspace> {
    const workspace = await this.store.find(name);
    if (!workspace) throw notFound(`meshWorkspace ${name} not found`);
    return workspace;
  }

  /**
   * 422 naming the field when a body names an owning workspace that does not exist. Callers check the
   * permission to act in that workspace first (403 whether or not it exists), so this reveals nothing.
   */
  async requireExists(name: string, field: string): Promise<void> {
    if (!(await this.store.exists(name))) throw unprocessable(`${field}: meshWorkspace "${name}" does not exist`, 'WORKSPACE');
  }

  namesWithDisplayNameContaining(text: string): Promise<string[]> {
    return this.store.namesWithDisplayNameContaining(text);
  }

  list(filter: { name?: string }, page: PageRequest) {
    return this.store.list(filter, page);
  }

  /** PUT replaces the tags and the spec (COMPAT §7); the name is the identity. */
  async update(ctx: RequestContext, existing: Workspace, input: WorkspaceInput): Promise<Workspace> {
    const workspace = { ...existing, document: input.document };
    const keys: EventTitle[] = [];
    if (differs(existing.document.spec.displayName, workspace.document.spec.displayName)) keys.push(WORKSPACE_TITLES.workspaceNameChanged);
    if (differs(existing.document.metadata.tags ?? {}, workspace.document.metadata.tags ?? {}))
      keys.push(WORKSPACE_TITLES.workspaceTagsChanged);
    if (keys.length === 0 && differs(existing.document, workspace.document)) keys.push(WORKSPACE_TITLES.workspaceChanged);
    if (keys.length === 0) return workspace; // nothing changed: nothing to write, no event
    await this.events.change(ctx, async (trx, events) => {
      await new WorkspaceStore(trx).update(workspace);
      for (const key of keys) events.push(eventOf(key, { ...subject(workspace), previous: existing }));
    });
    return workspace;
  }

  /** 409 while the workspace owns anything; what goes with it (its API keys) goes in one transaction. */
  async delete(ctx: RequestContext, workspace: Workspace): Promise<void> {
    const dependents = await this.references.holding(this.db, 'workspace', [workspace.name]);
    if (dependents.length > 0) throw conflict(`meshWorkspace ${workspace.name} still owns ${dependents.join(', ')}; delete them first`);
    try {
      await this.events.change(ctx, async (trx, events) => {
        await this.references.cascade(trx, 'workspace', [workspace.name], events);
        await new WorkspaceStore(trx).delete(workspace.name);
        events.push(eventOf(WORKSPACE_TITLES.workspaceDeleted, subject(workspace)));
      });
    } catch (error) {
      // Something was added between the check and the delete.
      if (isForeignKeyViolation(error)) throw conflict(`meshWorkspace ${workspace.name} still owns objects; delete them first`);
      throw error;
    }
    for (const listener of this.deletionListeners) listener(workspace.name);
  }
}
