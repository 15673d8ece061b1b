import { notAcceptable, unsupportedMediaType } from '../../lib/errors.js';
import { emptyPage } from '../../lib/paging.js';
import { empty, versionOf, type Operation } from '../operation.js';
import { resourceOperations } from '../resource.js';
import type { AuthorizedBlockService } from './authorized-service.js';
import type { Block } from './model.js';
import { BLOCK_FILTERS, parseBlockFilter } from './query.js';
import { BLOCK_CODECS } from './wire/index.js';
import { BLOCKS_PATH } from './model.js';

export function blockOperations(blocks: AuthorizedBlockService): Operation[] {
  return [
    ...resourceOperations<Block>({
      path: BLOCKS_PATH,
      codecs: BLOCK_CODECS.codecs,
      embedded: 'meshBuildingBlocks',
      filters: BLOCK_FILTERS,
      resource: 'BUILDINGBLOCK',
      managed: true,
      encode: (block, call) =>
        BLOCK_CODECS.of(versionOf(call), call.vendor).encode(block, {
          baseUrl: call.baseUrl,
          collections: call.collections,
          showPurge: blocks.mayPurge(call.ctx),
        }),
      get: async (call, uuid) => {
        const block = await blocks.get(call.ctx, uuid);
        const problem = BLOCK_CODECS.of(versionOf(call)).unrepresentable?.(block);
        if (problem) throw notAcceptable(problem);
        return block;
      },
      list: async (call, page) => {
        const parsed = parseBlockFilter(call.query);
        if (parsed === 'none') return emptyPage();
        const hook = BLOCK_CODECS.of(versionOf(call)).listFilter;
        const filter = hook ? hook(parsed.filter) : parsed.filter;
        return filter === 'none' ? emptyPage() : blocks.list(call.ctx, { ...parsed, filter }, page);
      },
      create: (call) => blocks.create(call.ctx, BLOCK_CODECS.of(call.consumes?.version).decode(call.body)),
      update: (call, uuid) => {
        const decodeUpdate = BLOCK_CODECS.of(call.consumes?.version).decodeUpdate;
        if (!decodeUpdate)
          throw unsupportedMediaType('a building block is updated with application/vnd.vendor.api.meshbuildingblock.v2-preview.hal+json');
        return blocks.update(call.ctx, uuid, decodeUpdate(call.body));
      },
      remove: { status: 202, run: (call, uuid) => blocks.delete(call.ctx, uuid) },
    }),
    {
      // No body (whatever Content-Type is sent); 202 with an empty body (COMPAT §9).
      method: 'POST',
      path: `${BLOCKS_PATH}/:id/trigger-run`,
      access: { resource: 'BUILDINGBLOCK', action: 'SAVE', orManaged: true },
      doc: {
        summary: 'Run a building block again',
        description: 'No body (whatever Content-Type is sent).',
        responses: { 202: { description: 'a run was requested' } },
      },
      handle: async (call) => {
        await blocks.triggerRun(call.ctx, call.params.id!);
        return empty(202);
      },
    },
    {
      method: 'DELETE',
      path: `${BLOCKS_PATH}/:id/purge`,
      access: { resource: 'BUILDINGBLOCK', action: 'DELETE' },
      doc: {
        summary: 'Purge a building block',
        description: 'Removes the block without running its deletion (admins, and holders of BUILDINGBLOCK_DELETE of a definition owner).',
        responses: { 202: { description: 'purged' } },
      },
      handle: async (call) => {
        await blocks.purge(call.ctx, call.params.id!);
        return empty(202);
      },
    },
  ];
}
