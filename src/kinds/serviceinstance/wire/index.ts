import { CodecRegistry, eventCodec, LINKLESS, type Codec, type RelationsView } from '../../codec.js';
import type { ServiceInstance, ServiceInstanceInput } from '../model.js';
import { serviceInstanceV2 } from './v2.js';

export interface ServiceInstanceCodec extends Codec<ServiceInstance, RelationsView> {
  decode(body: unknown): ServiceInstanceInput;
}

/** v1 is retired (spec §9, 2025-03-01): negotiation answers it as retired from the lifecycle list. */
export const SERVICE_INSTANCE_CODECS = new CodecRegistry<ServiceInstanceCodec>('meshServiceInstance', [serviceInstanceV2]);

/** What its events carry: the serviceInstanceV2 answer a reader of its workspace gets. */
export const SERVICE_INSTANCE_EVENTS = eventCodec(SERVICE_INSTANCE_CODECS.kind, serviceInstanceV2, LINKLESS);
