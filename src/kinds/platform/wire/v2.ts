import { Type, type Static } from '@sinclair/typebox';
import { hideSecrets } from '../../../crypto/secret-values.js';
import { badRequest } from '../../../lib/errors.js';
import { TEXT_LIMITS } from '../../../lib/limits.js';
import { StringEnum } from '../../../lib/validation.js';
import { AnyValue, DateTime, Echoed, Identifier, KindOf, NonEmptyShortString, Uuid } from '../../../lib/wire-schemas.js';
import type { RelationsView } from '../../codec.js';
import { sentObject } from '../../document.js';
import { objectLinks, objectVersion, sentUuid } from '../../wire-helpers.js';
import { configFromV1Form } from '../config.js';
import {
  MAX_CONTRIBUTING_WORKSPACES,
  PLATFORMS_PATH,
  PLATFORM_RESTRICTIONS,
  PUBLICATION_STATES,
  type Platform,
  type PlatformInput,
} from '../model.js';

/** The body of every platform version; v1 names the publication state `marketplaceStatus`. */
export const platformSchema = (publicationKey: 'publicationState' | 'marketplaceStatus') =>
  Type.Object({
    kind: KindOf('meshPlatform'),
    metadata: Type.Object({ name: Identifier, ownedByWorkspace: Identifier, uuid: Type.Optional(Type.String()) }),
    spec: Type.Object({
      displayName: NonEmptyShortString,
      description: Type.Optional(Type.String({ maxLength: TEXT_LIMITS.description })),
      locationRef: Type.Object({ kind: KindOf('meshLocation'), name: Type.Optional(Identifier), identifier: Type.Optional(Identifier) }),
      config: Type.Optional(Type.Object({ type: NonEmptyShortString })),
      availability: Type.Optional(
        Type.Object({
          restriction: Type.Optional(StringEnum(PLATFORM_RESTRICTIONS)),
          [publicationKey]: Type.Optional(StringEnum(PUBLICATION_STATES)),
        }),
      ),
      contributingWorkspaces: Type.Optional(Type.Array(Identifier, { maxItems: MAX_CONTRIBUTING_WORKSPACES })),
    }),
  });

/**
 * A platform as a version answers it, from `metadata` on: v1 names the publication state
 * `marketplaceStatus` and the location `identifier`.
 */
export const platformAnswer = (apiVersion: 'v1' | 'v2') => {
  const v1 = apiVersion === 'v1';
  const publicationKey = v1 ? 'marketplaceStatus' : 'publicationState';
  return {
    metadata: Echoed({ uuid: Uuid, name: Identifier, ownedByWorkspace: Identifier, createdOn: DateTime }),
    spec: Echoed({
      displayName: Type.String(),
      description: Type.Optional(Type.String()),
      locationRef: Echoed(
        v1 ? { kind: Type.Literal('meshLocation'), identifier: Identifier } : { kind: Type.Literal('meshLocation'), name: Identifier },
      ),
      config: Type.Optional(
        Echoed(
          { type: Type.String() },
          { description: 'only for admins and the owner’s PLATFORMINSTANCE_LIST holders; secrets as {hash}' },
        ),
      ),
      availability: Echoed({ restriction: StringEnum(PLATFORM_RESTRICTIONS), [publicationKey]: StringEnum(PUBLICATION_STATES) }),
      contributingWorkspaces: Type.Optional(Type.Array(Identifier)),
      ...(v1 ? {} : { quotaDefinitions: Type.Array(AnyValue) }),
    }),
    status: v1
      ? Type.Object({ platformTypeIdentifier: Type.String(), marketPlace: Type.Object({ status: StringEnum(PUBLICATION_STATES) }) })
      : Type.Object({
          platformTypeIdentifier: Type.String(),
          availability: Type.Object({ publicationState: StringEnum(PUBLICATION_STATES) }),
        }),
  };
};

function platformTypeOf(config: Record<string, unknown> | undefined): string {
  if (!config) return 'CUSTOM';
  const type = String(config.type);
  // TF's custom platforms name their platform type (COMPAT §7).
  const custom =
    type.toLowerCase() === 'custom'
      ? (config.custom as { platformTypeRef?: { name?: unknown } } | undefined)?.platformTypeRef?.name
      : undefined;
  return (typeof custom === 'string' && custom !== '' ? custom : type).toUpperCase();
}

/** A platform body and `metadata.uuid` when the client sent one (a PUT must name its path). */
export interface DecodedPlatform {
  input: PlatformInput;
  uuid?: string;
}

/** What a reader of a platform may see: `withConfig` false is the marketplace view (no `config`). */
export interface PlatformView extends RelationsView {
  withConfig: boolean;
}

/**
 * A platform body of any version. The stored document is v2's: v1's `availability.marketplaceStatus`
 * is kept as `publicationState`, a config in v1's form is kept in v2's (config.ts); the location
 * reference is kept in the form it was sent.
 */
export function decodePlatform(
  { metadata, spec }: Static<ReturnType<typeof platformSchema>>,
  publicationKey: 'publicationState' | 'marketplaceStatus',
): DecodedPlatform {
  const { name, identifier } = spec.locationRef;
  if (name === undefined && identifier === undefined)
    throw badRequest('spec.locationRef.name: required (the identifier of a meshLocation)');
  if (name !== undefined && identifier !== undefined && name !== identifier)
    throw badRequest('spec.locationRef: name and identifier name different locations');
  const availability = spec.availability as Record<string, unknown> | undefined;
  const { [publicationKey]: publicationState, ...otherAvailability } = availability ?? {};
  const restriction = (availability?.restriction as PlatformInput['restriction'] | undefined) ?? 'PRIVATE';
  const withConfig = spec.config === undefined ? spec : { ...spec, config: configFromV1Form(spec.config) };
  const stored =
    availability === undefined
      ? withConfig
      : { ...withConfig, availability: { ...otherAvailability, ...(publicationState !== undefined ? { publicationState } : {}) } };
  return {
    input: {
      name: metadata.name,
      location: (name ?? identifier)!,
      ownedByWorkspace: metadata.ownedByWorkspace,
      displayName: spec.displayName,
      platformType: platformTypeOf(spec.config),
      restriction,
      isPublic: restriction === 'PUBLIC',
      publicationState: (publicationState as PlatformInput['publicationState'] | undefined) ?? 'UNPUBLISHED',
      contributingWorkspaces: [...new Set(spec.contributingWorkspaces ?? [])],
      document: sentObject(metadata, stored),
    },
    ...sentUuid(metadata),
  };
}

/** The parts of a platform every version shows the same way. */
export function encodePlatformCommon(platform: Platform, view: PlatformView) {
  const { withConfig } = view;
  const { config, ...spec } = platform.document.spec;
  return {
    metadata: {
      ...platform.document.metadata,
      uuid: platform.uuid,
      name: platform.name,
      ownedByWorkspace: platform.ownedByWorkspace,
      createdOn: platform.createdOn,
    },
    spec: withConfig && config !== undefined ? { ...spec, config: hideSecrets(config) } : spec,
    _links: objectLinks(view, PLATFORMS_PATH, platform.uuid, {
      owner: { rel: 'meshworkspaces', id: platform.ownedByWorkspace, workspace: platform.ownedByWorkspace },
      location: { rel: 'meshlocations', id: platform.location },
    }),
  };
}

/**
 * meshPlatform v2 (COMPAT §7): the location is `locationRef.name` (v1's `identifier` is accepted and
 * echoed as well). What the OpenAPI requires of an answer is always there: `locationRef.name`,
 * `availability.restriction` and `publicationState` (their defaults when not sent) and
 * `quotaDefinitions` (`[]`).
 */
export const platformV2 = objectVersion('meshPlatform', 'v2', {
  answer: platformAnswer('v2'),
  body: platformSchema('publicationState'),
  decode: (body): DecodedPlatform => decodePlatform(body, 'publicationState'),
  encode(platform: Platform, view: PlatformView) {
    const { metadata, spec, _links } = encodePlatformCommon(platform, view);
    const sent = platform.document.spec;
    return {
      metadata,
      spec: {
        ...spec,
        locationRef: { ...(sent.locationRef as object), kind: 'meshLocation', name: platform.location },
        availability: {
          ...(sent.availability as object | undefined),
          restriction: platform.restriction,
          publicationState: platform.publicationState,
        },
        quotaDefinitions: sent.quotaDefinitions ?? [],
      },
      status: { platformTypeIdentifier: platform.platformType, availability: { publicationState: platform.publicationState } },
      _links,
    };
  },
});
