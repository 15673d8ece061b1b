import type { KindManifest } from '../manifest.js';
import { AuthorizedCollectionService } from './authorized-service.js';
import { COLLECTION_TITLES } from './events.js';
import { collectionOperations } from './routes.js';
import { COLLECTIONS_PATH } from './model.js';
import { CollectionService } from './service.js';
import { COLLECTION_MEDIA } from './wire.js';

declare module '../services.js' {
  interface AuthorizedServices {
    collections: AuthorizedCollectionService;
  }
}

/** meshObjectCollections: only created and deleted (in the admin area), filled by the import. */
export const collectionKind: KindManifest<'collections'> = {
  name: 'collections',
  resources: [{ path: COLLECTIONS_PATH, codecs: { kind: 'meshObjectCollection', media: [COLLECTION_MEDIA] } }],
  events: COLLECTION_TITLES,
  // Its collections would pass to a new workspace of the same name.
  references: [{ to: 'workspace', kind: 'meshObjectCollections', table: 'object_collections', columns: ['owned_by_workspace'] }],
  build: (context) => ({
    authorized: new AuthorizedCollectionService(new CollectionService(context.db, context.recorder, context.references)),
  }),
  operations: (services) => collectionOperations(services.collections),
};
