import type { RequestContext } from '../../auth/context.js';
import { seesWorkspace } from '../../auth/policy.js';
import { insufficientPermissions, unprocessable } from '../../lib/errors.js';
import { AuthorizedCrudService } from '../crud/authorized-service.js';
import type { CrudService } from '../crud/service.js';
import type { AuthorizedPlatformService } from '../platform/authorized-service.js';
import type { Platform } from '../platform/model.js';
import type { LandingZone } from './model.js';
import { landingZoneAccess, type LandingZoneWrite } from './strategy.js';

/**
 * Landing zones as callers reach them (`landingZoneAccess`), and as tenants name them. A PUT naming a
 * zone the caller cannot see is 404, as every path naming an invisible object.
 */
export class AuthorizedLandingZoneService extends AuthorizedCrudService<LandingZone, LandingZoneWrite> {
  constructor(inner: CrudService<LandingZone, LandingZoneWrite>, platforms: AuthorizedPlatformService) {
    super(inner, landingZoneAccess({ resolvePlatform: (ctx, uuid, field) => platforms.resolve(ctx, uuid, field) }), {
      kind: 'meshLandingZone',
      noun: 'landing zone',
      idOfInput: (input) => input.name,
      putOverInvisible: 'notFound',
    });
  }

  /**
   * A tenant on `platform` names a landing zone (`field`): an enabled zone of that platform (422
   * otherwise); a restricted one only for callers who see its workspace ("only platform teams",
   * OpenAPI: 403). A tenant keeping the zone it has is held to neither (existing tenants are
   * unaffected by a disabled zone).
   */
  async resolveForTenant(
    ctx: RequestContext,
    name: string,
    platform: Platform,
    field: string,
    unchanged: boolean,
  ): Promise<LandingZone | undefined> {
    const zone = await this.inner.find(name);
    if (unchanged) return zone;
    if (!zone || zone.platformUuid !== platform.uuid)
      throw unprocessable(`${field}: meshLandingZone "${name}" does not exist on meshPlatform ${platform.name}.${platform.location}`);
    if (zone.disabledOn !== undefined) throw unprocessable(`${field}: meshLandingZone "${name}" is disabled and takes no new tenants`);
    if (zone.restricted && !seesWorkspace(ctx.principal, 'LANDINGZONE', zone.ownedByWorkspace))
      throw insufficientPermissions(`meshLandingZone "${name}" is restricted to its platform team`);
    return zone;
  }
}
