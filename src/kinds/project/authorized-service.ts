import type { RequestContext } from '../../auth/context.js';
import { listScope, requireAllowed, seesWorkspace } from '../../auth/policy.js';
import { badRequest } from '../../lib/errors.js';
import { emptyPage, type Page, type PageRequest } from '../../lib/paging.js';
import { CallerView } from '../view.js';
import { parseProjectIdentifier, projectIdentifier, type Project, type ProjectInput } from './model.js';
import type { ProjectService } from './service.js';
import type { ProjectFilter } from './store.js';

/** Projects as the caller sees them: its own workspace's (`PROJECT_*`), or all (`ADM_PROJECT_*`). */
export class AuthorizedProjectService extends CallerView<Project> {
  protected readonly kindName = 'meshProject';
  protected override readonly missing = 'PROJECT' as const;

  constructor(private readonly inner: ProjectService) {
    super();
  }

  /** By `<workspace>.<project>`. */
  async find(ctx: RequestContext, id: string): Promise<Project | undefined> {
    const parts = parseProjectIdentifier(id);
    return parts && seesWorkspace(ctx.principal, 'PROJECT', parts.workspace) ? this.inner.find(parts.workspace, parts.name) : undefined;
  }

  list(ctx: RequestContext, filter: ProjectFilter, page: PageRequest): Promise<Page<Project>> {
    const scope = listScope(ctx.principal, 'PROJECT');
    if (scope !== 'all' && filter.workspace !== undefined && filter.workspace !== scope.workspace) return Promise.resolve(emptyPage());
    return this.inner.list(scope === 'all' ? filter : { ...filter, workspace: scope.workspace }, page);
  }

  async create(ctx: RequestContext, input: ProjectInput): Promise<Project> {
    requireAllowed(ctx.principal, 'PROJECT', 'SAVE', input.workspace);
    return this.inner.create(ctx, input);
  }

  async update(ctx: RequestContext, id: string, input: ProjectInput): Promise<Project> {
    const existing = await this.get(ctx, id);
    if (input.workspace !== existing.workspace) throw badRequest(`metadata.ownedByWorkspace: "${input.workspace}" does not match the project "${id}" of the path`);
    if (input.name !== existing.name) throw badRequest(`metadata.name: "${input.name}" does not match the project "${id}" of the path`);
    requireAllowed(ctx.principal, 'PROJECT', 'SAVE', existing.workspace);
    return this.inner.update(ctx, existing, input);
  }

  /** The declarative import: create or update by workspace and name. */
  async save(ctx: RequestContext, input: ProjectInput): Promise<{ project: Project; created: boolean }> {
    const existing = await this.find(ctx, projectIdentifier(input));
    if (!existing) return { project: await this.create(ctx, input), created: true };
    requireAllowed(ctx.principal, 'PROJECT', 'SAVE', input.workspace);
    return { project: await this.inner.update(ctx, existing, input), created: false };
  }

  async delete(ctx: RequestContext, id: string): Promise<void> {
    const existing = await this.get(ctx, id);
    requireAllowed(ctx.principal, 'PROJECT', 'DELETE', existing.workspace);
    await this.inner.delete(ctx, existing);
  }
}
