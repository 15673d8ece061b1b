import type { EventTitle } from '../eventlog/titles.js';

/** The events this kind writes: each one's title (the OpenAPI's list where it has one, the same style where it has none — marked "new") and `eventType`. */
export const PAYMENT_METHOD_TITLES = {
  paymentMethodCreated: { title: 'Payment Method Created', eventType: 'Created' },
  paymentMethodChanged: { title: 'Payment Method Changed', eventType: 'Changed' },
  paymentMethodDeleted: { title: 'Payment Method Deleted', eventType: 'Deleted' },
} as const satisfies Record<string, EventTitle>;
