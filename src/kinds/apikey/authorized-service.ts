import type { RequestContext } from '../../auth/context.js';
import { listScope, requireAllowed, seesWorkspace } from '../../auth/policy.js';
import { actsInWorkspace } from '../../auth/principal.js';
import { emptyPage, type Page, type PageRequest } from '../../lib/paging.js';
import { insufficientPermissions } from '../../lib/errors.js';
import { CallerView } from '../view.js';
import { expiryInstant, type ApiKey, type ApiKeyInput } from './model.js';
import type { ApiKeyService } from './service.js';

/**
 * API keys as the caller sees them: its own workspace's, or all with an `ADM_APIKEY_*` code; forbidden
 * writes are 403. Delegation is bounded, as permission boundaries in cloud IAM are: a key grants only
 * permissions it holds itself (so `ADM_` codes come only from admins, spec 5.1), never changes,
 * rotates or deletes a key holding a permission it lacks, and never sets an expiry later than its
 * own. API users hold every permission and no expiry.
 */
export class AuthorizedApiKeyService extends CallerView<ApiKey> {
  protected readonly kindName = 'meshApiKey';

  constructor(private readonly inner: ApiKeyService) {
    super();
  }

  async find(ctx: RequestContext, uuid: string): Promise<ApiKey | undefined> {
    const key = await this.inner.find(uuid);
    return key && seesWorkspace(ctx.principal, 'APIKEY', key.ownedByWorkspace) ? key : undefined;
  }

  /** What a key may hand on: only codes it holds, expiring no later than itself. */
  private checkGrant(ctx: RequestContext, input: ApiKeyInput): void {
    const { principal } = ctx;
    if (!actsInWorkspace(principal)) return;
    const lacking = input.permissions.filter((code) => !principal.permissions.has(code));
    if (lacking.length > 0)
      throw insufficientPermissions(`a key grants only permissions its maker holds; the caller lacks ${lacking.join(', ')}`);
    const expiresAt = principal.type === 'apiKey' ? principal.expiresAt : undefined;
    if (expiresAt !== undefined && (input.expiresAt === undefined || expiryInstant(input.expiresAt) > expiryInstant(expiresAt))) {
      throw insufficientPermissions(
        `spec.expiresAt: a key that expires (${expiresAt}) cannot make or keep a key that expires later or never`,
      );
    }
  }

  /** A key may change, rotate or delete only keys that hold nothing it lacks. */
  private checkTarget(ctx: RequestContext, target: ApiKey): void {
    const { principal } = ctx;
    if (!actsInWorkspace(principal)) return;
    const lacking = target.permissions.filter((code) => !principal.permissions.has(code));
    if (lacking.length > 0) throw insufficientPermissions(`key ${target.uuid} holds permissions this key lacks (${lacking.join(', ')})`);
  }

  async create(ctx: RequestContext, input: ApiKeyInput) {
    requireAllowed(ctx.principal, 'APIKEY', 'SAVE', input.ownedByWorkspace);
    this.inner.validate(input);
    this.checkGrant(ctx, input);
    return this.inner.create(ctx, input);
  }

  async list(ctx: RequestContext, filter: { workspace?: string }, page: PageRequest): Promise<Page<ApiKey>> {
    const scope = listScope(ctx.principal, 'APIKEY');
    if (scope !== 'all' && filter.workspace !== undefined && filter.workspace !== scope.workspace) return emptyPage();
    return this.inner.list(scope === 'all' ? filter : { workspace: scope.workspace }, page);
  }

  async update(ctx: RequestContext, uuid: string, input: ApiKeyInput) {
    const existing = await this.get(ctx, uuid);
    requireAllowed(ctx.principal, 'APIKEY', 'SAVE', existing.ownedByWorkspace);
    this.checkTarget(ctx, existing);
    this.inner.validate(input);
    this.checkGrant(ctx, input);
    return this.inner.update(ctx, existing, input);
  }

  async rotateSecret(ctx: RequestContext, uuid: string) {
    const existing = await this.get(ctx, uuid);
    requireAllowed(ctx.principal, 'APIKEY', 'SAVE', existing.ownedByWorkspace);
    this.checkTarget(ctx, existing);
    return this.inner.rotateSecret(ctx, existing);
  }

  async delete(ctx: RequestContext, uuid: string): Promise<void> {
    const existing = await this.get(ctx, uuid);
    requireAllowed(ctx.principal, 'APIKEY', 'DELETE', existing.ownedByWorkspace);
    this.checkTarget(ctx, existing);
    await this.inner.delete(ctx, existing.uuid);
  }
}
