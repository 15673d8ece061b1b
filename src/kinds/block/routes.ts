import type { FastifyInstance, FastifyRequest } from 'fastify';
import { notAcceptable, unsupportedMediaType } from '../../errors.js';
import type { AppContext } from '../../http/app.js';
import { registerResourceRoutes, versionOf } from '../../http/resource-routes.js';
import type { Block } from './model.js';
import { parseBlockFilter } from './parse-block-filter.js';
import { BLOCKS_PATH } from './wire/shared.js';
import { decodeBlockV1, encodeBlockV1 } from './wire/v1.js';
import { decodeBlockUpdateV2, decodeBlockV2, encodeBlockV2 } from './wire/v2-preview.js';

/** One path, two representations (spec §4: the Accept or Content-Type header selects v1 or v2-preview). */
const BLOCK_VERSIONS = [
  { kind: 'meshbuildingblock', version: 'v1' },
  { kind: 'meshbuildingblock', version: 'v2-preview' },
] as const;

export async function blockRoutes(app: FastifyInstance, context: AppContext): Promise<void> {
  const blocks = context.services.blocks;
  const isV1 = (request: FastifyRequest) => versionOf(request) === 'v1';

  registerResourceRoutes<Block>(app, context, {
    path: BLOCKS_PATH,
    versions: BLOCK_VERSIONS,
    embedded: 'meshBuildingBlocks',
    resource: 'BUILDINGBLOCK',
    managed: true,
    encode: (block, request) => {
      const purge = blocks.mayPurge(request.principal);
      return isV1(request) ? encodeBlockV1(block, context.baseUrl(), purge) : encodeBlockV2(block, context.baseUrl(), purge);
    },
    get: async (request, uuid) => {
      const block = await blocks.get(request.principal, uuid);
      if (isV1(request) && !block.tenant) throw notAcceptable(`meshBuildingBlock ${block.uuid} targets a workspace and has no v1 representation; request application/vnd.vendor.api.meshbuildingblock.v2-preview.hal+json`);
      return block;
    },
    list: async (request, query, page) => {
      const parsed = parseBlockFilter(query, versionOf(request));
      return parsed === 'none' ? { items: [], total: 0 } : blocks.list(request.principal, parsed, page);
    },
    create: (request, body) => blocks.create(request.principal, request.negotiated.consumes?.version === 'v1' ? decodeBlockV1(body) : decodeBlockV2(body)),
    update: (request, uuid, body) => {
      if (request.negotiated.consumes?.version !== 'v2-preview') throw unsupportedMediaType('a building block is updated with application/vnd.vendor.api.meshbuildingblock.v2-preview.hal+json');
      return blocks.update(request.principal, uuid, decodeBlockUpdateV2(body));
    },
    remove: { status: 202, run: (request, uuid) => blocks.delete(request.principal, uuid) },
  });

  // No body (whatever Content-Type is sent); 202 with an empty body (COMPAT §9).
  app.post(`${BLOCKS_PATH}/:id/trigger-run`, { config: { access: { resource: 'BUILDINGBLOCK', action: 'SAVE', orManaged: true } } }, async (request, reply) => {
    await blocks.triggerRun(request.principal, (request.params as { id: string }).id);
    return reply.code(202).send();
  });

  app.delete(`${BLOCKS_PATH}/:id/purge`, { config: { access: { resource: 'BUILDINGBLOCK', action: 'DELETE' } } }, async (request, reply) => {
    await blocks.purge(request.principal, (request.params as { id: string }).id);
    return reply.code(202).send();
  });
}
