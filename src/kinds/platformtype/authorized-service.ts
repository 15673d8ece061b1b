import type { RequestContext } from '../../auth/context.js';
import { unprocessable } from '../../lib/errors.js';
import { AuthorizedCrudService } from '../crud/authorized-service.js';
import type { CrudService } from '../crud/service.js';
import { typeKey, type PlatformType, type PlatformTypeInput } from './model.js';
import { PLATFORM_TYPE_ACCESS } from './strategy.js';

/** Platform types as callers reach them (PLATFORM_TYPE_ACCESS), and as platforms name them. */
export class AuthorizedPlatformTypeService extends AuthorizedCrudService<PlatformType, PlatformTypeInput> {
  constructor(inner: CrudService<PlatformType, PlatformTypeInput>) {
    super(inner, PLATFORM_TYPE_ACCESS, { kind: 'meshPlatformType', noun: 'platform type', idOfInput: (input) => input.name });
  }

  /**
   * A platform names its type (`AZURE`, a custom type's name; case-insensitive) in `field`: it must
   * exist and be ACTIVE (422 otherwise); a platform keeping the type it has is not held to that.
   */
  async resolveForPlatform(_ctx: RequestContext, key: string, field: string, unchanged: boolean): Promise<PlatformType> {
    const type = await this.inner.findBy({ type_key: typeKey(key) });
    if (!type) throw this.doesNotExist(key, field);
    if (!unchanged && type.lifecycleState !== 'ACTIVE')
      throw unprocessable(`${field}: meshPlatformType "${type.name}" is deactivated and takes no new platforms`);
    return type;
  }
}
