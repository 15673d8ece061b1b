import { Type } from '@sinclair/typebox';
import { TEXT_LIMITS } from '../../../lib/limits.js';
import { StringEnum } from '../../../lib/validation.js';
import { DateTime, Echoed, KindOf, NonEmptyShortString, Uuid } from '../../../lib/wire-schemas.js';
import type { EncodeView } from '../../codec.js';
import { sentObject } from '../../document.js';
import { objectVersion, selfLink } from '../../wire-helpers.js';
import { LIFECYCLE_STATES, PLATFORM_CATEGORIES, PLATFORM_TYPES_PATH, type PlatformType, type PlatformTypeInput } from '../model.js';

/**
 * The original's rule is upper case with single dashes (`MY-PLATFORM-TYPE`, as built-in `OPENSHIFT`);
 * lower-case names stay accepted as before. Names are unique whatever their case: platforms name a
 * type by its upper-cased name.
 */
const PlatformTypeName = Type.String({ pattern: '^[A-Za-z0-9]+(-[A-Za-z0-9]+)*$', maxLength: 150 });

const Body = Type.Object({
  kind: KindOf('meshPlatformType'),
  metadata: Type.Object({ name: PlatformTypeName }),
  spec: Type.Object({
    displayName: NonEmptyShortString,
    category: StringEnum(PLATFORM_CATEGORIES),
    icon: Type.String({ minLength: 1, maxLength: TEXT_LIMITS.symbol }),
    defaultEndpoint: Type.Optional(Type.String({ maxLength: 2048 })),
  }),
  status: Type.Optional(Type.Object({ lifecycleState: Type.Optional(StringEnum(LIFECYCLE_STATES)) })),
});

/** meshPlatformType v1 (and v1-preview, the same shape): `metadata.{name, uuid, createdOn}`, `spec`, `status.lifecycleState` and `status.lifecycle.state`. */
export const platformTypeV1 = objectVersion('meshPlatformType', 'v1', {
  answer: {
    metadata: Echoed({ uuid: Uuid, name: Type.String(), createdOn: DateTime }),
    spec: Echoed({
      displayName: Type.String(),
      category: StringEnum(PLATFORM_CATEGORIES),
      icon: Type.String(),
      defaultEndpoint: Type.Optional(Type.String()),
    }),
    // The published OpenAPI's `lifecycleState` and the form the Terraform provider reads, `lifecycle.state`.
    status: Type.Object({ lifecycleState: StringEnum(LIFECYCLE_STATES), lifecycle: Type.Object({ state: StringEnum(LIFECYCLE_STATES) }) }),
  },
  body: Body,
  decode: ({ metadata, spec, status }): PlatformTypeInput => ({
    name: metadata.name,
    category: spec.category,
    ...(status?.lifecycleState ? { lifecycleState: status.lifecycleState } : {}),
    document: sentObject(metadata, spec),
  }),
  encode: (type: PlatformType, view: EncodeView) => ({
    metadata: { ...type.document.metadata, uuid: type.uuid, name: type.name, createdOn: type.createdOn },
    spec: { ...type.document.spec, category: type.category },
    status: { lifecycleState: type.lifecycleState, lifecycle: { state: type.lifecycleState } },
    _links: selfLink(view, PLATFORM_TYPES_PATH, type.name),
  }),
});
