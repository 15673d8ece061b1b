import { importable, metadataName } from '../importable.js';
import { column, type KindManifest, deprecated, example } from '../manifest.js';
import { AuthorizedPlatformService } from './authorized-service.js';
import { PLATFORM_TITLES } from './events.js';
import { platformOperations } from './routes.js';
import { PlatformService } from './service.js';
import { PLATFORM_CODECS } from './wire/index.js';
import { PLATFORMS_PATH } from './model.js';

declare module '../services.js' {
  interface AuthorizedServices {
    platforms: AuthorizedPlatformService;
  }
}

export const platformKind: KindManifest<'platforms'> = {
  name: 'platforms',
  resources: [
    {
      path: PLATFORMS_PATH,
      codecs: PLATFORM_CODECS,
      index: ['identifier', 'locationIdentifier', 'ownedByWorkspace', 'platformTypeIdentifier'],
      cli: { columns: [column('LOCATION', 'spec.locationRef.name'), column('TYPE', 'spec.config.type')] },
    },
  ],
  events: PLATFORM_TITLES,
  lifecycle: [deprecated('meshPlatform.v1', 'v2', { successor: 'v2' }), deprecated('meshPlatform.v2-preview', 'v2', { successor: 'v2' })],
  examples: [
    example('meshPlatform.v2', {
      metadata: { name: 'kubernetes', ownedByWorkspace: 'platform-team' },
      spec: { displayName: 'Kubernetes', locationRef: { kind: 'meshLocation', name: 'eu-west' } },
    }),
  ],
  references: [
    { to: 'workspace', kind: 'meshPlatforms', table: 'platforms', columns: ['owned_by_workspace'] },
    { to: 'location', kind: 'meshPlatforms', table: 'platforms', columns: ['location'] },
  ],
  build(context) {
    const { db, secrets, recorder, references } = context;
    const plain = new PlatformService(db, context.plain('workspaces'), context.plain('locations'), secrets, recorder, references);
    return { authorized: new AuthorizedPlatformService(plain, context.authorized('platformTypes')) };
  },
  operations: (services) => platformOperations(services.platforms),
  importable: (services) => [
    importable(PLATFORM_CODECS, metadataName, async (ctx, { input }) => {
      const { platform, created } = await services.platforms.save(ctx, input);
      return { name: platform.name, created };
    }),
  ],
};
