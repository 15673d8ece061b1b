import { importable, metadataName } from '../importable.js';
import { type KindManifest, deprecated, example } from '../manifest.js';
import { AuthorizedCrudService } from '../crud/authorized-service.js';
import { CrudService } from '../crud/service.js';
import { LOCATION_TITLES } from './events.js';
import { locationOperations } from './routes.js';
import { LOCATION_ACCESS, locationStrategy } from './strategy.js';
import { LOCATION_CODECS } from './wire/index.js';
import { LOCATIONS_PATH, type Location, type LocationInput } from './model.js';

declare module '../services.js' {
  interface AuthorizedServices {
    locations: AuthorizedCrudService<Location, LocationInput>;
  }
  interface PlainServices {
    locations: CrudService<Location, LocationInput>;
  }
}

export const locationKind: KindManifest<'locations'> = {
  name: 'locations',
  resources: [{ path: LOCATIONS_PATH, codecs: LOCATION_CODECS, index: ['displayName'], cli: {} }],
  events: LOCATION_TITLES,
  lifecycle: [deprecated('meshLocation.v1-preview', 'v1', { successor: 'v1' })],
  examples: [example('meshLocation.v1', { metadata: { name: 'eu-west' }, spec: { displayName: 'EU West' } })],
  references: [{ to: 'workspace', kind: 'meshLocations', table: 'locations', columns: ['owned_by_workspace'] }],
  build(context) {
    const workspaces = context.plain('workspaces');
    const strategy = locationStrategy((name, field) => workspaces.requireExists(name, field));
    const plain = new CrudService(context.db, context.recorder, context.references, strategy);
    const names = { kind: 'meshLocation', noun: 'location', missing: 'LOCATION', idOfInput: (input: LocationInput) => input.name } as const;
    return { plain, authorized: new AuthorizedCrudService(plain, LOCATION_ACCESS, names) };
  },
  operations: (services) => locationOperations(services.locations),
  importable: (services) => [
    importable(LOCATION_CODECS, metadataName, async (ctx, input) => {
      const { object, created } = await services.locations.save(ctx, input);
      return { name: object.name, created };
    }),
  ],
};
