import { Type } from '@sinclair/typebox';
import { compileDecoder } from '../../../http/validation.js';
import { Int32, KindOf, NonEmptyShortString, Uuid } from '../../../http/wire-schemas.js';
import { tenantIdentifierOf, type Block, type BlockRequest } from '../model.js';
import { blockLinks, decodeInputs, decodeParents, deletionMetadata, encodeRows, InputRowSchema, ParentSchema } from './shared.js';

/** meshBuildingBlock v1 (spec §2.4, §4.1): tenant blocks only, the version named by its number. */
const decodeBody = compileDecoder(
  Type.Object({
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
  }),
);

export function decodeBlockV1(body: unknown): BlockRequest {
  const { metadata, spec } = decodeBody(body);
  const versionNumber = typeof metadata.definitionVersion === 'number' ? metadata.definitionVersion : Number(metadata.definitionVersion.replace(/^v/, ''));
  return {
    target: { tenantName: metadata.tenantIdentifier },
    version: { definitionUuid: metadata.definitionUuid.toLowerCase(), versionNumber },
    displayName: spec.displayName,
    inputs: decodeInputs(spec.inputs),
    parents: decodeParents(spec.parentBuildingBlocks, undefined),
  };
}

export function encodeBlockV1(block: Block, baseUrl: string, showPurge: boolean) {
  const tenantIdentifier = tenantIdentifierOf(block)!;
  return {
    apiVersion: 'v1',
    kind: 'meshBuildingBlock',
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
    _links: { ...blockLinks(block, baseUrl, showPurge), meshtenant: { href: `${baseUrl}/api/meshobjects/meshtenants/${encodeURIComponent(tenantIdentifier)}` } },
  };
}
