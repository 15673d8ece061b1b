/**
 * What a page of 50 blocks costs to answer once its rows are read: each codec form's `encode` of the
 * 50 models, and that with the page schema's serializer and the UTF-8 length the reply takes (which
 * flattens the serializer's string). In process, no server: the encoder's own cost, free of the
 * request path, the database and TLS. Best of 15 batches per measure, on one core.
 *
 *   node --import tsx bench/encode-page.ts
 */
import { randomUUID } from 'node:crypto';
import type { CollectionPermissions } from '../src/auth/route-access.js';
import { serializerFor } from '../src/http/serialization.js';
import type { Block } from '../src/kinds/block/model.js';
import { BLOCK_CODECS } from '../src/kinds/block/wire/index.js';
import { halPage, halPageSchema, pageInfo, pageLinks } from '../src/lib/paging.js';

// The bench's blocks (load-data.ts): a tenant target, one input, one output when SUCCEEDED.
const blocks: Block[] = Array.from({ length: 50 }, (_, i) => ({
  uuid: randomUUID(),
  workspace: 'workspace-1',
  targetKind: 'meshTenant',
  tenant: { uuid: randomUUID(), project: 'app', platformIdentifier: 'cloud.eu' },
  definitionUuid: randomUUID(),
  definitionOwner: 'platform-team',
  versionUuid: randomUUID(),
  versionNumber: 1,
  displayName: `block ${i}`,
  status: 'SUCCEEDED',
  forcePurge: false,
  createdOn: new Date(Date.now() + i).toISOString(),
  createdBy: 'bench',
  latestRunUuid: randomUUID(),
  inputs: [{ key: 'name', value: `block-${i}`, valueType: 'STRING', isSensitive: false, assignmentType: 'USER_INPUT' }],
  parents: [],
  outputs: [{ key: 'url', value: `https://example.com/${i}`, valueType: 'STRING', isSensitive: false }],
}));
const collections = { mayList: () => true, pathOf: (rel: string) => `/api/meshobjects/${rel}` } as Pick<
  CollectionPermissions,
  'mayList' | 'pathOf'
> as CollectionPermissions;
const view = { baseUrl: 'https://127.0.0.1:8443', collections, showPurge: true };
const info = pageInfo({ page: 0, size: 50 }, 5000);
const links = pageLinks(view.baseUrl, '/api/meshobjects/meshbuildingblocks?workspaceIdentifier=workspace-1&status=SUCCEEDED', info);

function microsPerPage(run: () => unknown): number {
  for (let i = 0; i < 2000; i++) run();
  let best = Infinity;
  for (let batch = 0; batch < 15; batch++) {
    const started = process.hrtime.bigint();
    for (let i = 0; i < 300; i++) run();
    best = Math.min(best, Number(process.hrtime.bigint() - started) / 300 / 1000);
  }
  return best;
}

for (const [name, codec] of [
  ['v2-preview', BLOCK_CODECS.of('v2-preview', 'vendor')],
  ['v2-preview under meshcloud', BLOCK_CODECS.of('v2-preview', 'meshcloud')],
  ['v1', BLOCK_CODECS.of('v1')],
] as const) {
  const serialize = serializerFor(halPageSchema('meshBuildingBlocks', codec.schema));
  const encode = microsPerPage(() => blocks.map((block) => codec.encode(block, view)));
  const answer = microsPerPage(() =>
    Buffer.byteLength(
      serialize(
        halPage(
          'meshBuildingBlocks',
          blocks.map((block) => codec.encode(block, view)),
          info,
          links,
        ),
      ),
    ),
  );
  console.log(`${name}: encode ${encode.toFixed(1)} µs per page of 50, with serialisation ${answer.toFixed(1)} µs`);
}
