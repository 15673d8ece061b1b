import type { Operation } from '../operation.js';
import type { AuthorizedCollectionService } from './authorized-service.js';
import { COLLECTION_MEDIA, CreateBody, decodeCreate, decodeDelete, DeleteBody } from './wire.js';
import { COLLECTIONS_PATH } from './model.js';

/**
 * `POST` (201) and `DELETE` (200, the body names the collection) `/api/meshobjectcollections`; no answer
 * body. In the admin area as the import is; which collections a caller may touch, the service decides.
 */
export function collectionOperations(collections: AuthorizedCollectionService): Operation[] {
  // No Accept is declared for these (openapi-notes §1.3): the answers have no body.
  const media = { consumes: [COLLECTION_MEDIA] };
  return [
    {
      method: 'POST',
      path: COLLECTIONS_PATH,
      media,
      access: 'admin',
      doc: {
        summary: 'Create a meshObjectCollection',
        body: [{ media: COLLECTION_MEDIA, schema: CreateBody }],
        responses: { 201: { description: 'created' } },
      },
      handle: async (call) => {
        await collections.create(call.ctx, decodeCreate(call.body));
        return { status: 201 };
      },
    },
    {
      method: 'DELETE',
      path: COLLECTIONS_PATH,
      media,
      access: 'admin',
      doc: {
        summary: 'Delete a meshObjectCollection',
        body: [{ media: COLLECTION_MEDIA, schema: DeleteBody }],
        responses: { 200: { description: 'deleted' } },
      },
      handle: async (call) => {
        const { name, owner } = decodeDelete(call.body);
        await collections.delete(call.ctx, name, owner);
        return { status: 200 };
      },
    },
  ];
}
