import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { badRequest } from '../../../lib/errors.js';
import { DateTime, Identifier, KindOf, NonEmptyShortString, Nullable, ShortString, Uuid } from '../../../lib/wire-schemas.js';
import { objectVersion } from '../../wire-helpers.js';
import type { Block, BlockRequest, BlockUpdate, SentTargetRef, ValueRow } from '../model.js';
import {
  BlockStatus,
  blockLinks,
  decodeInputs,
  decodeParents,
  deletionMetadata,
  DeletionMetadata,
  encodeKeyed,
  encodeRows,
  InputRowSchema,
  KeyedInputSchema,
  KeyedValueAnswer,
  ParentAnswer,
  ParentSchema,
  ValueRowAnswer,
  type BlockView,
} from './rows.js';

const Inputs = Type.Union([
  Type.Array(InputRowSchema, { maxItems: 500 }),
  Type.Record(ShortString, KeyedInputSchema, { maxProperties: 500 }),
]);
const Spec = Type.Object({
  displayName: NonEmptyShortString,
  buildingBlockDefinitionVersionRef: Type.Object({ uuid: Uuid, kind: KindOf('meshBuildingBlockDefinitionVersion') }),
  targetRef: Type.Object({
    kind: Type.Union([Type.Literal('meshTenant'), Type.Literal('meshWorkspace')]),
    uuid: Type.Optional(Uuid),
    identifier: Type.Optional(Identifier),
    name: Type.Optional(Identifier),
  }),
  inputs: Type.Optional(Inputs),
  parentBuildingBlocks: Type.Optional(Type.Array(ParentSchema, { maxItems: 100 })),
  parentBuildingBlockRefs: Type.Optional(Type.Array(Type.Object({ uuid: Uuid, kind: KindOf('meshBuildingBlock') }), { maxItems: 100 })),
});
const Body = Type.Object({ kind: KindOf('meshBuildingBlock'), spec: Spec });

/** An answer's parts, with the inputs and outputs in one form or the other (the vendor forms below). */
const answerParts = (inputs: TSchema, outputs: TSchema) => ({
  metadata: Type.Object({ uuid: Uuid, ownedByWorkspace: Identifier, createdOn: DateTime, ...DeletionMetadata }),
  spec: Type.Object({
    displayName: Type.String(),
    buildingBlockDefinitionVersionRef: Type.Object({ kind: Type.Literal('meshBuildingBlockDefinitionVersion'), uuid: Uuid }),
    targetRef: Type.Object(
      {
        kind: Type.Union([Type.Literal('meshTenant'), Type.Literal('meshWorkspace')]),
        uuid: Type.Optional(Uuid),
        identifier: Type.Optional(Identifier),
        name: Type.Optional(Identifier),
      },
      { description: 'as the client sent it: {kind: meshTenant, uuid} or {kind: meshWorkspace, identifier or name}' },
    ),
    inputs,
    parentBuildingBlocks: Type.Array(ParentAnswer),
    parentBuildingBlockRefs: Type.Array(Type.Object({ kind: Type.Literal('meshBuildingBlock'), uuid: Uuid })),
  }),
  status: Type.Object({
    status: BlockStatus,
    outputs,
    forcePurge: Type.Boolean(),
    lifecycle: Type.Object({ state: Type.Union([Type.Literal('ACTIVE'), Type.Literal('MARKED_FOR_DELETION')]) }),
    latestRunUuid: Nullable(Uuid),
    latestDryRunUuid: Type.Null(),
  }),
});

function decodeTarget(ref: {
  kind: 'meshTenant' | 'meshWorkspace';
  uuid?: string;
  identifier?: string;
  name?: string;
}): Pick<BlockRequest, 'target' | 'targetRef'> {
  if (ref.kind === 'meshTenant') {
    if (ref.uuid === undefined) throw badRequest('spec.targetRef.uuid: required for a meshTenant target');
    return { target: { tenantUuid: ref.uuid.toLowerCase() }, targetRef: { kind: 'meshTenant', uuid: ref.uuid } };
  }
  const identifier = ref.identifier ?? ref.name;
  if (identifier === undefined) throw badRequest('spec.targetRef.identifier: required for a meshWorkspace target');
  if (ref.identifier !== undefined && ref.name !== undefined && ref.identifier !== ref.name)
    throw badRequest('spec.targetRef: identifier and name differ');
  const sent: SentTargetRef =
    ref.identifier !== undefined ? { kind: 'meshWorkspace', identifier } : { kind: 'meshWorkspace', name: identifier };
  return { target: { workspace: identifier }, targetRef: sent };
}

function decode({ spec }: Static<typeof Body>): BlockRequest {
  return {
    ...decodeTarget(spec.targetRef),
    version: { uuid: spec.buildingBlockDefinitionVersionRef.uuid.toLowerCase() },
    displayName: spec.displayName,
    inputs: decodeInputs(spec.inputs ?? []),
    parents: decodeParents(spec.parentBuildingBlocks, spec.parentBuildingBlockRefs),
  };
}

function encode<R>(block: Block, view: BlockView, rows: (rows: ValueRow[]) => R) {
  const targetRef: SentTargetRef =
    block.targetRef ??
    (block.tenant ? { kind: 'meshTenant', uuid: block.tenant.uuid } : { kind: 'meshWorkspace', identifier: block.workspace });
  return {
    metadata: { uuid: block.uuid, ownedByWorkspace: block.workspace, createdOn: block.createdOn, ...deletionMetadata(block) },
    spec: {
      displayName: block.displayName,
      buildingBlockDefinitionVersionRef: { kind: 'meshBuildingBlockDefinitionVersion', uuid: block.versionUuid },
      targetRef,
      inputs: rows(block.inputs),
      parentBuildingBlocks: block.parents,
      parentBuildingBlockRefs: block.parents.map((parent) => ({ kind: 'meshBuildingBlock', uuid: parent.buildingBlockUuid })),
    },
    status: {
      status: block.status,
      outputs: rows(block.outputs),
      forcePurge: block.forcePurge,
      lifecycle: { state: block.markedForDeletionOn ? 'MARKED_FOR_DELETION' : 'ACTIVE' },
      latestRunUuid: block.latestRunUuid ?? null,
      latestDryRunUuid: null,
    },
    _links: blockLinks(block, view, {
      meshtenant: block.tenant ? { rel: 'meshtenants', id: block.tenant.uuid, workspace: block.workspace } : undefined,
    }),
  };
}

const version = objectVersion('meshBuildingBlock', 'v2-preview', {
  answer: answerParts(Type.Array(ValueRowAnswer), Type.Array(ValueRowAnswer)),
  body: Body,
  decode,
  encode: (block: Block, view: BlockView) => encode(block, view, encodeRows),
  /**
   * Under `meshcloud`, inputs and outputs keyed by name (`{"<key>": {value, valueType, assignmentType,
   * isSensitive}}`): the original's form since May 2026, which the Terraform provider decodes.
   */
  vendorForms: {
    meshcloud: {
      answer: answerParts(Type.Record(Type.String(), KeyedValueAnswer), Type.Record(Type.String(), KeyedValueAnswer)),
      encode: (block: Block, view: BlockView) => encode(block, view, encodeKeyed),
    },
  },
});

/** meshBuildingBlock v2-preview (spec §2.5): tenant or workspace targets, the version named by uuid. */
export const blockV2Preview = {
  ...version,
  /** A PUT names what it changes; parents only matter with a version change (COMPAT §9). */
  decodeUpdate(body: unknown): BlockUpdate {
    const request = version.decode(body);
    return {
      displayName: request.displayName,
      inputs: request.inputs,
      versionUuid: (request.version as { uuid: string }).uuid,
      parents: request.parents,
    };
  },
};
