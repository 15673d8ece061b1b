import type { RequestContext } from '../../auth/context.js';
import type { Resource } from '../../auth/permissions.js';
import { listScope, requireAllowed, seesWorkspace } from '../../auth/policy.js';
import { badRequest, type MissingReference } from '../../lib/errors.js';
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
  sees(ctx: RequestContext, object: T): boolean;
  /** Conditions every list of this caller carries, or `none` when it may list nothing. */
  listBound(ctx: RequestContext): ColumnFilter | 'none';
  /** 403 unless the caller may write (or delete) this object, before and after the change. */
  requireWrite(ctx: RequestContext, object: T | Input, action: 'SAVE' | 'DELETE'): void;
}

/** Objects owned by a workspace (`workspaceOf`, stored in `column`): seen and written there, by its members, and by admins. */
export function ownedByWorkspace<T, Input>(
  resource: Resource,
  column: string,
  workspaceOf: (object: T | Input) => string,
): CrudAccess<T, Input> {
  return {
    sees: (ctx, object) => seesWorkspace(ctx.principal, resource, workspaceOf(object)),
    listBound: (ctx) => {
      const scope = listScope(ctx.principal, resource);
      return scope === 'all' ? {} : { [column]: scope.workspace };
    },
    requireWrite: (ctx, object, action) => requireAllowed(ctx.principal, resource, action, workspaceOf(object)),
  };
}

/** How a CRUD-shaped kind names itself to callers. */
export interface CrudNames<Input> {
  /** The wire kind, e.g. `meshGadget`. */
  readonly kind: string;
  /** The identifier a body names (`metadata.name`), checked against the path's on update. */
  idOfInput(input: Input): string;
  /** What an update's mismatch message calls it (the wire kind unless given). */
  readonly noun?: string;
  /** The import's result code when a body names one the caller cannot see. */
  readonly missing?: MissingReference;
}

/** A CRUD-shaped kind as callers reach it: the plain service behind its access rules. */
export class AuthorizedCrudService<T, Input> extends CallerView<T> {
  protected readonly kindName: string;
  protected override readonly missing: MissingReference;
  private readonly idOfInput: (input: Input) => string;
  private readonly noun: string;

  constructor(
    private readonly inner: CrudService<T, Input>,
    private readonly access: CrudAccess<T, Input>,
    names: CrudNames<Input>,
  ) {
    super();
    this.kindName = names.kind;
    this.missing = names.missing ?? 'OTHER';
    this.idOfInput = (input) => names.idOfInput(input);
    this.noun = names.noun ?? names.kind;
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
    this.access.requireWrite(ctx, object, action);
  }

  create(ctx: RequestContext, input: Input): Promise<T> {
    this.requireWrite(ctx, input);
    return this.inner.create(ctx, input);
  }

  async update(ctx: RequestContext, id: string, input: Input): Promise<T> {
    const named = this.idOfInput(input);
    if (named !== id) throw badRequest(`metadata.name: "${named}" does not match the ${this.noun} "${id}" of the path`);
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
