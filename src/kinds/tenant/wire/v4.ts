import { Type } from '@sinclair/typebox';
import { badRequest } from '../../../lib/errors.js';
import { DateTime, Echoed, Identifier, KindOf, NonEmptyShortString, ShortString, Tags, Uuid } from '../../../lib/wire-schemas.js';
import type { RelationsView } from '../../codec.js';
import { sentObject } from '../../document.js';
import type { PlatformReference } from '../../platform/model.js';
import { objectLinks, objectVersion } from '../../wire-helpers.js';
import { TENANTS_PATH, appliedQuotaList, appliedQuotasOf, tenantName, type Tenant, type TenantInput } from '../model.js';

/** At most this many quotas per tenant. */
const MAX_QUOTAS = 100;

/** Quotas as the OpenAPI writes them (`[{key, value}]`, v4-preview and v3) and as v4 requests them. */
export const Quotas = Type.Array(Type.Object({ key: NonEmptyShortString, value: Type.Number() }), { maxItems: MAX_QUOTAS });
const RequestedQuotas = Type.Record(ShortString, Type.Object({ value: Type.Number() }), { maxProperties: MAX_QUOTAS });

const Body = Type.Object({
  kind: KindOf('meshTenant'),
  metadata: Type.Object({ ownedByWorkspace: Identifier, ownedByProject: Identifier }),
  spec: Type.Object({
    platformRef: Type.Optional(Type.Object({ kind: KindOf('meshPlatform'), uuid: Uuid })),
    platformIdentifier: Type.Optional(ShortString),
    landingZoneRef: Type.Optional(Type.Object({ kind: KindOf('meshLandingZone'), name: ShortString })),
    landingZoneIdentifier: Type.Optional(ShortString),
    platformTenantId: Type.Optional(NonEmptyShortString),
    quotas: Type.Optional(Quotas),
    requestedQuotas: Type.Optional(RequestedQuotas),
  }),
});

/**
 * A tenant's parts as v4 and v4-preview answer them. The spec's form (OpenAPI): the applied quotas as
 * `spec.quotas: [{key, value}]`. The original's today (`meshcloud`, v4): as `status.appliedQuotas:
 * {"<key>": {value}}`, the list form gone.
 */
export const tenantAnswer = (apiVersion: 'v4' | 'v4-preview', form: 'spec' | 'meshcloud' = 'spec') => ({
  metadata: Echoed({
    uuid: Uuid,
    ownedByWorkspace: Identifier,
    ownedByProject: Identifier,
    createdOn: DateTime,
    markedForDeletionOn: Type.Optional(DateTime),
    deletedOn: Type.Optional(DateTime),
  }),
  spec: Echoed({
    platformRef: Type.Object({ kind: Type.Literal('meshPlatform'), uuid: Uuid }),
    platformIdentifier: Type.String(),
    platformTenantId: Type.Optional(Type.String()),
    landingZoneRef: Type.Optional(Type.Object({ kind: Type.Optional(Type.Literal('meshLandingZone')), name: Type.String() })),
    landingZoneIdentifier: apiVersion === 'v4-preview' ? Type.String() : Type.Optional(Type.String()),
    quotas: form === 'spec' ? Quotas : Type.Optional(Quotas),
    requestedQuotas: Type.Optional(RequestedQuotas),
  }),
  status: Type.Object({
    tenantName: Type.String(),
    platformTypeIdentifier: Type.String(),
    tags: Tags,
    ...(form === 'meshcloud' ? { appliedQuotas: RequestedQuotas } : {}),
    lifecycle: Type.Object({ state: Type.Union([Type.Literal('ACTIVE'), Type.Literal('DELETED')]) }),
  }),
});

/** The landing zone named either way (both: they must agree); "" is none. */
export function landingZoneOf(spec: { landingZoneRef?: { name: string }; landingZoneIdentifier?: string }): string | undefined {
  const byRef = spec.landingZoneRef?.name;
  const byIdentifier = spec.landingZoneIdentifier;
  if (byRef !== undefined && byIdentifier !== undefined && byRef !== byIdentifier)
    throw badRequest('spec.landingZoneRef and spec.landingZoneIdentifier name different landing zones');
  const name = byRef ?? byIdentifier;
  return name === undefined || name === '' ? undefined : name;
}

/**
 * meshTenant v4 (COMPAT §7): the platform is `spec.platformRef{kind, uuid}` (v4) or
 * `spec.platformIdentifier` (v4-preview); both are accepted and both are written. The landing zone
 * likewise (`landingZoneRef.name` or `landingZoneIdentifier`).
 */
export const tenantV4 = objectVersion('meshTenant', 'v4', {
  answer: tenantAnswer('v4'),
  body: Body,
  decode({ metadata, spec }): TenantInput {
    const platformRefs: PlatformReference[] = [];
    if (spec.platformRef) platformRefs.push({ uuid: spec.platformRef.uuid });
    if (spec.platformIdentifier) platformRefs.push({ identifier: spec.platformIdentifier });
    if (platformRefs.length === 0) throw badRequest('spec.platformRef: required (or spec.platformIdentifier "<platform>.<location>")');
    const landingZone = landingZoneOf(spec);
    return {
      workspace: metadata.ownedByWorkspace,
      project: metadata.ownedByProject,
      platformRefs,
      ...(spec.platformTenantId !== undefined ? { platformTenantId: spec.platformTenantId } : {}),
      ...(landingZone !== undefined ? { landingZone } : {}),
      document: sentObject(metadata, spec),
    };
  },
  /** The spec's form: the applied quotas as `spec.quotas`. */
  encode(tenant: Tenant, view: RelationsView) {
    const encoded = encode(tenant, view);
    return { ...encoded, spec: { ...encoded.spec, quotas: appliedQuotaList(tenant) } };
  },
  /** Under `meshcloud`, as the Terraform provider decodes it: the applied quotas as `status.appliedQuotas`. */
  vendorForms: {
    meshcloud: {
      answer: tenantAnswer('v4', 'meshcloud'),
      encode(tenant: Tenant, view: RelationsView) {
        const encoded = encode(tenant, view);
        return { ...encoded, status: { ...encoded.status, appliedQuotas: appliedQuotasOf(tenant) } };
      },
    },
  },
});

/** What both forms share: the spec as sent, with the platform and the platform tenant id as they are. */
function encode(tenant: Tenant, view: RelationsView) {
  const deleted = tenant.deletedOn !== undefined ? { markedForDeletionOn: tenant.deletedOn, deletedOn: tenant.deletedOn } : {};
  return {
    metadata: {
      ...tenant.document.metadata,
      uuid: tenant.uuid,
      ownedByWorkspace: tenant.workspace,
      ownedByProject: tenant.project,
      createdOn: tenant.createdOn,
      ...deleted,
    },
    spec: {
      ...tenant.document.spec,
      platformRef: { kind: 'meshPlatform', uuid: tenant.platform.uuid },
      platformIdentifier: `${tenant.platform.name}.${tenant.platform.location}`,
      platformTenantId: tenant.platformTenantId,
    },
    status: {
      tenantName: tenantName(tenant),
      platformTypeIdentifier: tenant.platform.platformType,
      tags: {},
      lifecycle: { state: tenant.deletedOn === undefined ? 'ACTIVE' : 'DELETED' },
    },
    _links: objectLinks(view, TENANTS_PATH, tenant.uuid, {
      meshproject: { rel: 'meshprojects', workspace: tenant.workspace, id: `${tenant.workspace}.${tenant.project}` },
      meshplatform: { rel: 'meshplatforms', id: tenant.platform.uuid },
    }),
  };
}
