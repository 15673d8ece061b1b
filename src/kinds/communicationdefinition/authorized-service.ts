import type { RequestContext } from '../../auth/context.js';
import { isAdminFor, listScope, seesEveryWorkspace } from '../../auth/policy.js';
import { actsInWorkspace } from '../../auth/principal.js';
import { badRequest, insufficientPermissions } from '../../lib/errors.js';
import type { Page, PageRequest } from '../../lib/paging.js';
import { canonicalUuid } from '../../lib/validation.js';
import { CallerView } from '../view.js';
import type { CommunicationContent, CommunicationContentUpdate, CommunicationDefinition } from './model.js';
import type { CommunicationDefinitionService } from './service.js';
import type { CommunicationDefinitionFilter } from './store.js';

/**
 * Communication definitions as the caller sees them. They belong to no workspace: admins
 * (`ADM_COMMUNICATIONDEFINITION_*`) see and write every one; a workspace's key sees those sent to its
 * workspace (a communication of it names them; `COMMUNICATIONDEFINITION_LIST` lists them) and writes none.
 * The counters count what the caller may see: admins (they send definitions) every workspace's
 * communications, a workspace's key its own workspace's only (docs/communications.md).
 */
export class AuthorizedCommunicationDefinitionService extends CallerView<CommunicationDefinition> {
  protected readonly kindName = 'meshCommunicationDefinition';

  constructor(private readonly inner: CommunicationDefinitionService) {
    super();
  }

  async find(ctx: RequestContext, id: string): Promise<CommunicationDefinition | undefined> {
    const uuid = canonicalUuid(id);
    const definition = uuid === undefined ? undefined : await this.inner.find(uuid);
    if (!definition) return undefined;
    if (seesEveryWorkspace(ctx.principal, 'COMMUNICATIONDEFINITION')) return definition;
    if (!actsInWorkspace(ctx.principal)) return undefined;
    const [own] = await this.inner.countedIn(ctx.principal.workspace, [definition]);
    // Sent to the key's workspace: one of its communications names it.
    return own!.counters.total > 0 ? own : undefined;
  }

  async list(ctx: RequestContext, filter: CommunicationDefinitionFilter, page: PageRequest): Promise<Page<CommunicationDefinition>> {
    const scope = listScope(ctx.principal, 'COMMUNICATIONDEFINITION');
    const found = await this.inner.list(scope === 'all' ? filter : { ...filter, sentTo: scope.workspace }, page);
    if (scope === 'all' || seesEveryWorkspace(ctx.principal, 'COMMUNICATIONDEFINITION')) return found;
    return { ...found, items: await this.inner.countedIn(scope.workspace, found.items) };
  }

  async create(ctx: RequestContext, communication: CommunicationContent): Promise<CommunicationDefinition> {
    requireAdmin(ctx, 'SAVE');
    return this.inner.create(ctx, communication);
  }

  /** PUT by uuid (no upsert: the server makes the uuids); a `type` left out stays. */
  async update(
    ctx: RequestContext,
    id: string,
    sent: { uuid?: string; communication: CommunicationContentUpdate },
  ): Promise<CommunicationDefinition> {
    const existing = await this.get(ctx, id);
    requireAdmin(ctx, 'SAVE');
    if (sent.uuid !== undefined && canonicalUuid(sent.uuid) !== existing.uuid)
      throw badRequest(`metadata.uuid: "${sent.uuid}" does not match the meshCommunicationDefinition ${id} of the path`);
    return this.inner.update(ctx, existing, { ...sent.communication, type: sent.communication.type ?? existing.communication.type });
  }

  async delete(ctx: RequestContext, id: string): Promise<void> {
    const existing = await this.get(ctx, id);
    requireAdmin(ctx, 'DELETE');
    await this.inner.delete(ctx, existing);
  }
}

function requireAdmin(ctx: RequestContext, action: 'SAVE' | 'DELETE'): void {
  if (!isAdminFor(ctx.principal, 'COMMUNICATIONDEFINITION', action))
    throw insufficientPermissions(`ADM_COMMUNICATIONDEFINITION_${action} is required (definitions belong to no workspace)`);
}
