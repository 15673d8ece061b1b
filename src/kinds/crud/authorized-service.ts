import type { RequestContext } from '../../auth/context.js';
import type { Resource } from '../../auth/permissions.js';
import { listScope, requireAllowed, seesWorkspace } from '../../auth/policy.js';
import { badRequest } from '../../lib/errors.js';
import type { Page, PageRequest } from '../../lib/paging.js';
import { CallerView } from '../view.js';
import type { CrudService } from './service.js';
import type { ColumnFilter } from './store.js';

/**
 * Who may do what with a CRUD-shaped kind's objects, said once (Backstage's permission-as-filter):
 * which objects a caller sees, which filter bounds its lists, and where a write needs its permission.
 * `find`, `get`, `resolve` and `list` are derived from these, so no list runs without the caller's bound.
 */
export interface CrudAccess<T, Input> {
  readonly resource: Resource;
  sees(ctx: RequestContext, object: T): boolean;
  /** Conditions every list of this caller carries, or `none` when it may list nothing. */
  listBound(ctx: RequestContext): ColumnFilter | 'none';
  /** The workspace a write of this object needs its permission in (undefined: admins only). */
  writtenIn(object: T | Input): string | undefined;
}

/** Objects owned by a workspace (`workspaceOf`, stored in `column`): seen and written there, by its members, and by admins. */
export function ownedByWorkspace<T, Input>(
  resource: Resource,
  column: string,
  workspaceOf: (object: T | Input) => string,
): CrudAccess<T, Input> {
  return {
    resource,
    sees: (ctx, object) => seesWorkspace(ctx.principal, resource, workspaceOf(object)),
    listBound: (ctx) => {
      const scope = listScope(ctx.principal, resource);
      return scope === 'all' ? {} : { [column]: scope.workspace };
    },
    writtenIn: workspaceOf,
  };
}

/** A CRUD-shaped kind as callers reach it: the plain service behind its access rules. */
export class AuthorizedCrudService<T, Input> extends CallerView<T> {
  constructor(
    protected readonly kindName: string,
    private readonly inner: CrudService<T, Input>,
    private readonly access: CrudAccess<T, Input>,
    /** The identifier a body names (`metadata.name`), checked against the path's on update. */
    private readonly idOfInput: (input: Input) => string,
  ) {
    super();
  }

  async find(ctx: RequestContext, id: string): Promise<T | undefined> {
    const object = await this.inner.find(id);
    return object !== undefined && this.access.sees(ctx, object) ? object : undefined;
  }

  /** The caller's bound is added to the list's filter; a filter outside it finds nothing. */
  async list(ctx: RequestContext, filter: ColumnFilter, page: PageRequest): Promise<Page<T>> {
    const bound = this.access.listBound(ctx);
    if (bound === 'none') return { items: [], total: 0 };
    for (const [column, value] of Object.entries(bound))
      if (value !== undefined && filter[column] !== undefined && filter[column] !== value) return { items: [], total: 0 };
    return this.inner.list({ ...filter, ...bound }, page);
  }

  private requireWrite(ctx: RequestContext, object: T | Input, action: 'SAVE' | 'DELETE' = 'SAVE'): void {
    requireAllowed(ctx.principal, this.access.resource, action, this.access.writtenIn(object));
  }

  create(ctx: RequestContext, input: Input): Promise<T> {
    this.requireWrite(ctx, input);
    return this.inner.create(ctx, input);
  }

  async update(ctx: RequestContext, id: string, input: Input): Promise<T> {
    const named = this.idOfInput(input);
    if (named !== id) throw badRequest(`metadata.name: "${named}" does not match the ${this.kindName} "${id}" of the path`);
    const existing = await this.get(ctx, id);
    this.requireWrite(ctx, existing);
    this.requireWrite(ctx, input);
    return this.inner.update(ctx, existing, input);
  }

  /** Create or update by identifier (the declarative import). */
  async save(ctx: RequestContext, input: Input): Promise<{ object: T; created: boolean }> {
    const existing = await this.find(ctx, this.idOfInput(input));
    if (!existing) return { object: await this.create(ctx, input), created: true };
    return { object: await this.update(ctx, this.idOfInput(input), input), created: false };
  }

  async delete(ctx: RequestContext, id: string): Promise<void> {
    const existing = await this.get(ctx, id);
    this.requireWrite(ctx, existing, 'DELETE');
    await this.inner.delete(ctx, existing);
  }
}
