import { CodecRegistry, eventCodec, LINKLESS, type Codec, type RelationsView } from '../../codec.js';
import type { PaymentMethod, PaymentMethodInput } from '../model.js';
import { paymentMethodV2 } from './v2.js';

export interface PaymentMethodCodec extends Codec<PaymentMethod, RelationsView> {
  decode(body: unknown): PaymentMethodInput;
}

/** v1 is retired (spec §9, 2025-07-01): negotiation answers it as retired from the lifecycle list. */
export const PAYMENT_METHOD_CODECS = new CodecRegistry<PaymentMethodCodec>('meshPaymentMethod', [paymentMethodV2]);

/** What its events carry: the paymentMethodV2 answer a reader of its workspace gets. */
export const PAYMENT_METHOD_EVENTS = eventCodec(PAYMENT_METHOD_CODECS.kind, paymentMethodV2, LINKLESS);
