import { Type } from '@sinclair/typebox';
import { compileDecoder } from '../../../lib/validation.js';
import { DateTime, Echoed, Identifier, KindOf, Links, NonEmptyShortString, ShortString, Tags } from '../../../lib/wire-schemas.js';
import type { RelationsView } from '../../codec.js';
import { sentObject } from '../../document.js';
import { objectUrl } from '../../paths.js';
import { relatedLinks } from '../../relations.js';
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
const decodeBody = compileDecoder(Body);

const Answer = Type.Object({
  apiVersion: Type.Literal('v3'),
  kind: Type.Literal('meshTenant'),
  metadata: Echoed({
    ownedByWorkspace: Identifier,
    ownedByProject: Identifier,
    platformIdentifier: Type.String(),
    tenantIdentifier: Type.String({ description: '<workspace>.<project>.<platform>.<location>' }),
    assignedTags: Tags,
    deletedOn: Type.Optional(DateTime),
  }),
  spec: Echoed({ localId: Type.Optional(Type.String()), landingZoneIdentifier: Type.String(), quotas: Quotas }),
  _links: Links,
});

/** Fields v4 writes that v3 has under other names (or not at all). */
const V4_ONLY_SPEC = ['platformRef', 'platformIdentifier', 'platformTenantId', 'landingZoneRef', 'requestedQuotas'];

/**
 * meshTenant v3, deprecated for v4 (spec §9, no date; served with the deprecation headers): a tenant
 * is named by `<workspace>.<project>.<platform>.<location>` (`metadata.tenantIdentifier`), the
 * platform by `metadata.platformIdentifier`, the platform tenant id is `spec.localId` (OpenAPI). The
 * stored document is v4's: `localId` is kept as `platformTenantId`, the platform as `platformIdentifier`.
 */
export const tenantV3 = {
  media: { kind: 'meshtenant', version: 'v3' } as const,
  schema: Answer,
  bodySchema: Body,
  decode(body: unknown): TenantInput {
    const { metadata, spec = {} } = decodeBody(body);
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
    const { baseUrl } = view;
    const spec = Object.fromEntries(Object.entries(tenant.document.spec).filter(([key]) => !V4_ONLY_SPEC.includes(key)));
    const name = tenantName(tenant);
    return {
      apiVersion: 'v3',
      kind: 'meshTenant',
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
      _links: {
        // A deleted tenant's name may be a live one's again: its own link is by uuid (still readable so).
        self: { href: objectUrl(baseUrl, TENANTS_PATH, tenant.deletedOn === undefined ? name : tenant.uuid) },
        ...relatedLinks(view, {
          meshproject: { rel: 'meshprojects', workspace: tenant.workspace, id: `${tenant.workspace}.${tenant.project}` },
          meshplatform: { rel: 'meshplatforms', id: tenant.platform.uuid },
        }),
      },
    };
  },
};
