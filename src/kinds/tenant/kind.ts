import { importable, rawField, rawText } from '../importable.js';
import { column, type KindManifest, deprecated, example } from '../manifest.js';
import { AuthorizedTenantService } from './authorized-service.js';
import { TENANT_TITLES } from './events.js';
import { TENANTS_PATH, tenantName } from './model.js';
import { tenantOperations } from './routes.js';
import { purgeDeletedTenants, TenantService } from './service.js';
import { TENANT_CODECS } from './wire/index.js';

declare module '../services.js' {
  interface AuthorizedServices {
    tenants: AuthorizedTenantService;
  }
}

export const tenantKind: KindManifest<'tenants'> = {
  name: 'tenants',
  resources: [
    {
      path: TENANTS_PATH,
      codecs: TENANT_CODECS,
      index: ['workspaceIdentifier', 'projectIdentifier', 'platformIdentifier', 'deletionState'],
      cli: {
        columns: [
          column('TENANT NAME', 'status.tenantName'),
          column('PLATFORM TENANT ID', 'spec.platformTenantId'),
          column('STATE', 'status.lifecycle.state'),
        ],
      },
    },
  ],
  events: TENANT_TITLES,
  lifecycle: [
    deprecated('meshTenant.v1', 'v3', { endOfLife: '2025-07-01', successor: 'v4' }),
    deprecated('meshTenant.v2', 'v3', { endOfLife: '2025-07-01', successor: 'v4' }),
    deprecated('meshTenant.v3', 'v4', { successor: 'v4' }),
  ],
  importLifecycle: [
    deprecated('meshTenant.v1', 'v3', { endOfLife: '2025-07-01' }),
    deprecated('meshTenant.v2', 'v3', { endOfLife: '2025-07-01' }),
    deprecated('meshTenant.v3', 'v4'),
  ],
  examples: ['v4', 'v4-preview'].map((version) =>
    example(`meshTenant.${version}`, {
      metadata: { ownedByWorkspace: 'platform-team', ownedByProject: 'web-shop' },
      spec: { platformRef: { kind: 'meshPlatform', uuid: '5f0d3c52-7c2e-4b8b-9a51-3f8e2d6c1a90' } },
    }),
  ),
  // Live tenants keep their project and platform; the records of deleted ones go with them.
  references: [
    {
      to: 'project',
      kind: 'meshTenants',
      table: 'tenants',
      columns: ['workspace', 'project'],
      unlessSet: 'deleted_on',
      cascade: (trx, [workspace, project], events) => purgeDeletedTenants(trx, { workspace: workspace!, project: project! }, events),
    },
    {
      to: 'platform',
      kind: 'meshTenants',
      table: 'tenants',
      columns: ['platform_uuid'],
      unlessSet: 'deleted_on',
      cascade: (trx, [platformUuid], events) => purgeDeletedTenants(trx, { platformUuid: platformUuid! }, events),
    },
  ],
  build(context) {
    const plain = new TenantService(
      context.db,
      context.plain('workspaces'),
      context.plain('projects'),
      context.recorder,
      context.references,
    );
    return { authorized: new AuthorizedTenantService(plain, context.authorized('platforms'), context.authorized('landingZones')) };
  },
  operations: (services) => tenantOperations(services.tenants),
  importable: (services) => [
    importable(
      TENANT_CODECS,
      (object) => {
        const platformRef = rawField(object, 'spec', 'platformRef') as { uuid?: unknown } | undefined;
        const platform =
          rawField(object, 'spec', 'platformIdentifier') ?? rawField(object, 'metadata', 'platformIdentifier') ?? platformRef?.uuid;
        return `${rawText(rawField(object, 'metadata', 'ownedByWorkspace'))}.${rawText(rawField(object, 'metadata', 'ownedByProject'))}.${rawText(platform)}`;
      },
      async (ctx, input) => {
        const { tenant, created } = await services.tenants.save(ctx, input);
        return { name: tenantName(tenant), created };
      },
    ),
  ],
};
