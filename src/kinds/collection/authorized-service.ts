import type { RequestContext } from '../../auth/context.js';
import type { Action } from '../../auth/permissions.js';
import { isAdminFor, requireAllowed, seesEveryWorkspace, seesWorkspace } from '../../auth/policy.js';
import { badRequest, insufficientPermissions, notFound } from '../../lib/errors.js';
import type { CollectedObject, ObjectCollection } from './model.js';
import { noSuchOwner, type CollectionService } from './service.js';

/** What a collection holds is governed by this resource (groups are saved with it too). */
const HELD = 'WORKSPACEPRINCIPALBINDING';

/**
 * Object collections belong to a workspace or to admins (`ownedByWorkspace` null). A workspace's
 * collection is there only for callers who see that workspace's bindings (its own keys, keys with an
 * `ADM_WORKSPACEPRINCIPALBINDING_*` code, API users); an admins' one only for the latter two. For
 * anyone else it does not exist (the answers of a name that matches nothing), whatever `ADM_` code
 * opened the route. Creating and deleting one take the SAVE and DELETE of bindings where it belongs.
 * Declarative deletion deletes each object with the caller's permission in its workspace.
 */
export class AuthorizedCollectionService {
  constructor(private readonly inner: CollectionService) {}

  private sees(ctx: RequestContext, collection: ObjectCollection): boolean {
    const owner = collection.ownedByWorkspace;
    return owner === null ? seesEveryWorkspace(ctx.principal, HELD) : seesWorkspace(ctx.principal, HELD, owner);
  }

  private requireManaging(ctx: RequestContext, ownedByWorkspace: string | null, action: Action): void {
    if (ownedByWorkspace !== null) return requireAllowed(ctx.principal, HELD, action, ownedByWorkspace);
    if (!isAdminFor(ctx.principal, HELD, action))
      throw insufficientPermissions(`ADM_${HELD}_${action} is required for a meshObjectCollection of admins only (ownedByWorkspace null)`);
  }

  async create(ctx: RequestContext, input: Omit<ObjectCollection, 'createdOn'>): Promise<ObjectCollection> {
    const owner = input.ownedByWorkspace;
    if (owner !== null && !seesWorkspace(ctx.principal, HELD, owner)) throw noSuchOwner(owner);
    this.requireManaging(ctx, owner, 'SAVE');
    return this.inner.create(ctx, input);
  }

  /** A collection by name and owner label, if the caller sees it (another owner's collection of that name is none). */
  private async visible(ctx: RequestContext, name: string, owner: string | undefined): Promise<ObjectCollection | undefined> {
    const collection = await this.inner.find(name);
    return collection && (owner === undefined || collection.owner === owner) && this.sees(ctx, collection) ? collection : undefined;
  }

  async delete(ctx: RequestContext, name: string, owner: string): Promise<void> {
    const collection = await this.visible(ctx, name, owner);
    if (!collection) throw notFound(`meshObjectCollection ${name} of owner ${owner} not found`);
    this.requireManaging(ctx, collection.ownedByWorkspace, 'DELETE');
    await this.inner.delete(ctx, collection);
  }

  /** The collection an import names (`meshObjectCollection`, `owner`): 400 when there is none for the caller. */
  async forImport(ctx: RequestContext, name: string, owner: string | undefined): Promise<ObjectCollection> {
    const collection = await this.visible(ctx, name, owner);
    if (!collection)
      throw badRequest(
        `meshObjectCollection: no collection "${name}"${owner !== undefined ? ` of owner "${owner}"` : ''}; create it first (POST /api/meshobjectcollections)`,
      );
    return collection;
  }

  /**
   * Declarative deletion: the collection's objects the import did not name (`kept`: ids by kind) go,
   * all in one transaction (the import's, when it runs in the import's unit of work), each only with
   * the caller's delete permission in its workspace (a 403 deletes nothing). Returns what was deleted.
   */
  async deleteMissing(
    ctx: RequestContext,
    collection: ObjectCollection,
    kept: ReadonlyMap<string, ReadonlySet<string>>,
  ): Promise<CollectedObject[]> {
    const missing = (await this.inner.members(collection.name)).filter((object) => !kept.get(object.kind)?.has(object.id));
    for (const object of missing) requireAllowed(ctx.principal, HELD, 'DELETE', object.workspace);
    await this.inner.deleteObjects(ctx, missing);
    return missing;
  }
}
