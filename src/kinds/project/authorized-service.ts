import type { RequestContext } from '../../auth/context.js';
import { isAdminFor, listScope, requireAllowed, seesWorkspace } from '../../auth/policy.js';
import { badRequest } from '../../lib/errors.js';
import { emptyPage, type Page, type PageRequest } from '../../lib/paging.js';
import type { AuthorizedPaymentMethodService } from '../paymentmethod/authorized-service.js';
import { isExpired, type PaymentMethod } from '../paymentmethod/model.js';
import type { AuthorizedTagDefinitionService } from '../tagdefinition/authorized-service.js';
import { placeTags } from '../tagdefinition/model.js';
import { CallerView } from '../view.js';
import { parseProjectIdentifier, projectIdentifier, type Project, type ProjectInput } from './model.js';
import type { ProjectService } from './service.js';
import type { ProjectFilter } from './store.js';

/** Projects as the caller sees them: its own workspace's (`PROJECT_*`), or all (`ADM_PROJECT_*`). */
export class AuthorizedProjectService extends CallerView<Project> {
  protected readonly kindName = 'meshProject';
  protected override readonly missing = 'PROJECT' as const;

  constructor(
    private readonly inner: ProjectService,
    private readonly paymentMethods: AuthorizedPaymentMethodService,
    private readonly tags: AuthorizedTagDefinitionService,
  ) {
    super();
  }

  /**
   * The catalogue's rules for a project write: its payment method and substitute must be
   * live methods of its workspace (422), newly assigned ones not expired (422); the tag definitions of
   * meshProject apply to `spec.tags` (checked first). Answers the input to store and the active payment method.
   */
  private async catalogue(
    ctx: RequestContext,
    input: ProjectInput,
    existing: Project | undefined,
  ): Promise<{ input: ProjectInput; active: string | undefined }> {
    // Tags first: a bad value is a bad body (400) before a reference is looked at (422).
    const tags = await this.tags.enforce(
      ctx,
      'meshProject',
      input.document.spec.tags,
      existing ? (existing.document.spec.tags ?? {}) : undefined,
      isAdminFor(ctx.principal, 'PROJECT', 'SAVE'),
    );
    const resolve = async (name: string | undefined, previous: string | undefined, field: string): Promise<PaymentMethod | undefined> =>
      name === undefined ? undefined : this.paymentMethods.resolveForProject(ctx, name, input.workspace, field, name === previous);
    const method = await resolve(input.paymentMethodIdentifier, existing?.paymentMethodIdentifier, 'spec.paymentMethodIdentifier');
    const substitute = await resolve(
      input.substitutePaymentMethodIdentifier,
      existing?.substitutePaymentMethodIdentifier,
      'spec.substitutePaymentMethodIdentifier',
    );
    const active = [method, substitute].find((candidate) => candidate !== undefined && !isExpired(candidate))?.name;
    return { input: { ...input, document: { ...input.document, spec: placeTags(input.document.spec, tags) } }, active };
  }

  private async createChecked(ctx: RequestContext, input: ProjectInput): Promise<Project> {
    const checked = await this.catalogue(ctx, input, undefined);
    return withActive(await this.inner.create(ctx, checked.input), checked.active);
  }

  private async updateChecked(ctx: RequestContext, existing: Project, input: ProjectInput): Promise<Project> {
    const checked = await this.catalogue(ctx, input, existing);
    return withActive(await this.inner.update(ctx, existing, checked.input), checked.active);
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
    return this.createChecked(ctx, input);
  }

  async update(ctx: RequestContext, id: string, input: ProjectInput): Promise<Project> {
    const existing = await this.get(ctx, id);
    if (input.workspace !== existing.workspace)
      throw badRequest(`metadata.ownedByWorkspace: "${input.workspace}" does not match the project "${id}" of the path`);
    if (input.name !== existing.name) throw badRequest(`metadata.name: "${input.name}" does not match the project "${id}" of the path`);
    requireAllowed(ctx.principal, 'PROJECT', 'SAVE', existing.workspace);
    return this.updateChecked(ctx, existing, input);
  }

  /** The declarative import: create or update by workspace and name. */
  async save(ctx: RequestContext, input: ProjectInput): Promise<{ project: Project; created: boolean }> {
    const existing = await this.find(ctx, projectIdentifier(input));
    if (!existing) return { project: await this.create(ctx, input), created: true };
    requireAllowed(ctx.principal, 'PROJECT', 'SAVE', input.workspace);
    return { project: await this.updateChecked(ctx, existing, input), created: false };
  }

  async delete(ctx: RequestContext, id: string): Promise<void> {
    const existing = await this.get(ctx, id);
    requireAllowed(ctx.principal, 'PROJECT', 'DELETE', existing.workspace);
    await this.inner.delete(ctx, existing);
  }
}

function withActive(project: Project, active: string | undefined): Project {
  const { activePaymentMethod: _computed, ...rest } = project;
  return active === undefined ? rest : { ...rest, activePaymentMethod: active };
}
