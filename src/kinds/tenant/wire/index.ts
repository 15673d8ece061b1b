import { CodecRegistry, eventCodec, LINKLESS, type Codec, type RelationsView } from '../../codec.js';
import type { Tenant, TenantInput } from '../model.js';
import { tenantV3 } from './v3.js';
import { tenantV4 } from './v4.js';
import { tenantV4Preview } from './v4-preview.js';

export interface TenantCodec extends Codec<Tenant, RelationsView> {
  decode(body: unknown): TenantInput;
}

export const TENANT_CODECS = new CodecRegistry<TenantCodec>('meshTenant', [tenantV4, tenantV4Preview, tenantV3]);

/** What its events carry: the tenantV4 answer a reader of its workspace gets. */
export const TENANT_EVENTS = eventCodec(TENANT_CODECS.kind, tenantV4, LINKLESS);
