import { Type } from '@sinclair/typebox';
import { badRequest } from '../../errors.js';
import { compileDecoder } from '../../http/validation.js';
import { Identifier, KindOf, NonEmptyShortString, ShortString, Uuid } from '../../http/wire-schemas.js';
import { sentObject } from '../document.js';
import { tenantName, type PlatformReference, type Tenant, type TenantInput } from './model.js';

/**
 * meshTenant v4 and v4-preview: the platform is `spec.platformRef{kind, uuid}` (v4) or
 * `spec.platformIdentifier` (v4-preview); both are accepted and both are written (COMPAT §7).
 */
export const TENANT_VERSIONS = [
  { kind: 'meshtenant', version: 'v4' },
  { kind: 'meshtenant', version: 'v4-preview' },
] as const;
export const TENANTS_PATH = '/api/meshobjects/meshtenants';

const decodeBody = compileDecoder(
  Type.Object({
    kind: KindOf('meshTenant'),
    metadata: Type.Object({ ownedByWorkspace: Identifier, ownedByProject: Identifier }),
    spec: Type.Object({
      platformRef: Type.Optional(Type.Object({ kind: KindOf('meshPlatform'), uuid: Uuid })),
      platformIdentifier: Type.Optional(ShortString),
      landingZoneIdentifier: Type.Optional(ShortString),
      platformTenantId: Type.Optional(NonEmptyShortString),
    }),
  }),
);

export function decodeTenant(body: unknown): TenantInput {
  const { metadata, spec } = decodeBody(body);
  const platformRefs: PlatformReference[] = [];
  if (spec.platformRef) platformRefs.push({ uuid: spec.platformRef.uuid });
  if (spec.platformIdentifier) platformRefs.push({ identifier: spec.platformIdentifier });
  if (platformRefs.length === 0) throw badRequest('spec.platformRef: required (or spec.platformIdentifier "<platform>.<location>")');
  return {
    workspace: metadata.ownedByWorkspace,
    project: metadata.ownedByProject,
    platformRefs,
    ...(spec.platformTenantId !== undefined ? { platformTenantId: spec.platformTenantId } : {}),
    document: sentObject(metadata, spec),
  };
}

export function encodeTenant(tenant: Tenant, version: string, baseUrl: string) {
  const deleted = tenant.deletedOn !== undefined ? { markedForDeletionOn: tenant.deletedOn, deletedOn: tenant.deletedOn } : {};
  return {
    apiVersion: version,
    kind: 'meshTenant',
    metadata: { ...tenant.document.metadata, uuid: tenant.uuid, ownedByWorkspace: tenant.workspace, ownedByProject: tenant.project, createdOn: tenant.createdOn, ...deleted },
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
    _links: {
      self: { href: `${baseUrl}${TENANTS_PATH}/${tenant.uuid}` },
      meshproject: { href: `${baseUrl}/api/meshobjects/meshprojects/${encodeURIComponent(`${tenant.workspace}.${tenant.project}`)}` },
      meshplatform: { href: `${baseUrl}/api/meshobjects/meshplatforms/${tenant.platform.uuid}` },
    },
  };
}
