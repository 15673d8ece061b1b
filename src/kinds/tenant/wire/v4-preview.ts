import type { EncodeView } from '../../codec.js';
import type { Tenant } from '../model.js';
import { tenantV4 } from './v4.js';

/** meshTenant v4-preview (the OpenAPI's): the shape of v4. */
export const tenantV4Preview = {
  media: { kind: 'meshtenant', version: 'v4-preview' } as const,
  decode: tenantV4.decode,
  encode: (tenant: Tenant, view: EncodeView) => tenantV4.encode(tenant, view, 'v4-preview'),
};
