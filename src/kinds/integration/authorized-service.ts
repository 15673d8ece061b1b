import type { RequestContext } from '../../auth/context.js';
import { listScope, requireAllowed, seesWorkspace } from '../../auth/policy.js';
import { badRequest, conflict } from '../../lib/errors.js';
import type { Page, PageRequest } from '../../lib/paging.js';
import { canonicalUuid } from '../../lib/validation.js';
import type { AuthorizedRunnerService } from '../runner/authorized-service.js';
import { CallerView } from '../view.js';
import type { Integration, IntegrationInput } from './model.js';
import type { IntegrationService } from './service.js';
import type { IntegrationFilter } from './store.js';

/**
 * Integrations are workspace-scoped unless admin (OpenAPI): `INTEGRATION_*` in the owning workspace,
 * `ADM_INTEGRATION_*` everywhere; the built-in ones (replicator, metering) are read by every caller
 * who may list integrations and changed by nobody (409). A config's runner must be one the caller
 * sees and that serves the integration's workspace (422 otherwise).
 */
export class AuthorizedIntegrationService extends CallerView<Integration> {
  protected readonly kindName = 'meshIntegration';

  constructor(
    private readonly inner: IntegrationService,
    private readonly runners: AuthorizedRunnerService,
  ) {
    super();
  }

  async find(ctx: RequestContext, uuid: string): Promise<Integration | undefined> {
    const id = canonicalUuid(uuid);
    const integration = id ? await this.inner.find(id) : undefined;
    return integration && (integration.builtIn || seesWorkspace(ctx.principal, 'INTEGRATION', integration.ownedByWorkspace))
      ? integration
      : undefined;
  }

  list(ctx: RequestContext, filter: IntegrationFilter, page: PageRequest): Promise<Page<Integration>> {
    const scope = listScope(ctx.principal, 'INTEGRATION');
    return this.inner.list(scope === 'all' ? filter : { ...filter, scope: scope.workspace }, page);
  }

  async create(ctx: RequestContext, input: IntegrationInput): Promise<Integration> {
    requireAllowed(ctx.principal, 'INTEGRATION', 'SAVE', input.ownedByWorkspace);
    await this.requireRunner(ctx, input, input.ownedByWorkspace);
    return this.inner.create(ctx, input);
  }

  async update(ctx: RequestContext, uuid: string, input: IntegrationInput): Promise<Integration> {
    const existing = await this.get(ctx, uuid);
    if (input.uuid !== undefined && input.uuid.toLowerCase() !== existing.uuid)
      throw badRequest(`metadata.uuid: "${input.uuid}" does not match the integration ${uuid} of the path`);
    if (existing.builtIn) throw conflict(`meshIntegration ${existing.uuid} is built in and read-only`);
    requireAllowed(ctx.principal, 'INTEGRATION', 'SAVE', existing.ownedByWorkspace);
    await this.requireRunner(ctx, input, existing.ownedByWorkspace);
    return this.inner.update(ctx, existing, input);
  }

  private async requireRunner(ctx: RequestContext, input: IntegrationInput, workspace: string): Promise<void> {
    if (input.runnerUuid !== undefined)
      await this.runners.resolveFor(ctx, input.runnerUuid, workspace, `spec.config.${input.configType}.runnerRef.uuid`);
  }

  async delete(ctx: RequestContext, uuid: string): Promise<void> {
    const existing = await this.get(ctx, uuid);
    if (existing.builtIn) throw conflict(`meshIntegration ${existing.uuid} is built in and read-only`);
    requireAllowed(ctx.principal, 'INTEGRATION', 'DELETE', existing.ownedByWorkspace);
    await this.inner.delete(ctx, existing);
  }

  /**
   * A definition version of `workspace` names an integration (`field`): one the caller sees that
   * belongs to that workspace (or is built in); 422 otherwise.
   */
  async resolveFor(ctx: RequestContext, uuid: string, workspace: string, field: string): Promise<Integration> {
    const integration = await this.resolve(ctx, uuid, field);
    if (!integration.builtIn && integration.ownedByWorkspace !== workspace) throw this.doesNotExist(uuid, field);
    return integration;
  }
}
