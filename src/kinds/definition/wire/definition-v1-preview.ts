import { Type, type Static } from '@sinclair/typebox';
import { badRequest } from '../../../lib/errors.js';
import { TEXT_LIMITS } from '../../../lib/limits.js';
import { StringEnum } from '../../../lib/validation.js';
import { DateTime, Echoed, Identifier, KindOf, NonEmptyShortString, Nullable, ShortString, Tags, Uuid } from '../../../lib/wire-schemas.js';
import type { RelationsView } from '../../codec.js';
import { sentObject } from '../../document.js';
import { objectLinks, objectVersion, sentUuid } from '../../wire-helpers.js';
import { REVIEW_STATES, TARGET_TYPES, VERSION_STATES } from '../enums.js';
import { DEFINITIONS_PATH, publicationState, type Definition, type DefinitionInput, versionStatus } from '../model.js';

const Url = Type.String({ maxLength: 2048, pattern: '^https?://' });

const Body = Type.Object({
  kind: KindOf('meshBuildingBlockDefinition'),
  metadata: Type.Object({ ownedByWorkspace: Identifier, uuid: Type.Optional(Type.String()), tags: Type.Optional(Tags) }),
  spec: Type.Object({
    displayName: NonEmptyShortString,
    description: Type.String({ maxLength: TEXT_LIMITS.description }),
    targetType: StringEnum(TARGET_TYPES),
    // Platform type identifiers (`AZURE`), or `{name, kind: "meshPlatformType"}` as newer clients send.
    supportedPlatforms: Type.Optional(
      Type.Array(Type.Union([NonEmptyShortString, Type.Object({ name: NonEmptyShortString, kind: KindOf('meshPlatformType') })]), {
        maxItems: 200,
      }),
    ),
    useInLandingZonesOnly: Type.Optional(Type.Boolean()),
    notificationSubscriberUsernames: Type.Optional(Type.Array(ShortString, { maxItems: 500 })),
    symbol: Type.Optional(Type.String({ maxLength: TEXT_LIMITS.symbol })),
    supportUrl: Type.Optional(Url),
    documentationUrl: Type.Optional(Url),
    readme: Type.Optional(Type.String({ maxLength: TEXT_LIMITS.readme })),
    runTransparency: Type.Optional(Type.Boolean()),
  }),
});

const answer = {
  metadata: Echoed({ uuid: Uuid, ownedByWorkspace: Identifier, tags: Tags, createdOn: DateTime }),
  spec: Echoed({
    ...Body.properties.spec.properties,
    notificationSubscriberUsernames: Type.Array(Type.String()),
    useInLandingZonesOnly: Type.Boolean(),
    runTransparency: Type.Boolean(),
    symbol: Type.String(),
  }),
  status: Type.Object({
    versions: Type.Array(
      Type.Object({
        versionUuid: Uuid,
        versionNumber: Type.Integer(),
        state: StringEnum(VERSION_STATES),
        reviewState: Type.Optional(StringEnum(REVIEW_STATES)),
      }),
    ),
    latestVersion: Type.Integer(),
    latestReleasedVersion: Type.Integer(),
    latestVersionUuid: Nullable(Uuid),
    latestReleasedVersionUuid: Nullable(Uuid),
    publicationState: StringEnum(['PUBLISHED', 'IN_REVIEW', 'REJECTED', 'UNPUBLISHED'] as const),
    usageCount: Type.Integer(),
  }),
};

/** A definition body, and `metadata.uuid` when sent (a PUT must name its path, the import names it). */
export interface DecodedDefinition {
  input: DefinitionInput;
  uuid?: string;
}

function decode({ metadata, spec }: Static<typeof Body>): DecodedDefinition {
  if (spec.targetType === 'TENANT_LEVEL' && (spec.supportedPlatforms ?? []).length === 0) {
    throw badRequest('spec.supportedPlatforms: a TENANT_LEVEL definition supports at least one platform type');
  }
  return {
    input: {
      ownedByWorkspace: metadata.ownedByWorkspace,
      displayName: spec.displayName,
      targetType: spec.targetType,
      document: sentObject(metadata, spec),
    },
    ...sentUuid(metadata),
  };
}

/** Shown when a definition was created without a symbol (COMPAT §8: a default symbol data URI). */
const DEFAULT_SYMBOL =
  'data:image/svg+xml;base64,' +
  Buffer.from(
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><rect x="3" y="3" width="18" height="18" rx="3" fill="#4a6cf7"/></svg>',
  ).toString('base64');

function encode(definition: Definition, view: RelationsView) {
  const { metadata, spec } = definition.document;
  return {
    metadata: {
      ...metadata,
      uuid: definition.uuid,
      ownedByWorkspace: definition.ownedByWorkspace,
      tags: metadata.tags ?? {},
      createdOn: definition.createdOn,
    },
    // The flags the OpenAPI requires of an answer, at their defaults when not sent (COMPAT §8:
    // runTransparency false), and the subscribers as a list, empty when none were sent (the
    // Terraform provider omits an empty set and plans `[]`). Optional URLs and supportedPlatforms
    // the client did not send are not invented (README, "OpenAPI conformance").
    spec: {
      useInLandingZonesOnly: false,
      runTransparency: false,
      ...spec,
      notificationSubscriberUsernames: spec.notificationSubscriberUsernames ?? [],
      symbol: spec.symbol ?? DEFAULT_SYMBOL,
    },
    status: {
      versions: definition.versions.map((v) => ({
        versionUuid: v.uuid,
        versionNumber: v.versionNumber,
        state: v.state,
        ...(v.review ? { reviewState: v.review } : {}),
      })),
      ...versionStatus(definition.versions),
      publicationState: publicationState(definition),
      usageCount: definition.usageCount,
    },
    _links: objectLinks(view, DEFINITIONS_PATH, definition.uuid, {
      owner: { rel: 'meshworkspaces', workspace: definition.ownedByWorkspace, id: definition.ownedByWorkspace },
      // Its blocks live in many workspaces: those of the caller's (all of them for its managers).
      buildingblocks: { rel: 'meshbuildingblocks', query: `?definitionUuid=${definition.uuid}` },
    }),
  };
}

/** meshBuildingBlockDefinition v1-preview (spec §2.6, §4.1 "Create definition", COMPAT §8). */
export const definitionV1Preview = objectVersion('meshBuildingBlockDefinition', 'v1-preview', {
  answer,
  body: Body,
  decode,
  encode,
});
