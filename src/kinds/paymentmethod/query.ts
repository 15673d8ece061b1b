import { Filter, filterValue, type Query } from '../../lib/query.js';

/** The payment method list's filters, as its route documents them. */
export const PAYMENT_METHOD_FILTERS = { workspaceIdentifier: Filter('payment methods of this workspace') };

/** The payment method list's filter: `workspaceIdentifier`, the owning workspace. */
export const parsePaymentMethodFilter = (query: Query) => ({ workspace: filterValue(query, 'workspaceIdentifier') });
