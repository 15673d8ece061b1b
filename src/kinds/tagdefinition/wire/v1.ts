import { Type } from '@sinclair/typebox';
import { badRequest } from '../../../lib/errors.js';
import { TEXT_LIMITS } from '../../../lib/limits.js';
import { StringEnum } from '../../../lib/validation.js';
import { Echoed, KindOf, NonEmptyShortString, ShortString } from '../../../lib/wire-schemas.js';
import type { EncodeView } from '../../codec.js';
import { sentObject } from '../../document.js';
import { objectVersion, selfLink } from '../../wire-helpers.js';
import { TAG_DEFINITIONS_PATH, TAG_TARGET_KINDS, type TagDefinition, type TagDefinitionInput, type TagValueType } from '../model.js';
import { valueTypeProblem } from '../rules.js';

const Options = Type.Array(NonEmptyShortString, { minItems: 1, maxItems: 1000 });
const Text = Type.Object({ defaultValue: Type.Optional(ShortString), validationRegex: Type.Optional(Type.String({ maxLength: 1024 })) });
const ValueType = Type.Object({
  string: Type.Optional(Text),
  email: Type.Optional(Text),
  integer: Type.Optional(Type.Object({ defaultValue: Type.Optional(Type.Integer()) })),
  number: Type.Optional(Type.Object({ defaultValue: Type.Optional(Type.Number()) })),
  singleSelect: Type.Optional(Type.Object({ options: Options, defaultValue: Type.Optional(ShortString) })),
  multiSelect: Type.Optional(Type.Object({ options: Options, defaultValue: Type.Optional(Type.Array(ShortString, { maxItems: 1000 })) })),
});

const Body = Type.Object({
  kind: KindOf('meshTagDefinition'),
  metadata: Type.Object({ name: Type.String({ minLength: 1, maxLength: 600 }) }),
  spec: Type.Object({
    targetKind: StringEnum(TAG_TARGET_KINDS),
    key: Type.String({ minLength: 1, maxLength: 255, pattern: '^\\S+$' }),
    valueType: ValueType,
    description: Type.String({ maxLength: TEXT_LIMITS.description }),
    displayName: NonEmptyShortString,
    sortOrder: Type.Optional(Type.Number()),
    mandatory: Type.Optional(Type.Boolean()),
    immutable: Type.Optional(Type.Boolean()),
    restricted: Type.Optional(Type.Boolean()),
    replicationKey: Type.Optional(ShortString),
  }),
});

/** meshTagDefinition v1 (OpenAPI): `metadata.name` is `<targetKind>.<key>`; `spec.valueType` sets exactly one type. */
export const tagDefinitionV1 = objectVersion('meshTagDefinition', 'v1', {
  answer: {
    metadata: Echoed({ name: Type.String({ description: '<targetKind>.<key>' }) }),
    spec: Echoed({
      targetKind: StringEnum(TAG_TARGET_KINDS),
      key: Type.String(),
      valueType: Type.Object(ValueType.properties, { additionalProperties: true }),
      description: Type.String(),
      displayName: Type.String(),
      sortOrder: Type.Optional(Type.Number()),
      mandatory: Type.Optional(Type.Boolean()),
      immutable: Type.Optional(Type.Boolean()),
      restricted: Type.Optional(Type.Boolean()),
      replicationKey: Type.Optional(Type.String()),
    }),
  },
  body: Body,
  decode({ metadata, spec }): TagDefinitionInput {
    const name = `${spec.targetKind}.${spec.key}`;
    if (metadata.name !== name) throw badRequest(`metadata.name: must be "<targetKind>.<key>", i.e. "${name}", got "${metadata.name}"`);
    const types = Object.keys(spec.valueType);
    if (types.length !== 1)
      throw badRequest(
        `spec.valueType: must set exactly one of string, email, integer, number, singleSelect, multiSelect (got ${types.length === 0 ? 'none' : types.join(', ')})`,
      );
    const valueType = spec.valueType as TagValueType;
    const problem = valueTypeProblem(valueType);
    if (problem) throw badRequest(`${problem.field}: ${problem.problem}`);
    return {
      name,
      targetKind: spec.targetKind,
      key: spec.key,
      displayName: spec.displayName,
      valueType,
      mandatory: spec.mandatory ?? false,
      immutable: spec.immutable ?? false,
      restricted: spec.restricted ?? false,
      document: sentObject(metadata, spec),
    };
  },
  encode: (definition: TagDefinition, view: EncodeView) => ({
    metadata: { ...definition.document.metadata, name: definition.name },
    spec: definition.document.spec,
    _links: selfLink(view, TAG_DEFINITIONS_PATH, definition.name),
  }),
});
