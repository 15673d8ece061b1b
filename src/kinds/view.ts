import type { RequestContext } from '../auth/context.js';
import { notFound, unprocessable, type MissingReference } from '../lib/errors.js';

/**
 * The caller's view of one kind: the one mechanism by which every id a request names — in a path, in
 * a body, in a filter — is looked up. `find` decides visibility; `get` and `resolve` only phrase its
 * "no": an object the caller may not see is indistinguishable from one that does not exist (the same
 * 404 on a path, the same 422 naming the field in a body). Permission checks that need the object
 * come after this, so a 403 is only ever given about an object the caller may see.
 */
export abstract class CallerView<T> {
  /** The wire kind used in messages, e.g. `meshBuildingBlock`. */
  protected abstract readonly kindName: string;
  /** Which kind of reference is missing, for the import's result code. */
  protected readonly missing: MissingReference = 'OTHER';

  /** The object with this id as the caller may see it; undefined when absent or invisible. */
  abstract find(ctx: RequestContext, id: string): Promise<T | undefined>;

  /** A path names the object: 404 when the caller cannot see it. */
  async get(ctx: RequestContext, id: string): Promise<T> {
    const found = await this.find(ctx, id);
    if (found === undefined) throw notFound(`${this.kindName} ${id} not found`);
    return found;
  }

  /** A body names the object in `field`: 422 when the caller cannot see it. */
  async resolve(ctx: RequestContext, id: string, field: string): Promise<T> {
    const found = await this.find(ctx, id);
    if (found === undefined) throw this.doesNotExist(id, field);
    return found;
  }

  protected doesNotExist(id: string, field: string) {
    return unprocessable(`${field}: ${this.kindName} "${id}" does not exist`, this.missing);
  }
}
