import type { SentObject } from '../document.js';

/** Its collection path. */
export const PAYMENT_METHODS_PATH = '/api/meshobjects/meshpaymentmethods';

/**
 * The internal payment method: identified by its name (unique across workspaces), owned by
 * one workspace. Deleting one only marks it (`deletedOn`): it stays readable by name, leaves lists
 * and can no longer be assigned.
 */
export interface PaymentMethod {
  name: string;
  ownedByWorkspace: string;
  /** `YYYY-MM-DD`; the method is valid through that day (UTC). */
  expirationDate?: string;
  deletedOn?: string;
  createdOn: string;
  document: SentObject;
}

export type PaymentMethodInput = Pick<PaymentMethod, 'name' | 'ownedByWorkspace' | 'expirationDate' | 'document'>;

/** Today's date in UTC, as expiration dates are compared. */
export const todayUtc = (now: Date = new Date()) => now.toISOString().slice(0, 10);

/** Whether the method can no longer pay for anything: its expiration date has passed. */
export const isExpired = (method: Pick<PaymentMethod, 'expirationDate'>, now: Date = new Date()) =>
  method.expirationDate !== undefined && method.expirationDate < todayUtc(now);
