import { importable, rawField, rawText } from '../importable.js';
import { column, type KindManifest, deprecated } from '../manifest.js';
import { AuthorizedServiceInstanceService } from './authorized-service.js';
import { SERVICE_INSTANCE_TITLES } from './events.js';
import { serviceInstanceOperations } from './routes.js';
import { ServiceInstanceService } from './service.js';
import { ServiceInstanceStore } from './store.js';
import { SERVICE_INSTANCE_CODECS } from './wire/index.js';
import { SERVICE_INSTANCES_PATH } from './model.js';

declare module '../services.js' {
  interface AuthorizedServices {
    serviceInstances: AuthorizedServiceInstanceService;
  }
}

export const serviceInstanceKind: KindManifest<'serviceInstances'> = {
  name: 'serviceInstances',
  resources: [
    {
      path: SERVICE_INSTANCES_PATH,
      codecs: SERVICE_INSTANCE_CODECS,
      index: ['workspaceIdentifier', 'projectIdentifier', 'marketplaceIdentifier', 'serviceIdentifier', 'planIdentifier'],
      cli: {
        aliases: ['instances', 'instance', 'si'],
        columns: [
          column('PROJECT', 'metadata.ownedByProject'),
          column('SERVICE', 'spec.serviceId'),
          column('PLAN', 'spec.planId'),
          column('STATE', 'status.state'),
        ],
      },
    },
  ],
  events: SERVICE_INSTANCE_TITLES,
  lifecycle: [deprecated('meshServiceInstance.v1', 'v2', { endOfLife: '2025-03-01' })],
  importLifecycle: [deprecated('meshServiceInstance.v1', 'v2', { endOfLife: '2025-07-01' })],
  // Live instances keep their project; deleting ones go with it.
  references: [
    {
      to: 'project',
      kind: 'meshServiceInstances',
      table: 'service_instances',
      columns: ['workspace', 'project'],
      unlessSet: 'marked_for_deletion_on',
      cascade: (trx, [workspace, project]) => new ServiceInstanceStore(trx).removeDeletingOf(workspace!, project!),
    },
  ],
  build(context) {
    const plain = new ServiceInstanceService(context.db, context.recorder);
    return { authorized: new AuthorizedServiceInstanceService(plain, context.authorized('projects'), context.authorized('users')) };
  },
  operations: (services) => serviceInstanceOperations(services.serviceInstances),
  importable: (services) => [
    importable(
      SERVICE_INSTANCE_CODECS,
      (object) => rawText(rawField(object, 'metadata', 'instanceId')),
      async (ctx, input) => {
        const { instance, created } = await services.serviceInstances.save(ctx, input);
        return { name: instance.instanceId, created };
      },
    ),
  ],
};
