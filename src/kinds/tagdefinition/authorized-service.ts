import type { RequestContext } from '../../auth/context.js';
import { isAdminFor } from '../../auth/policy.js';
import { badRequest, insufficientPermissions } from '../../lib/errors.js';
import type { Page, PageRequest } from '../../lib/paging.js';
import { CallerView } from '../view.js';
import type { TagDefinition, TagDefinitionInput, Tags, TagTargetKind } from './model.js';
import type { TagDefinitionService } from './service.js';

/**
 * Tag definitions: reading is free (OpenAPI: "does not require any special permissions"), writing
 * needs `ADM_TAGDEFINITION_SAVE` / `_DELETE` (there are no workspace-scoped codes).
 */
export class AuthorizedTagDefinitionService extends CallerView<TagDefinition> {
  protected readonly kindName = 'meshTagDefinition';

  constructor(private readonly inner: TagDefinitionService) {
    super();
  }

  find(_ctx: RequestContext, name: string): Promise<TagDefinition | undefined> {
    return this.inner.find(name);
  }

  list(_ctx: RequestContext, page: PageRequest): Promise<Page<TagDefinition>> {
    return this.inner.list(page);
  }

  private requireAdmin(ctx: RequestContext, action: 'SAVE' | 'DELETE'): void {
    if (!isAdminFor(ctx.principal, 'TAGDEFINITION', action)) throw insufficientPermissions(`ADM_TAGDEFINITION_${action} is required`);
  }

  async create(ctx: RequestContext, input: TagDefinitionInput): Promise<TagDefinition> {
    this.requireAdmin(ctx, 'SAVE');
    return this.inner.create(ctx, input);
  }

  /** PUT: an upsert by name; target kind and key are the name, so they never change. */
  async save(ctx: RequestContext, name: string, input: TagDefinitionInput): Promise<TagDefinition> {
    if (input.name !== name) throw badRequest(`metadata.name: "${input.name}" does not match the tag definition "${name}" of the path`);
    this.requireAdmin(ctx, 'SAVE');
    const existing = await this.find(ctx, name);
    return existing ? this.inner.update(ctx, existing, input) : this.inner.create(ctx, input);
  }

  async delete(ctx: RequestContext, name: string): Promise<void> {
    const existing = await this.get(ctx, name);
    this.requireAdmin(ctx, 'DELETE');
    await this.inner.delete(ctx, existing);
  }

  /**
   * The tags a write of a `targetKind` object may store (defaults applied on create), or 400 naming
   * the tag. `previous`: the object's tags before an update (undefined on create). `admin`: whether
   * the caller is an admin of the kind (restricted tags are set only by admins).
   */
  enforce(
    _ctx: RequestContext,
    targetKind: TagTargetKind,
    sent: unknown,
    previous: unknown,
    admin: boolean,
    field = 'spec.tags',
  ): Promise<Tags> {
    return this.inner.enforce(targetKind, sent as Tags | undefined, previous as Tags | undefined, { admin, field });
  }
}
