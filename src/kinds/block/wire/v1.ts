import { Type } from '@sinclair/typebox';
import { DateTime, Int32, KindOf, NonEmptyShortString, Uuid } from '../../../lib/wire-schemas.js';
import { objectVersion } from '../../wire-helpers.js';
import { tenantIdentifierOf, type Block, type BlockRequest } from '../model.js';
import type { BlockFilter } from '../store.js';
import {
  BlockStatus,
  blockLinks,
  decodeInputs,
  decodeParents,
  deletionMetadata,
  DeletionMetadata,
  encodeRows,
  InputRowSchema,
  ParentAnswer,
  ParentSchema,
  ValueRowAnswer,
  type BlockView,
} from './rows.js';

const Body = Type.Object({
  kind: KindOf('meshBuildingBlock'),
  metadata: Type.Object({
    definitionUuid: Uuid,
    // A number; `"v3"` and `"3"` are taken as well (the list filter's forms).
    definitionVersion: Type.Union([Int32({ minimum: 1 }), Type.String({ pattern: '^v?[1-9][0-9]{0,8}$' })]),
    tenantIdentifier: Type.String({ minLength: 1, maxLength: 1023 }),
  }),
  spec: Type.Object({
    displayName: NonEmptyShortString,
    inputs: Type.Array(InputRowSchema, { maxItems: 500 }),
    parentBuildingBlocks: Type.Array(ParentSchema, { maxItems: 100 }),
  }),
});

/** meshBuildingBlock v1 (spec §2.4, §4.1; deprecated): tenant blocks only, the version named by its number. */
export const blockV1 = {
  ...objectVersion('meshBuildingBlock', 'v1', {
    answer: {
      metadata: Type.Object({
        uuid: Uuid,
        definitionUuid: Uuid,
        definitionVersion: Type.Integer(),
        tenantIdentifier: Type.String(),
        forcePurge: Type.Boolean(),
        createdOn: DateTime,
        ...DeletionMetadata,
      }),
      spec: Type.Object({ displayName: Type.String(), inputs: Type.Array(ValueRowAnswer), parentBuildingBlocks: Type.Array(ParentAnswer) }),
      status: Type.Object({ status: BlockStatus, outputs: Type.Array(ValueRowAnswer) }),
    },
    body: Body,
    decode({ metadata, spec }): BlockRequest {
      const versionNumber =
        typeof metadata.definitionVersion === 'number' ? metadata.definitionVersion : Number(metadata.definitionVersion.replace(/^v/, ''));
      return {
        target: { tenantName: metadata.tenantIdentifier },
        version: { definitionUuid: metadata.definitionUuid.toLowerCase(), versionNumber },
        displayName: spec.displayName,
        inputs: decodeInputs(spec.inputs),
        parents: decodeParents(spec.parentBuildingBlocks, undefined),
      };
    },
    encode(block: Block, view: BlockView) {
      const tenantIdentifier = tenantIdentifierOf(block)!;
      return {
        metadata: {
          uuid: block.uuid,
          definitionUuid: block.definitionUuid,
          definitionVersion: block.versionNumber,
          tenantIdentifier,
          forcePurge: block.forcePurge,
          createdOn: block.createdOn,
          ...deletionMetadata(block),
        },
        spec: { displayName: block.displayName, inputs: encodeRows(block.inputs), parentBuildingBlocks: block.parents },
        status: { status: block.status, outputs: encodeRows(block.outputs) },
        _links: blockLinks(block, view, { meshtenant: { rel: 'meshtenants', id: tenantIdentifier, workspace: block.workspace } }),
      };
    },
  }),
  /** v1 shows tenant blocks only: a workspace block has no v1 form (406). */
  unrepresentable(block: Block): string | undefined {
    return block.tenant
      ? undefined
      : `meshBuildingBlock ${block.uuid} targets a workspace and has no v1 representation; request application/vnd.vendor.api.meshbuildingblock.v2-preview.hal+json`;
  },
  /** A v1 list holds tenant blocks only. */
  listFilter(filter: BlockFilter): BlockFilter | 'none' {
    return filter.targetKind === 'meshWorkspace' ? 'none' : { ...filter, targetKind: 'meshTenant' };
  },
};
