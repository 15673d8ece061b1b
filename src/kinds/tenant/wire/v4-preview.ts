import { ObjectAnswer } from '../../../lib/wire-schemas.js';
import type { RelationsView } from '../../codec.js';
import type { Tenant } from '../model.js';
import { tenantAnswer, tenantV4 } from './v4.js';

/**
 * meshTenant v4-preview (the OpenAPI's): the shape of v4, with what the OpenAPI requires of its
 * answers: `spec.landingZoneIdentifier` ("" without a landing zone); the applied quotas as `spec.quotas` (`[]` when none), as v4 under the spec's vendor.
 */
export const tenantV4Preview = {
  media: { kind: 'meshtenant', version: 'v4-preview' } as const,
  schema: ObjectAnswer('v4-preview', 'meshTenant', tenantAnswer('v4-preview')),
  bodySchema: tenantV4.bodySchema,
  decode: tenantV4.decode,
  encode(tenant: Tenant, view: RelationsView) {
    const encoded = tenantV4.encode(tenant, view);
    return { ...encoded, apiVersion: 'v4-preview', spec: { ...encoded.spec, landingZoneIdentifier: tenant.landingZone ?? '' } };
  },
};
