import { Type } from '@sinclair/typebox';
import { badRequest } from '../../../lib/errors.js';
import { TEXT_LIMITS } from '../../../lib/limits.js';
import { StringEnum } from '../../../lib/validation.js';
import { AnyValue, Echoed, Identifier, KindOf, NonEmptyShortString, Tags, Uuid } from '../../../lib/wire-schemas.js';
import type { RelationsView } from '../../codec.js';
import { sentObject } from '../../document.js';
import { objectLinks, objectVersion } from '../../wire-helpers.js';
import { LANDING_ZONES_PATH, PLATFORM_PROPERTIES, type LandingZone, type LandingZoneInput } from '../model.js';

const TYPES = Object.keys(PLATFORM_PROPERTIES) as [string, ...string[]];

const Body = Type.Object({
  kind: KindOf('meshLandingZone'),
  metadata: Type.Object({ name: Identifier, tags: Type.Optional(Tags) }),
  spec: Type.Object({
    displayName: NonEmptyShortString,
    description: Type.Optional(Type.String({ maxLength: TEXT_LIMITS.description })),
    platformRef: Type.Object({ kind: KindOf('meshPlatform'), uuid: Uuid }),
    automateDeletionApproval: Type.Optional(Type.Boolean()),
    automateDeletionReplication: Type.Optional(Type.Boolean()),
    infoLink: Type.Optional(Type.String({ maxLength: 2048 })),
    platformProperties: Type.Optional(Type.Object({ type: StringEnum(TYPES) }, { additionalProperties: Type.Object({}) })),
    quotas: Type.Optional(Type.Array(Type.Object({ key: NonEmptyShortString, value: Type.Number() }), { maxItems: 1000 })),
    restricted: Type.Optional(Type.Boolean()),
  }),
  status: Type.Optional(Type.Object({ restricted: Type.Optional(Type.Boolean()) })),
});

/** The tagged union: `type` names the one sub-object that is there, with its required fields. */
function checkPlatformProperties(properties: Record<string, unknown> | undefined): void {
  if (properties === undefined) return;
  const type = properties.type as string;
  const others = Object.keys(properties).filter((key) => key !== 'type' && key !== type);
  if (others.length > 0) throw badRequest(`spec.platformProperties.${others[0]}: the platform properties are of type "${type}" only`);
  const own = (properties[type] ?? {}) as Record<string, unknown>;
  const missing = PLATFORM_PROPERTIES[type]!.find((field) => own[field] === undefined);
  if (missing) throw badRequest(`spec.platformProperties.${type}.${missing}: required for platform properties of type "${type}"`);
}

/**
 * meshLandingZone v1 (and v1-preview, the same shape): `metadata.{name, tags, ownedByWorkspace}`
 * (the owner is the platform's workspace), `spec` as sent, `status.{disabled, restricted}`.
 * `restricted` is taken from `spec.restricted` or `status.restricted` and echoed in `status`.
 */
export const landingZoneV1 = objectVersion('meshLandingZone', 'v1', {
  answer: {
    metadata: Echoed({ name: Identifier, tags: Tags, ownedByWorkspace: Identifier }),
    spec: Echoed({
      displayName: Type.String(),
      description: Type.Optional(Type.String()),
      platformRef: Type.Object({ kind: Type.Literal('meshPlatform'), uuid: Uuid }),
      automateDeletionApproval: Type.Boolean(),
      automateDeletionReplication: Type.Boolean(),
      infoLink: Type.Optional(Type.String()),
      platformProperties: Type.Optional(Type.Record(Type.String(), AnyValue)),
      quotas: Type.Array(Type.Object({ key: Type.String(), value: Type.Number() })),
      restricted: Type.Optional(Type.Boolean()),
    }),
    status: Type.Object({ disabled: Type.Boolean(), restricted: Type.Boolean() }),
  },
  body: Body,
  decode({ metadata, spec, status }): LandingZoneInput {
    checkPlatformProperties(spec.platformProperties as Record<string, unknown> | undefined);
    return {
      name: metadata.name,
      platformUuid: spec.platformRef.uuid.toLowerCase(),
      displayName: spec.displayName,
      restricted: spec.restricted ?? status?.restricted ?? false,
      document: sentObject(metadata, spec),
    };
  },
  encode: (zone: LandingZone, view: RelationsView) => ({
    metadata: {
      ...zone.document.metadata,
      name: zone.name,
      tags: zone.document.metadata.tags ?? {},
      ownedByWorkspace: zone.ownedByWorkspace,
    },
    spec: {
      ...zone.document.spec,
      platformRef: { kind: 'meshPlatform', uuid: zone.platformUuid },
      automateDeletionApproval: zone.document.spec.automateDeletionApproval ?? false,
      automateDeletionReplication: zone.document.spec.automateDeletionReplication ?? false,
      quotas: zone.document.spec.quotas ?? [],
    },
    status: { disabled: zone.disabledOn !== undefined, restricted: zone.restricted },
    _links: objectLinks(view, LANDING_ZONES_PATH, zone.name, { platformInstance: { rel: 'meshplatforms', id: zone.platformUuid } }),
  }),
});
