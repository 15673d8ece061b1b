import { importable, rawField, rawText } from '../importable.js';
import { column, queryTemplate, type KindManifest } from '../manifest.js';
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

const PLATFORM_REF = { kind: 'meshPlatform', uuid: '5f0d3c52-7c2e-4b8b-9a51-3f8e2d6c1a90' };

export const tenantKind: KindManifest<'tenants'> = {
  name: 'tenants',
  resources: [
    {
      path: TENANTS_PATH,
      codecs: TENANT_CODECS,
      relation: {
        rel: 'meshtenants',
        template: queryTemplate('workspaceIdentifier', 'projectIdentifier', 'platformIdentifier', 'deletionState'),
      },
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
    {
      kind: 'meshtenant',
      version: 'v1',
      endOfLife: '2025-07-01',
      replacedBy: 'meshTenant.v3',
      successor: { kind: 'meshtenant', version: 'v4' },
    },
    {
      kind: 'meshtenant',
      version: 'v2',
      endOfLife: '2025-07-01',
      replacedBy: 'meshTenant.v3',
      successor: { kind: 'meshtenant', version: 'v4' },
    },
    { kind: 'meshtenant', version: 'v3', replacedBy: 'meshTenant.v4', successor: { kind: 'meshtenant', version: 'v4' } },
  ],
  importLifecycle: [
    { kind: 'meshtenant', version: 'v1', endOfLife: '2025-07-01', replacedBy: 'meshTenant.v3' },
    { kind: 'meshtenant', version: 'v2', endOfLife: '2025-07-01', replacedBy: 'meshTenant.v3' },
    { kind: 'meshtenant', version: 'v3', replacedBy: 'meshTenant.v4' },
  ],
  examples: {
    'meshtenant/v4': {
      apiVersion: 'v4',
      kind: 'meshTenant',
      metadata: { ownedByWorkspace: 'platform-team', ownedByProject: 'web-shop' },
      spec: { platformRef: PLATFORM_REF },
    },
    'meshtenant/v4-preview': {
      apiVersion: 'v4-preview',
      kind: 'meshTenant',
      metadata: { ownedByWorkspace: 'platform-team', ownedByProject: 'web-shop' },
      spec: { platformRef: PLATFORM_REF },
    },
  },
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
