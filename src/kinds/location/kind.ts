import { importable, metadataName } from '../importable.js';
import { queryTemplate, type KindManifest } from '../manifest.js';
import { AuthorizedLocationService } from './authorized-service.js';
import { LOCATION_TITLES } from './events.js';
import { locationOperations } from './routes.js';
import { LocationService } from './service.js';
import { LOCATION_CODECS } from './wire/index.js';
import { LOCATIONS_PATH } from './model.js';

declare module '../services.js' {
  interface AuthorizedServices {
    locations: AuthorizedLocationService;
  }
  interface PlainServices {
    locations: LocationService;
  }
}

export const locationKind: KindManifest<'locations'> = {
  name: 'locations',
  resources: [
    { path: LOCATIONS_PATH, codecs: LOCATION_CODECS, relation: { rel: 'meshlocations', template: queryTemplate('displayName') }, cli: {} },
  ],
  events: LOCATION_TITLES,
  lifecycle: [
    { kind: 'meshlocation', version: 'v1-preview', replacedBy: 'meshLocation.v1', successor: { kind: 'meshlocation', version: 'v1' } },
  ],
  examples: {
    'meshlocation/v1': { apiVersion: 'v1', kind: 'meshLocation', metadata: { name: 'eu-west' }, spec: { displayName: 'EU West' } },
  },
  references: [{ to: 'workspace', kind: 'meshLocations', table: 'locations', columns: ['owned_by_workspace'] }],
  build(context) {
    const plain = new LocationService(context.db, context.plain('workspaces'), context.recorder, context.references);
    return { plain, authorized: new AuthorizedLocationService(plain) };
  },
  operations: (services) => locationOperations(services.locations),
  importable: (services) => [
    importable(LOCATION_CODECS, metadataName, async (ctx, input) => {
      const { location, created } = await services.locations.save(ctx, input);
      return { name: location.name, created };
    }),
  ],
};
