import type { RequestContext } from '../../auth/context.js';
import { isAdmin, requireAllowed } from '../../auth/policy.js';
import { badRequest, insufficientPermissions, notFound } from '../../lib/errors.js';
import type { CollectedObject, ObjectCollection } from './model.js';
import type { CollectionService } from './service.js';

/**
 * Object collections belong to no workspace: admins (API users, keys with an `ADM_` code, as for the
 * import) create and delete them. Declarative deletion deletes each object with the caller's
 * permission in its workspace (`WORKSPACEPRINCIPALBINDING_DELETE`, `ADM_` for any).
 */
export class AuthorizedCollectionService {
  constructor(private readonly inner: CollectionService) {}

  private requireAdmin(ctx: RequestContext): void {
    if (!isAdmin(ctx.principal)) throw insufficientPermissions('only API users and keys with admin (ADM_) permissions manage meshObjectCollections');
  }

  async create(ctx: RequestContext, input: Omit<ObjectCollection, 'createdOn'>): Promise<ObjectCollection> {
    this.requireAdmin(ctx);
    return this.inner.create(ctx, input);
  }

  /** A collection by name and owner (another owner's collection of that name is none). */
  private async named(name: string, owner: string | undefined): Promise<ObjectCollection | undefined> {
    const collection = await this.inner.find(name);
    return collection && (owner === undefined || collection.owner === owner) ? collection : undefined;
  }

  async delete(ctx: RequestContext, name: string, owner: string): Promise<void> {
    this.requireAdmin(ctx);
    const collection = await this.named(name, owner);
    if (!collection) throw notFound(`meshObjectCollection ${name} of owner ${owner} not found`);
    await this.inner.delete(ctx, collection);
  }

  /** The collection an import names (`meshObjectCollection`, `owner`): 400 when there is none. */
  async forImport(ctx: RequestContext, name: string, owner: string | undefined): Promise<ObjectCollection> {
    this.requireAdmin(ctx);
    const collection = await this.named(name, owner);
    if (!collection) throw badRequest(`meshObjectCollection: no collection "${name}"${owner !== undefined ? ` of owner "${owner}"` : ''}; create it first (POST /api/meshobjectcollections)`);
    return collection;
  }

  /**
   * Declarative deletion: the collection's objects the import did not name (`kept`: ids by kind) go,
   * all in one transaction (the import's, when it runs in the import's unit of work), each only with
   * the caller's delete permission in its workspace (a 403 deletes nothing). Returns what was deleted.
   */
  async deleteMissing(ctx: RequestContext, collection: ObjectCollection, kept: ReadonlyMap<string, ReadonlySet<string>>): Promise<CollectedObject[]> {
    const missing = (await this.inner.members(collection.name)).filter((object) => !kept.get(object.kind)?.has(object.id));
    for (const object of missing) requireAllowed(ctx.principal, 'WORKSPACEPRINCIPALBINDING', 'DELETE', object.workspace);
    await this.inner.deleteObjects(ctx, missing);
    return missing;
  }
}
