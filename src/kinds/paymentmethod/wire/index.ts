import { CodecRegistry, type Codec } from '../../codec.js';
import type { PaymentMethod, PaymentMethodInput } from '../model.js';
import { paymentMethodV2 } from './v2.js';

export interface PaymentMethodCodec extends Codec<PaymentMethod> {
  decode(body: unknown): PaymentMethodInput;
}

/** v1 is retired (spec §9, 2025-07-01): negotiation answers it as retired from the lifecycle list. */
export const PAYMENT_METHOD_CODECS = new CodecRegistry<PaymentMethodCodec>('meshPaymentMethod', [paymentMethodV2]);
