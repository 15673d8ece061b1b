import { Filter, filterValue } from '../../lib/query.js';
import { versionOf, type Operation } from '../operation.js';
import { resourceOperations } from '../resource.js';
import type { AuthorizedPaymentMethodService } from './authorized-service.js';
import type { PaymentMethod } from './model.js';
import { PAYMENT_METHOD_CODECS } from './wire/index.js';
import { PAYMENT_METHODS_PATH } from './model.js';

export function paymentMethodOperations(methods: AuthorizedPaymentMethodService): Operation[] {
  const decode = (version: string | undefined, body: unknown) => PAYMENT_METHOD_CODECS.of(version).decode(body);
  return resourceOperations<PaymentMethod>({
    path: PAYMENT_METHODS_PATH,
    codecs: PAYMENT_METHOD_CODECS.codecs,
    embedded: 'meshPaymentMethods',
    filters: { workspaceIdentifier: Filter('payment methods of this workspace') },
    resource: 'PAYMENTMETHOD',
    adminOnly: 'writes',
    encode: (method, call) => PAYMENT_METHOD_CODECS.of(versionOf(call)).encode(method, call),
    get: (call, name) => methods.get(call.ctx, name),
    list: (call, page) => {
      const workspace = filterValue(call.query, 'workspaceIdentifier');
      return methods.list(call.ctx, workspace === undefined ? {} : { workspace }, page);
    },
    create: (call) => methods.create(call.ctx, decode(call.consumes?.version, call.body)),
    update: async (call, name) => (await methods.save(call.ctx, name, decode(call.consumes?.version, call.body))).method,
    remove: { status: 204, run: (call, name) => methods.delete(call.ctx, name) },
  });
}
