import type { RequestContext } from '../../auth/context.js';
import { isAdminFor, listScope, requireAllowed, seesWorkspace } from '../../auth/policy.js';
import { badRequest, unprocessable } from '../../lib/errors.js';
import type { Page, PageRequest } from '../../lib/paging.js';
import type { AuthorizedTagDefinitionService } from '../tagdefinition/authorized-service.js';
import { placeTags } from '../tagdefinition/model.js';
import { CallerView } from '../view.js';
import { isExpired, type PaymentMethod, type PaymentMethodInput } from './model.js';
import type { PaymentMethodService } from './service.js';

/**
 * Payment methods as the caller sees them: its own workspace's (`PAYMENTMETHOD_LIST` lists them), or
 * all with an `ADM_PAYMENTMETHOD_*` code. Only admins write them (`ADM_PAYMENTMETHOD_SAVE/DELETE`:
 * there are no workspace-scoped write codes).
 */
export class AuthorizedPaymentMethodService extends CallerView<PaymentMethod> {
  protected readonly kindName = 'meshPaymentMethod';

  constructor(
    private readonly inner: PaymentMethodService,
    private readonly tags: AuthorizedTagDefinitionService,
  ) {
    super();
  }

  async find(ctx: RequestContext, name: string): Promise<PaymentMethod | undefined> {
    const method = await this.inner.find(name);
    return method && seesWorkspace(ctx.principal, 'PAYMENTMETHOD', method.ownedByWorkspace) ? method : undefined;
  }

  /**
   * The OpenAPI: "the server will ignore this filter when the request principal does not have
   * permission to read payment methods in any workspace": a workspace-scoped key lists its own.
   */
  list(ctx: RequestContext, filter: { workspace?: string }, page: PageRequest): Promise<Page<PaymentMethod>> {
    const scope = listScope(ctx.principal, 'PAYMENTMETHOD');
    return this.inner.list(scope === 'all' ? filter : { workspace: scope.workspace }, page);
  }

  async create(ctx: RequestContext, input: PaymentMethodInput): Promise<PaymentMethod> {
    requireAllowed(ctx.principal, 'PAYMENTMETHOD', 'SAVE', input.ownedByWorkspace);
    return this.inner.create(ctx, await this.withTags(ctx, input, undefined));
  }

  /** PUT: an upsert by name (OpenAPI); the owning workspace of an existing method never changes. */
  async save(ctx: RequestContext, name: string, input: PaymentMethodInput): Promise<{ method: PaymentMethod; created: boolean }> {
    if (input.name !== name) throw badRequest(`metadata.name: "${input.name}" does not match the payment method "${name}" of the path`);
    const existing = await this.find(ctx, name);
    if (!existing) return { method: await this.create(ctx, input), created: true };
    if (input.ownedByWorkspace !== existing.ownedByWorkspace)
      throw badRequest(
        `metadata.ownedByWorkspace: the payment method ${name} belongs to meshWorkspace "${existing.ownedByWorkspace}" and cannot move to another`,
      );
    requireAllowed(ctx.principal, 'PAYMENTMETHOD', 'SAVE', existing.ownedByWorkspace);
    return { method: await this.inner.update(ctx, existing, await this.withTags(ctx, input, existing)), created: false };
  }

  async delete(ctx: RequestContext, name: string): Promise<void> {
    const existing = await this.get(ctx, name);
    requireAllowed(ctx.principal, 'PAYMENTMETHOD', 'DELETE', existing.ownedByWorkspace);
    await this.inner.delete(ctx, existing);
  }

  /**
   * A project names a payment method (`field`) for a project of `workspace`: it must be a live method of
   * that workspace (422 otherwise); a new assignment of an expired one is refused (422), an unchanged
   * one is kept (the substitute pays meanwhile, see `activePaymentMethod`).
   */
  async resolveForProject(ctx: RequestContext, name: string, workspace: string, field: string, unchanged: boolean): Promise<PaymentMethod> {
    const method = await this.find(ctx, name);
    if (!method || method.deletedOn || method.ownedByWorkspace !== workspace)
      throw unprocessable(`${field}: meshPaymentMethod "${name}" does not exist in meshWorkspace "${workspace}"`);
    if (!unchanged && isExpired(method)) throw unprocessable(`${field}: meshPaymentMethod "${name}" expired on ${method.expirationDate}`);
    return method;
  }

  private async withTags(ctx: RequestContext, input: PaymentMethodInput, existing: PaymentMethod | undefined): Promise<PaymentMethodInput> {
    const admin = isAdminFor(ctx.principal, 'PAYMENTMETHOD', 'SAVE');
    const tags = await this.tags.enforce(ctx, 'meshPaymentMethod', input.document.spec.tags, existing?.document.spec.tags, admin);
    return { ...input, document: { ...input.document, spec: placeTags(input.document.spec, tags) } };
  }
}
