import type { Selectable } from 'kysely';
import type { RequestContext } from '../../auth/context.js';
import { isAdminFor, requireAllowed } from '../../auth/policy.js';
import { badRequest, unprocessable } from '../../lib/errors.js';
import type { LandingZoneTable } from '../../store/schema.js';
import { ownedByWorkspace, type CrudAccess } from '../crud/authorized-service.js';
import type { StoredRow } from '../crud/store.js';
import type { CrudStrategy } from '../crud/service.js';
import { parseDocument, serializeDocument } from '../document.js';
import type { Platform } from '../platform/model.js';
import { placeTags, type Tags, type TagTargetKind } from '../tagdefinition/model.js';
import { LANDING_ZONE_TITLES } from './events.js';
import type { LandingZone, LandingZoneInput } from './model.js';
import { LANDING_ZONE_EVENTS } from './wire/index.js';

/** A landing zone as a write sends it; admitted, it names its platform's workspace too. */
export type LandingZoneWrite = LandingZoneInput & { ownedByWorkspace?: string };

/** What a landing zone's rules ask of other kinds. */
export interface LandingZoneNeeds {
  /** The platform a body names in `field`, as the caller sees it (422 otherwise). */
  resolvePlatform(ctx: RequestContext, uuid: string, field: string): Promise<Platform>;
  /** The tags a write may store (the tag definitions' `enforce`). */
  enforceTags(
    ctx: RequestContext,
    targetKind: TagTargetKind,
    sent: unknown,
    previous: unknown,
    admin: boolean,
    field: string,
  ): Promise<Tags>;
}

const PLATFORM_FIELD = 'spec.platformRef.uuid';

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
 * A landing zone's rules: it stands on a platform the caller sees and belongs to that platform's
 * workspace; its tags follow their definitions; its platform properties are of its platform's type.
 * DELETE disables it (no new tenants; existing tenants keep it; it stays readable and listed).
 */
export const landingZoneStrategy = (needs: LandingZoneNeeds): CrudStrategy<LandingZone, LandingZoneWrite> => ({
  kind: 'meshLandingZone',
  table: {
    table: 'landing_zones',
    key: 'name',
    toRow: (zone): StoredRow<LandingZoneTable> => ({
      name: zone.name,
      platform_uuid: zone.platformUuid,
      owned_by_workspace: zone.ownedByWorkspace,
      display_name: zone.displayName,
      restricted: zone.restricted ? 1 : 0,
      disabled_on: zone.disabledOn ?? null,
      document: serializeDocument(zone.document),
    }),
    fromRow: (row: Selectable<LandingZoneTable>) => ({
      name: row.name,
      platformUuid: row.platform_uuid,
      ownedByWorkspace: row.owned_by_workspace,
      displayName: row.display_name,
      restricted: Boolean(row.restricted),
      ...(row.disabled_on !== null ? { disabledOn: row.disabled_on } : {}),
      document: parseDocument(row.document),
    }),
  },
  events: {
    created: LANDING_ZONE_TITLES.landingZoneCreated,
    changed: LANDING_ZONE_TITLES.landingZoneChanged,
    deleted: LANDING_ZONE_TITLES.landingZoneDeleted,
  },
  eventCodec: LANDING_ZONE_EVENTS,
  workspaceOf: (zone) => zone.ownedByWorkspace,
  describe: (zone, change) => `Landing zone ${zone.name} was ${change === 'deleted' ? 'disabled' : change}`,
  async admit(ctx, input, existing) {
    // The access rule resolved the platform too (for its workspace's permission); here its type and workspace are kept.
    const platform = await needs.resolvePlatform(ctx, input.platformUuid, PLATFORM_FIELD);
    const admin = isAdminFor(ctx.principal, 'LANDINGZONE', 'SAVE');
    const previous = existing ? (existing.document.metadata.tags ?? {}) : undefined;
    const tags = await needs.enforceTags(ctx, 'meshLandingZone', input.document.metadata.tags, previous, admin, 'metadata.tags');
    const type = (input.document.spec.platformProperties as { type?: string } | undefined)?.type;
    const expected = PROPERTIES_OF_TYPE[platform.platformType];
    if (type !== undefined && expected !== undefined && type !== expected)
      throw unprocessable(
        `spec.platformProperties.type: the platform ${platform.name}.${platform.location} is of type ${platform.platformType}: its landing zones take "${expected}" properties, not "${type}"`,
      );
    return {
      ...input,
      document: { ...input.document, metadata: placeTags(input.document.metadata, tags) },
      platformUuid: platform.uuid,
      ownedByWorkspace: platform.ownedByWorkspace,
    };
  },
  prepareForCreate: ({ ownedByWorkspace, ...input }) => ({
    ...input,
    ownedByWorkspace: ownedByWorkspace!,
    createdOn: new Date().toISOString(),
  }),
  prepareForUpdate: (existing, input) => ({
    ...existing,
    displayName: input.displayName,
    restricted: input.restricted,
    document: input.document,
  }),
  writeUnchanged: true,
  retire: (existing) => (existing.disabledOn !== undefined ? undefined : { ...existing, disabledOn: new Date().toISOString() }),
});

/**
 * Landing zones belong to their platform's workspace: `LANDINGZONE_*` there, `ADM_LANDINGZONE_*`
 * everywhere; other workspaces do not see them (404). A write names a platform the caller sees (422),
 * and `spec.platformRef` never changes.
 */
export function landingZoneAccess(needs: Pick<LandingZoneNeeds, 'resolvePlatform'>): CrudAccess<LandingZone, LandingZoneWrite> {
  const byWorkspace = ownedByWorkspace<LandingZone, LandingZoneWrite>(
    'LANDINGZONE',
    'owned_by_workspace',
    (zone) => zone.ownedByWorkspace!,
  );
  return {
    ...byWorkspace,
    async requireWrite(ctx, write) {
      if (write.op === 'delete') return byWorkspace.requireWrite(ctx, write);
      if (write.op === 'update' && write.input.platformUuid !== write.existing.platformUuid)
        throw badRequest(`spec.platformRef.uuid: a landing zone's platform cannot change (is ${write.existing.platformUuid})`);
      const platform = await needs.resolvePlatform(ctx, write.input.platformUuid, PLATFORM_FIELD);
      requireAllowed(ctx.principal, 'LANDINGZONE', 'SAVE', platform.ownedByWorkspace);
    },
  };
}
