import type { Operation } from '../operation.js';
import { crudOperations } from '../crud/routes.js';
import type { AuthorizedPaymentMethodService } from './authorized-service.js';
import { PAYMENT_METHODS_PATH } from './model.js';
import { PAYMENT_METHOD_FILTERS, parsePaymentMethodFilter } from './query.js';
import { PAYMENT_METHOD_CODECS } from './wire/index.js';

export function paymentMethodOperations(methods: AuthorizedPaymentMethodService): Operation[] {
  return crudOperations(methods, PAYMENT_METHOD_CODECS, {
    path: PAYMENT_METHODS_PATH,
    embedded: 'meshPaymentMethods',
    filters: PAYMENT_METHOD_FILTERS,
    filter: (query) => ({ owned_by_workspace: parsePaymentMethodFilter(query).workspace }),
    resource: 'PAYMENTMETHOD',
    adminOnly: 'writes',
    put: 'upsert',
  });
}
