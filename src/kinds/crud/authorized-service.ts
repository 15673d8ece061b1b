import type { RequestContext } from '../../auth/context.js';
import type { Resource } from '../../auth/permissions.js';
import { listScope, requireAllowed, seesWorkspace } from '../../auth/policy.js';
import { badRequest, type MissingReference } from '../../lib/errors.js';
import { emptyPage, type Page, type PageRequest } from '../../lib/paging.js';
import { CallerView } from '../view.js';
import type { CrudService } from './service.js';
import type { ColumnFilter, Created } from './store.js';

/** A write a caller asks for, as its access rule judges it. */
export type CrudWrite<T, Input> =
  | { readonly op: 'create'; readonly input: Input }
  /** `id`: the identifier as the path names it. */
  | { readonly op: 'update'; readonly id: string; readonly existing: T; readonly input: Input }
  | { readonly op: 'delete'; readonly existing: T };

/**
 * Who may do what with a CRUD-shaped kind's objects, said once (Backstage's permission-as-filter):
 * which objects a caller sees, which filter bounds its lists, and where a write needs its permission.
 * `find`, `get`, `resolve` and `list` are derived from these, so no list runs without the caller's bound.
 */
export interface CrudAccess<T, Input> {
  sees(ctx: RequestContext, object: T): boolean;
  /** Conditions every list of this caller carries, or `none` when it may list nothing. */
  listBound(ctx: RequestContext): ColumnFilter | 'none';
  /**
   * Whether the bound takes the place of the list's own filter on the same column (the filter is
   * ignored) instead of narrowing it (a filter outside the bound finds nothing).
   */
  readonly boundReplacesFilter?: boolean;
  /** 403 unless the caller may make this write (400 when no caller may). */
  requireWrite(ctx: RequestContext, write: CrudWrite<T, Input>): void | Promise<void>;
}

/** The permission a write needs: `SAVE` to make or change an object, `DELETE` to delete it. */
export const actionOf = (write: CrudWrite<unknown, unknown>): 'SAVE' | 'DELETE' => (write.op === 'delete' ? 'DELETE' : 'SAVE');

/** Reads of a kind every caller sees whole (locations, tag definitions, project roles). */
export const SEEN_BY_ALL = { sees: () => true, listBound: () => ({}) } as const;

/**
 * The write check of a kind whose permission is decided by one object at a time: a create by what
 * it makes, an update by the object before and after, a deletion by the object.
 */
export function eachObjectWritten<T, Input>(
  check: (ctx: RequestContext, object: T | Input, action: 'SAVE' | 'DELETE') => void,
): CrudAccess<T, Input>['requireWrite'] {
  return (ctx, write) => {
    if (write.op === 'create') return check(ctx, write.input, 'SAVE');
    if (write.op === 'delete') return check(ctx, write.existing, 'DELETE');
    check(ctx, write.existing, 'SAVE');
    check(ctx, write.input, 'SAVE');
  };
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
    requireWrite: eachObjectWritten((ctx, object, action) => requireAllowed(ctx.principal, resource, action, workspaceOf(object))),
  };
}

/** How a CRUD-shaped kind names itself to callers. */
export interface CrudNames<Input> {
  /** The wire kind, e.g. `meshGadget`. */
  readonly kind: string;
  /**
   * The identifier a body names (`metadata.name`), checked against the path's on update before the
   * object is read; without it the access rule checks what the body names, and there is no upsert.
   */
  idOfInput?(input: Input): string;
  /** The key a path's identifier stands for (a uuid in any case), or undefined when it names none. */
  canonicalId?(id: string): string | undefined;
  /** What an update's mismatch message calls it (the wire kind unless given). */
  readonly noun?: string;
  /** The import's result code when a body names one the caller cannot see. */
  readonly missing?: MissingReference;
  /**
   * What a PUT naming an object the caller cannot see answers: a create (which finds the name taken,
   * 409) by default, or the 404 of every path naming an invisible object.
   */
  readonly putOverInvisible?: 'create' | 'notFound';
}

/** A CRUD-shaped kind as callers reach it: the plain service behind its access rules. */
export class AuthorizedCrudService<T extends Created, Input> extends CallerView<T> {
  protected readonly kindName: string;
  protected override readonly missing: MissingReference;

  constructor(
    protected readonly inner: CrudService<T, Input>,
    private readonly access: CrudAccess<T, Input>,
    private readonly names: CrudNames<Input>,
  ) {
    super();
    this.kindName = names.kind;
    this.missing = names.missing ?? 'OTHER';
  }

  async find(ctx: RequestContext, id: string): Promise<T | undefined> {
    const key = this.names.canonicalId ? this.names.canonicalId(id) : id;
    const object = key === undefined ? undefined : await this.inner.find(key);
    return object !== undefined && this.access.sees(ctx, object) ? object : undefined;
  }

  /** The caller's bound is added to the list's filter. */
  async list(ctx: RequestContext, filter: ColumnFilter, page: PageRequest): Promise<Page<T>> {
    const bound = this.access.listBound(ctx);
    if (bound === 'none') return emptyPage();
    if (!this.access.boundReplacesFilter)
      for (const [column, value] of Object.entries(bound))
        if (value !== undefined && filter[column] !== undefined && filter[column] !== value) return emptyPage();
    return this.inner.list({ ...filter, ...bound }, page);
  }

  create(ctx: RequestContext, input: Input): Promise<T> {
    return this.write(ctx, { op: 'create', input }, () => this.inner.create(ctx, input));
  }

  /** 400 when the body names another object than the path. */
  private requireNamed(id: string, named: string | undefined): void {
    if (named !== undefined && named !== id)
      throw badRequest(`metadata.name: "${named}" does not match the ${this.names.noun ?? this.names.kind} "${id}" of the path`);
  }

  /** The identifier the body names, for an upsert. */
  private namedIn(input: Input): string {
    if (!this.names.idOfInput) throw new Error(`${this.names.kind} bodies name no identifier: there is no upsert`);
    return this.names.idOfInput(input);
  }

  /** PUT of an existing object: 404 unless the caller sees it. */
  async update(ctx: RequestContext, id: string, input: Input): Promise<T> {
    this.requireNamed(id, this.names.idOfInput?.(input));
    return this.replace(ctx, id, await this.get(ctx, id), input);
  }

  private replace(ctx: RequestContext, id: string, existing: T, input: Input): Promise<T> {
    return this.write(ctx, { op: 'update', id, existing, input }, () => this.inner.update(ctx, existing, input));
  }

  /** PUT as an upsert by identifier: creates the object or replaces it. */
  async put(ctx: RequestContext, id: string, input: Input): Promise<{ object: T; created: boolean }> {
    this.requireNamed(id, this.namedIn(input));
    const existing = await this.find(ctx, id);
    if (!existing) {
      // `get` answers the 404 of an object the caller cannot see.
      if (this.names.putOverInvisible === 'notFound' && (await this.inner.find(id)) !== undefined) await this.get(ctx, id);
      return { object: await this.create(ctx, input), created: true };
    }
    return { object: await this.replace(ctx, id, existing, input), created: false };
  }

  /** Create or update by identifier (the declarative import). */
  save(ctx: RequestContext, input: Input): Promise<{ object: T; created: boolean }> {
    return this.put(ctx, this.namedIn(input), input);
  }

  async delete(ctx: RequestContext, id: string): Promise<void> {
    const existing = await this.get(ctx, id);
    await this.write(ctx, { op: 'delete', existing }, () => this.inner.delete(ctx, existing));
  }

  private async write<R>(ctx: RequestContext, write: CrudWrite<T, Input>, run: () => Promise<R>): Promise<R> {
    await this.access.requireWrite(ctx, write);
    return run();
  }
}
