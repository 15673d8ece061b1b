import { importable, metadataName } from '../importable.js';
import { CrudService } from '../crud/service.js';
import { column, type KindManifest, deprecated, example } from '../manifest.js';
import { taggedBy } from '../tags.js';
import { AuthorizedPaymentMethodService } from './authorized-service.js';
import { PAYMENT_METHOD_TITLES } from './events.js';
import { paymentMethodOperations } from './routes.js';
import { paymentMethodStrategy } from './strategy.js';
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
      index: ['workspaceIdentifier'],
      cli: { columns: [column('AMOUNT', 'spec.amount'), column('EXPIRES', 'spec.expirationDate')] },
    },
  ],
  events: PAYMENT_METHOD_TITLES,
  lifecycle: [deprecated('meshPaymentMethod.v1', 'v2', { endOfLife: '2025-07-01' })],
  importLifecycle: [deprecated('meshPaymentMethod.v1', 'v2', { endOfLife: '2025-07-01' })],
  examples: [
    example('meshPaymentMethod.v2', {
      metadata: { name: 'cost-center-42', ownedByWorkspace: 'platform-team' },
      spec: { displayName: 'Cost center 42' },
    }),
  ],
  references: [
    taggedBy({ kind: 'meshPaymentMethod', table: 'payment_methods', keys: ['name'], section: 'spec' }),
    { to: 'workspace', kind: 'meshPaymentMethods', table: 'payment_methods', columns: ['owned_by_workspace'], unlessSet: 'deleted_on' },
  ],
  build(context) {
    const workspaces = context.plain('workspaces');
    const tags = context.authorized('tagDefinitions');
    const strategy = paymentMethodStrategy({
      requireWorkspace: (name, field) => workspaces.requireExists(name, field),
      enforceTags: (ctx, targetKind, sent, previous, admin) => tags.enforce(ctx, targetKind, sent, previous, admin),
    });
    return { authorized: new AuthorizedPaymentMethodService(new CrudService(context.db, context.recorder, context.references, strategy)) };
  },
  operations: (services) => paymentMethodOperations(services.paymentMethods),
  importable: (services) => [
    importable(PAYMENT_METHOD_CODECS, metadataName, async (ctx, input) => {
      const { object, created } = await services.paymentMethods.save(ctx, input);
      return { name: object.name, created };
    }),
  ],
};
