import { Type } from '@sinclair/typebox';
import { hideSecrets } from '../../../crypto/secret-values.js';
import { badRequest } from '../../../lib/errors.js';
import { StringEnum } from '../../../lib/validation.js';
import { AnyValue, DateTime, Uuid } from '../../../lib/wire-schemas.js';
import { VALUE_TYPES } from '../../definition/enums.js';
import { InputKey } from '../../definition/wire/version-v1-preview.js';
import type { RelationsView } from '../../codec.js';
import { objectUrl } from '../../paths.js';
import { relatedLinks, type Related } from '../../relations.js';
import type { HalLink, HalLinks } from '../../../lib/hal.js';
import { BLOCKS_PATH, BLOCK_STATUSES, type Block, type BlockRequest, type SentInputs, type ValueRow } from '../model.js';

/** What v1 and v2-preview share on the wire: input rows, parents, output rows, links. */

/** What a reader of a block may see besides the block: whether it may purge (the `forcePurge` link). */
export interface BlockView extends RelationsView {
  showPurge: boolean;
}

export const InputRowSchema = Type.Object({
  key: InputKey,
  value: Type.Optional(Type.Unknown()),
  valueType: Type.Optional(StringEnum(VALUE_TYPES)),
});
export const KeyedInputSchema = Type.Object({
  value: Type.Optional(Type.Unknown()),
  valueType: Type.Optional(StringEnum(VALUE_TYPES)),
  isSensitive: Type.Optional(Type.Boolean()),
});
export const ParentSchema = Type.Object({ buildingBlockUuid: Uuid, definitionUuid: Type.Optional(Uuid) });

/** An input or output row as answers show it: a sensitive value as `{hash}`. */
export const ValueRowAnswer = Type.Object({
  key: Type.String(),
  value: AnyValue,
  valueType: StringEnum(VALUE_TYPES),
  isSensitive: Type.Boolean(),
  assignmentType: Type.Optional(Type.String()),
});
/** A row keyed by its name (the `meshcloud` form of v2-preview). */
export const KeyedValueAnswer = Type.Object({
  value: AnyValue,
  valueType: StringEnum(VALUE_TYPES),
  assignmentType: Type.Optional(Type.String()),
  isSensitive: Type.Boolean(),
});
export const ParentAnswer = Type.Object({ buildingBlockUuid: Uuid, definitionUuid: Uuid });
export const BlockStatus = StringEnum(BLOCK_STATUSES);
/** `metadata.markedForDeletionOn` and `…By`, once a deletion was requested. */
export const DeletionMetadata = { markedForDeletionOn: Type.Optional(DateTime), markedForDeletionBy: Type.Optional(Type.String()) };

type Row = { key: string; value?: unknown; valueType?: (typeof VALUE_TYPES)[number] };

/** Spec-form rows, or the keyed form real clients send (COMPAT §1 "Colliding forms"). */
export function decodeInputs(inputs: Row[] | SentInputs): SentInputs {
  if (!Array.isArray(inputs)) return inputs;
  const byKey: SentInputs = {};
  inputs.forEach((row, index) => {
    if (Object.hasOwn(byKey, row.key)) throw badRequest(`spec.inputs[${index}].key: "${row.key}" is given twice`);
    byKey[row.key] = { value: row.value, ...(row.valueType ? { valueType: row.valueType } : {}) };
  });
  return byKey;
}

/** Parents from `parentBuildingBlocks` and/or TF's `parentBuildingBlockRefs`; both sent must agree. */
export function decodeParents(
  parents: { buildingBlockUuid: string; definitionUuid?: string }[] | undefined,
  refs: { uuid: string }[] | undefined,
): BlockRequest['parents'] {
  if (parents === undefined && refs === undefined) throw badRequest('spec.parentBuildingBlocks: required (send [] when there are none)');
  if (parents !== undefined && refs !== undefined) {
    const a = parents.map((p) => p.buildingBlockUuid.toLowerCase()).sort();
    const b = refs.map((r) => r.uuid.toLowerCase()).sort();
    if (a.join() !== b.join()) throw badRequest('spec.parentBuildingBlockRefs: names other blocks than spec.parentBuildingBlocks');
  }
  const decoded = parents ?? refs!.map((ref) => ({ buildingBlockUuid: ref.uuid }));
  const seen = new Set<string>();
  decoded.forEach((parent, index) => {
    const uuid = parent.buildingBlockUuid.toLowerCase();
    if (seen.has(uuid))
      throw badRequest(`spec.parentBuildingBlocks[${index}].buildingBlockUuid: "${parent.buildingBlockUuid}" is named twice`);
    seen.add(uuid);
  });
  return decoded;
}

/** Rows as responses show them: values as stored, secrets as `{hash}`. */
export const encodeRows = (rows: ValueRow[]) => rows.map((row) => (row.isSensitive ? hideSecrets(row) : { ...row, isSensitive: false }));

/** Rows keyed by name, as the `meshcloud` form shows them: values as stored, secrets as `{hash}`. */
export const encodeKeyed = (rows: ValueRow[]) =>
  Object.fromEntries(
    encodeRows(rows).map((row) => {
      const { key, ...rest } = row as ValueRow;
      return [key, rest];
    }),
  );

/**
 * A block's `_links`: `self`, `forcePurge` for who may purge, then the `related` links the caller may
 * follow. Added to one object rather than spread into a new one: a list encodes 50 of them, and the
 * spreads cost more than the rest of the block's encoding (bench/encode-page.ts).
 */
export const blockLinks = (block: Block, view: BlockView, related: Readonly<Record<string, Related | undefined>>) => {
  const self = objectUrl(view.baseUrl, BLOCKS_PATH, block.uuid);
  const links: { self: HalLink } & HalLinks = view.showPurge
    ? { self: { href: self }, forcePurge: { href: `${self}/purge` } }
    : { self: { href: self } };
  return Object.assign(links, relatedLinks(view, related));
};

export const deletionMetadata = (block: Block) => ({
  ...(block.markedForDeletionOn ? { markedForDeletionOn: block.markedForDeletionOn } : {}),
  ...(block.markedForDeletionBy ? { markedForDeletionBy: block.markedForDeletionBy } : {}),
});
