import { importable, metadataName } from '../importable.js';
import { column, queryTemplate, type KindManifest } from '../manifest.js';
import { AuthorizedPaymentMethodService } from './authorized-service.js';
import { PAYMENT_METHOD_TITLES } from './events.js';
import { paymentMethodOperations } from './routes.js';
import { PaymentMethodService } from './service.js';
import { PAYMENT_METHOD_CODECS } from './wire/index.js';
import { PAYMENT_METHODS_PATH } from './model.js';

declare module '../services.js' {
  interface AuthorizedServices {
    paymentMethods: AuthorizedPaymentMethodService;
  }
}

export const paymentMethodKind: KindManifest<'paymentMethods'> = {
  name: 'paymentMethods',
  resources: [
    {
      path: PAYMENT_METHODS_PATH,
      codecs: PAYMENT_METHOD_CODECS,
      relation: { rel: 'meshpaymentmethods', template: queryTemplate('workspaceIdentifier') },
      cli: { columns: [column('AMOUNT', 'spec.amount'), column('EXPIRES', 'spec.expirationDate')] },
    },
  ],
  events: PAYMENT_METHOD_TITLES,
  lifecycle: [{ kind: 'meshpaymentmethod', version: 'v1', endOfLife: '2025-07-01', replacedBy: 'meshPaymentMethod.v2' }],
  importLifecycle: [{ kind: 'meshpaymentmethod', version: 'v1', endOfLife: '2025-07-01', replacedBy: 'meshPaymentMethod.v2' }],
  examples: {
    'meshpaymentmethod/v2': {
      apiVersion: 'v2',
      kind: 'meshPaymentMethod',
      metadata: { name: 'cost-center-42', ownedByWorkspace: 'platform-team' },
      spec: { displayName: 'Cost center 42' },
    },
  },
  references: [
    { to: 'workspace', kind: 'meshPaymentMethods', table: 'payment_methods', columns: ['owned_by_workspace'], unlessSet: 'deleted_on' },
  ],
  build(context) {
    const plain = new PaymentMethodService(context.db, context.recorder, context.plain('workspaces'), context.references);
    return { authorized: new AuthorizedPaymentMethodService(plain, context.authorized('tagDefinitions')) };
  },
  operations: (services) => paymentMethodOperations(services.paymentMethods),
  importable: (services) => [
    importable(PAYMENT_METHOD_CODECS, metadataName, async (ctx, input) => {
      const { method, created } = await services.paymentMethods.save(ctx, input.name, input);
      return { name: method.name, created };
    }),
  ],
};
