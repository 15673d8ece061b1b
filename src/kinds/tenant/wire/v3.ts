import { Type } from '@sinclair/typebox';
import { DateTime, Echoed, Identifier, KindOf, NonEmptyShortString, ShortString, Tags } from '../../../lib/wire-schemas.js';
import type { RelationsView } from '../../codec.js';
import { sentObject } from '../../document.js';
import { objectLinks, objectVersion } from '../../wire-helpers.js';
import { TENANTS_PATH, appliedQuotaList, tenantName, type Tenant, type TenantInput } from '../model.js';
import { landingZoneOf, Quotas } from './v4.js';

const Body = Type.Object({
  kind: KindOf('meshTenant'),
  metadata: Type.Object({ ownedByWorkspace: Identifier, ownedByProject: Identifier, platformIdentifier: NonEmptyShortString }),
  spec: Type.Optional(
    Type.Object({
      landingZoneIdentifier: Type.Optional(ShortString),
      localId: Type.Optional(NonEmptyShortString),
      quotas: Type.Optional(Quotas),
    }),
  ),
});
/** Fields v4 writes that v3 has under other names (or not at all). */
const V4_ONLY_SPEC = ['platformRef', 'platformIdentifier', 'platformTenantId', 'landingZoneRef', 'requestedQuotas'];

/**
 * meshTenant v3, deprecated for v4 (spec §9, no date; served with the deprecation headers): a tenant
 * is named by `<workspace>.<project>.<platform>.<location>` (`metadata.tenantIdentifier`), the
 * platform by `metadata.platformIdentifier`, the platform tenant id is `spec.localId` (OpenAPI). The
 * stored document is v4's: `localId` is kept as `platformTenantId`, the platform as `platformIdentifier`.
 */
export const tenantV3 = objectVersion('meshTenant', 'v3', {
  answer: {
    metadata: Echoed({
      ownedByWorkspace: Identifier,
      ownedByProject: Identifier,
      platformIdentifier: Type.String(),
      tenantIdentifier: Type.String({ description: '<workspace>.<project>.<platform>.<location>' }),
      assignedTags: Tags,
      deletedOn: Type.Optional(DateTime),
    }),
    spec: Echoed({ localId: Type.Optional(Type.String()), landingZoneIdentifier: Type.String(), quotas: Quotas }),
  },
  body: Body,
  decode({ metadata, spec = {} }): TenantInput {
    const { platformIdentifier, ...otherMetadata } = metadata;
    const { localId, ...otherSpec } = spec;
    const landingZone = landingZoneOf(spec);
    return {
      workspace: metadata.ownedByWorkspace,
      project: metadata.ownedByProject,
      platformRefs: [{ identifier: platformIdentifier }],
      ...(localId !== undefined ? { platformTenantId: localId } : {}),
      ...(landingZone !== undefined ? { landingZone } : {}),
      document: sentObject(otherMetadata, {
        ...otherSpec,
        platformIdentifier,
        ...(localId !== undefined ? { platformTenantId: localId } : {}),
      }),
    };
  },
  encode(tenant: Tenant, view: RelationsView) {
    const spec = Object.fromEntries(Object.entries(tenant.document.spec).filter(([key]) => !V4_ONLY_SPEC.includes(key)));
    const name = tenantName(tenant);
    return {
      metadata: {
        ...tenant.document.metadata,
        ownedByWorkspace: tenant.workspace,
        ownedByProject: tenant.project,
        platformIdentifier: `${tenant.platform.name}.${tenant.platform.location}`,
        tenantIdentifier: name,
        assignedTags: {},
        ...(tenant.deletedOn !== undefined ? { deletedOn: tenant.deletedOn } : {}),
      },
      spec: {
        ...spec,
        localId: tenant.platformTenantId,
        landingZoneIdentifier: tenant.landingZone ?? '',
        quotas: appliedQuotaList(tenant),
      },
      // A deleted tenant's name may be a live one's again: its own link is by uuid (still readable so).
      _links: objectLinks(view, TENANTS_PATH, tenant.deletedOn === undefined ? name : tenant.uuid, {
        meshproject: { rel: 'meshprojects', workspace: tenant.workspace, id: `${tenant.workspace}.${tenant.project}` },
        meshplatform: { rel: 'meshplatforms', id: tenant.platform.uuid },
      }),
    };
  },
});
