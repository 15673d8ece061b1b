import { column, type KindManifest, deprecated, example } from '../manifest.js';
import { AuthorizedBlockService } from './authorized-service.js';
import { BLOCK_TITLES } from './events.js';
import { blockOperations } from './routes.js';
import { BlockService } from './service.js';
import { BLOCK_CODECS } from './wire/index.js';
import { BLOCKS_PATH } from './model.js';

declare module '../services.js' {
  interface AuthorizedServices {
    blocks: AuthorizedBlockService;
  }
  interface PlainServices {
    blocks: BlockService;
  }
}

export const blockKind: KindManifest<'blocks'> = {
  name: 'blocks',
  resources: [
    {
      path: BLOCKS_PATH,
      codecs: BLOCK_CODECS,
      index: [
        'workspaceIdentifier',
        'projectIdentifier',
        'platformIdentifier',
        'name',
        'definitionUuid',
        'versionUuid',
        'tenantUuid',
        'targetRefKind',
        'status',
        'managedByWorkspaceIdentifier',
        'managedByDefinitionUuid',
      ],
      cli: { aliases: ['bb', 'blocks', 'block'], columns: [column('STATUS', 'status.status'), column('TARGET', 'spec.targetRef.kind')] },
    },
  ],
  events: BLOCK_TITLES,
  lifecycle: [deprecated('meshBuildingBlock.v1', 'v2', { successor: 'v2-preview' })],
  examples: [
    example('meshBuildingBlock.v2-preview', {
      spec: {
        displayName: 'Budget alert',
        buildingBlockDefinitionVersionRef: { kind: 'meshBuildingBlockDefinitionVersion', uuid: '0b8c5a3e-2d41-4f6a-9c7e-8e1f2a3b4c5d' },
        targetRef: { kind: 'meshWorkspace', identifier: 'platform-team' },
        inputs: [],
        parentBuildingBlocks: [],
      },
    }),
  ],
  references: [
    { to: 'workspace', kind: 'meshBuildingBlocks', table: 'building_blocks', columns: ['workspace'] },
    { to: 'tenant', kind: 'meshBuildingBlocks', table: 'building_blocks', columns: ['tenant_uuid'] },
    { to: 'definition', kind: 'meshBuildingBlocks', table: 'building_blocks', columns: ['definition_uuid'] },
  ],
  build(context) {
    // A block's unit of work and lifecycle write runs' events: the runs' kind makes them (blocks do not import runs).
    const { unitOf, lifecycle } = context.plain('runs');
    const plain = new BlockService(context.db, context.dialect, unitOf, lifecycle, context.secrets, context.recorder);
    const authorized = new AuthorizedBlockService(
      plain,
      context.authorized('definitions'),
      context.authorized('tenants'),
      context.authorized('workspaces'),
    );
    return { plain, authorized };
  },
  operations: (services) => blockOperations(services.blocks),
};
