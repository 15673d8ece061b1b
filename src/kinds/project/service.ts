import type { RequestContext } from '../../auth/context.js';
import { conflict, unprocessable } from '../../lib/errors.js';
import type { PageRequest } from '../../lib/paging.js';
import { isForeignKeyViolation, isUniqueViolation } from '../../store/database.js';
import type { Db } from '../../store/transaction.js';
import type { EventRecorder } from '../eventlog/recorder.js';
import { differs, eventOf, type EventTitle } from '../eventlog/titles.js';
import type { ReferenceGraph } from '../references.js';
import type { WorkspaceService } from '../workspace/service.js';
import { projectIdentifier, type Project, type ProjectInput } from './model.js';
import { ProjectStore, type ProjectFilter } from './store.js';
import { PROJECT_EVENTS } from './wire/index.js';
import { PROJECT_TITLES } from './events.js';

const subject = (project: Project) => ({
  codec: PROJECT_EVENTS,
  id: projectIdentifier(project),
  workspace: project.workspace,
  object: project,
});

/** Projects without any notion of who asks (AuthorizedProjectService adds that). */
export class ProjectService {
  private readonly store: ProjectStore;

  constructor(
    private readonly db: Db,
    private readonly workspaces: WorkspaceService,
    private readonly events: EventRecorder,
    private readonly references: ReferenceGraph,
  ) {
    this.store = new ProjectStore(db);
  }

  async create(ctx: RequestContext, input: ProjectInput): Promise<Project> {
    await this.workspaces.requireExists(input.workspace, 'metadata.ownedByWorkspace');
    const project: Project = { ...input, createdOn: new Date().toISOString() };
    try {
      await this.events.change(ctx, async (trx, events) => {
        await new ProjectStore(trx).insert(project);
        events.push(eventOf(PROJECT_TITLES.projectCreated, subject(project)));
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict(`meshProject ${projectIdentifier(input)} already exists`);
      if (isForeignKeyViolation(error))
        throw unprocessable(`metadata.ownedByWorkspace: meshWorkspace "${input.workspace}" does not exist`, 'WORKSPACE');
      throw error;
    }
    return project;
  }

  find(workspace: string, name: string): Promise<Project | undefined> {
    return this.store.find(workspace, name);
  }

  /**
   * 422 naming the field when a body names a project of its owning workspace that does not exist
   * (the caller's permission in that workspace was checked first).
   */
  async requireExisting(workspace: string, name: string, field: string): Promise<Project> {
    const project = await this.store.find(workspace, name);
    if (!project) throw unprocessable(`${field}: meshProject "${name}" does not exist in meshWorkspace "${workspace}"`, 'PROJECT');
    return project;
  }

  list(filter: ProjectFilter, page: PageRequest) {
    return this.store.list(filter, page);
  }

  async update(ctx: RequestContext, existing: Project, input: ProjectInput): Promise<Project> {
    const project: Project = { ...input, createdOn: existing.createdOn };
    const keys: EventTitle[] = [];
    if (differs(existing.document.spec.displayName, project.document.spec.displayName)) keys.push(PROJECT_TITLES.projectNameChanged);
    if (differs(existing.document.metadata.tags ?? {}, project.document.metadata.tags ?? {})) keys.push(PROJECT_TITLES.projectTagsChanged);
    if (keys.length === 0 && differs(existing, project)) keys.push(PROJECT_TITLES.projectChanged);
    if (keys.length === 0) return project;
    await this.events.change(ctx, async (trx, events) => {
      await new ProjectStore(trx).update(project);
      for (const key of keys) events.push(eventOf(key, { ...subject(project), previous: existing }));
    });
    return project;
  }

  /**
   * 409 while live tenants or service instances belong to it; the records of its deleted tenants and
   * its deleting service instances go with it, in one transaction.
   */
  async delete(ctx: RequestContext, project: Project): Promise<void> {
    const dependents = await this.references.holding(this.db, 'project', [project.workspace, project.name]);
    if (dependents.length > 0)
      throw conflict(`meshProject ${projectIdentifier(project)} still has ${dependents.join(', ')}; delete them first`);
    try {
      await this.events.change(ctx, async (trx, events) => {
        await this.references.cascade(trx, 'project', [project.workspace, project.name], events);
        await new ProjectStore(trx).delete(project);
        events.push(eventOf(PROJECT_TITLES.projectDeleted, subject(project)));
      });
    } catch (error) {
      if (isForeignKeyViolation(error))
        throw conflict(`meshProject ${projectIdentifier(project)} still has tenants or service instances; delete them first`);
      throw error;
    }
  }
}
