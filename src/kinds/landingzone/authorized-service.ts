import type { RequestContext } from '../../auth/context.js';
import { isAdminFor, listScope, requireAllowed, seesWorkspace } from '../../auth/policy.js';
import { badRequest, insufficientPermissions, unprocessable } from '../../lib/errors.js';
import type { Page, PageRequest } from '../../lib/paging.js';
import type { AuthorizedPlatformService } from '../platform/authorized-service.js';
import type { Platform } from '../platform/model.js';
import type { AuthorizedTagDefinitionService } from '../tagdefinition/authorized-service.js';
import { placeTags } from '../tagdefinition/model.js';
import { CallerView } from '../view.js';
import type { LandingZone, LandingZoneInput } from './model.js';
import type { LandingZoneService } from './service.js';
import type { LandingZoneFilter } from './store.js';

/** Built-in platform types whose landing zones carry platform properties of one type. */
const PROPERTIES_OF_TYPE: Record<string, string> = {
  AKS: 'aks',
  AWS: 'aws',
  AZURE: 'azure',
  AZURERG: 'azurerg',
  GCP: 'gcp',
  KUBERNETES: 'kubernetes',
  OPENSHIFT: 'openshift',
};

/**
 * Landing zones belong to their platform's workspace: `LANDINGZONE_*` there, `ADM_LANDINGZONE_*`
 * everywhere; other workspaces do not see them (404). A tenant on a platform may name the platform's
 * enabled zones (its workspace may use the platform, so it may use them); a restricted zone only
 * callers who see the zone's workspace ("only platform teams", OpenAPI).
 */
export class AuthorizedLandingZoneService extends CallerView<LandingZone> {
  protected readonly kindName = 'meshLandingZone';

  constructor(
    private readonly inner: LandingZoneService,
    private readonly platforms: AuthorizedPlatformService,
    private readonly tags: AuthorizedTagDefinitionService,
  ) {
    super();
  }

  async find(ctx: RequestContext, name: string): Promise<LandingZone | undefined> {
    const zone = await this.inner.find(name);
    return zone && seesWorkspace(ctx.principal, 'LANDINGZONE', zone.ownedByWorkspace) ? zone : undefined;
  }

  list(ctx: RequestContext, filter: LandingZoneFilter, page: PageRequest): Promise<Page<LandingZone>> {
    const scope = listScope(ctx.principal, 'LANDINGZONE');
    return this.inner.list(scope === 'all' ? filter : { ...filter, scope: scope.workspace }, page);
  }

  private async checked(
    ctx: RequestContext,
    input: LandingZoneInput,
    existing: LandingZone | undefined,
  ): Promise<{ input: LandingZoneInput; platform: Platform }> {
    const platform = await this.platforms.resolve(ctx, input.platformUuid, 'spec.platformRef.uuid');
    requireAllowed(ctx.principal, 'LANDINGZONE', 'SAVE', platform.ownedByWorkspace);
    const admin = isAdminFor(ctx.principal, 'LANDINGZONE', 'SAVE');
    const tags = await this.tags.enforce(
      ctx,
      'meshLandingZone',
      input.document.metadata.tags,
      existing ? (existing.document.metadata.tags ?? {}) : undefined,
      admin,
      'metadata.tags',
    );
    const type = (input.document.spec.platformProperties as { type?: string } | undefined)?.type;
    const expected = PROPERTIES_OF_TYPE[platform.platformType];
    if (type !== undefined && expected !== undefined && type !== expected)
      throw unprocessable(
        `spec.platformProperties.type: the platform ${platform.name}.${platform.location} is of type ${platform.platformType}: its landing zones take "${expected}" properties, not "${type}"`,
      );
    return { input: { ...input, document: { ...input.document, metadata: placeTags(input.document.metadata, tags) } }, platform };
  }

  async create(ctx: RequestContext, input: LandingZoneInput): Promise<LandingZone> {
    const { input: checked, platform } = await this.checked(ctx, input, undefined);
    return this.inner.create(ctx, checked, platform);
  }

  /**
   * PUT: an upsert by name (OpenAPI); `spec.platformRef` never changes. A name taken by a zone the
   * caller cannot see is 404, as every path naming an invisible object.
   */
  async save(ctx: RequestContext, name: string, input: LandingZoneInput): Promise<LandingZone> {
    if (input.name !== name) throw badRequest(`metadata.name: "${input.name}" does not match the landing zone "${name}" of the path`);
    const stored = await this.inner.find(name);
    if (!stored) return this.create(ctx, input);
    const existing = await this.get(ctx, name);
    if (input.platformUuid !== existing.platformUuid)
      throw badRequest(`spec.platformRef.uuid: a landing zone's platform cannot change (is ${existing.platformUuid})`);
    const { input: checked } = await this.checked(ctx, input, existing);
    return this.inner.update(ctx, existing, checked);
  }

  async disable(ctx: RequestContext, name: string): Promise<void> {
    const existing = await this.get(ctx, name);
    requireAllowed(ctx.principal, 'LANDINGZONE', 'DELETE', existing.ownedByWorkspace);
    await this.inner.disable(ctx, existing);
  }

  /**
   * A tenant on `platform` names a landing zone (`field`): an enabled zone of that platform (422
   * otherwise); a restricted one only for callers who see its workspace (403). A tenant keeping the
   * zone it has is held to neither (existing tenants are unaffected by a disabled zone).
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
