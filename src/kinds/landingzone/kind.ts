import { CrudService } from '../crud/service.js';
import { column, type KindManifest, deprecated, example } from '../manifest.js';
import { taggedBy } from '../tags.js';
import { AuthorizedLandingZoneService } from './authorized-service.js';
import { LANDING_ZONE_TITLES } from './events.js';
import { landingZoneOperations } from './routes.js';
import { landingZoneStrategy } from './strategy.js';
import { LANDING_ZONE_CODECS } from './wire/index.js';
import { LANDING_ZONES_PATH } from './model.js';

declare module '../services.js' {
  interface AuthorizedServices {
    landingZones: AuthorizedLandingZoneService;
  }
}

export const landingZoneKind: KindManifest<'landingZones'> = {
  name: 'landingZones',
  resources: [
    {
      path: LANDING_ZONES_PATH,
      codecs: LANDING_ZONE_CODECS,
      index: ['identifier', 'displayName', 'platformUuid', 'disabled', 'restricted', 'ownedByWorkspace'],
      cli: { aliases: ['lz'], columns: [column('PLATFORM', 'spec.platformRef.uuid')] },
    },
  ],
  events: LANDING_ZONE_TITLES,
  lifecycle: [deprecated('meshLandingZone.v1-preview', 'v1', { successor: 'v1' })],
  examples: [
    example('meshLandingZone.v1', {
      metadata: { name: 'sandbox', tags: {} },
      spec: {
        displayName: 'Sandbox',
        platformRef: { kind: 'meshPlatform', uuid: '5f0d3c52-7c2e-4b8b-9a51-3f8e2d6c1a90' },
        automateDeletionApproval: false,
        automateDeletionReplication: false,
        quotas: [],
      },
    }),
  ],
  references: [
    taggedBy({ kind: 'meshLandingZone', table: 'landing_zones', keys: ['name'], section: 'metadata' }),
    { to: 'platform', kind: 'enabled meshLandingZones', table: 'landing_zones', columns: ['platform_uuid'], unlessSet: 'disabled_on' },
  ],
  build(context) {
    const platforms = context.authorized('platforms');
    const tags = context.authorized('tagDefinitions');
    const strategy = landingZoneStrategy({
      resolvePlatform: (ctx, uuid, field) => platforms.resolve(ctx, uuid, field),
      enforceTags: (ctx, targetKind, sent, previous, admin, field) => tags.enforce(ctx, targetKind, sent, previous, admin, field),
    });
    return {
      authorized: new AuthorizedLandingZoneService(new CrudService(context.db, context.recorder, context.references, strategy), platforms),
    };
  },
  operations: (services) => landingZoneOperations(services.landingZones),
};
