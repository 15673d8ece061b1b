import { Type } from '@sinclair/typebox';
import { hideSecrets } from '../../../crypto/secret-values.js';
import { badRequest } from '../../../lib/errors.js';
import { TEXT_LIMITS } from '../../../lib/limits.js';
import { compileDecoder } from '../../../lib/validation.js';
import { Identifier, KindOf, NonEmptyShortString, ShortString } from '../../../lib/wire-schemas.js';
import { sentObject } from '../../document.js';
import { objectUrl, PATHS } from '../../paths.js';
import type { Platform, PlatformInput } from '../model.js';

const decodeBody = compileDecoder(
  Type.Object({
    kind: KindOf('meshPlatform'),
    metadata: Type.Object({ name: Identifier, ownedByWorkspace: Identifier, uuid: Type.Optional(Type.String()) }),
    spec: Type.Object({
      displayName: NonEmptyShortString,
      description: Type.Optional(Type.String({ maxLength: TEXT_LIMITS.description })),
      locationRef: Type.Object({ kind: KindOf('meshLocation'), name: Type.Optional(Identifier), identifier: Type.Optional(Identifier) }),
      config: Type.Optional(Type.Object({ type: NonEmptyShortString })),
      availability: Type.Optional(Type.Object({ restriction: Type.Optional(ShortString) })),
    }),
  }),
);

function platformTypeOf(config: Record<string, unknown> | undefined): string {
  if (!config) return 'CUSTOM';
  const type = String(config.type);
  // TF's custom platforms name their platform type (COMPAT §7).
  const custom = type.toLowerCase() === 'custom' ? (config.custom as { platformTypeRef?: { name?: unknown } } | undefined)?.platformTypeRef?.name : undefined;
  return (typeof custom === 'string' && custom !== '' ? custom : type).toUpperCase();
}

/** A platform body and `metadata.uuid` when the client sent one (a PUT must name its path). */
export interface DecodedPlatform {
  input: PlatformInput;
  uuid?: string;
}

/** What a reader of a platform may see: `withConfig` false is the marketplace view (no `config`). */
export interface PlatformView {
  baseUrl: string;
  withConfig: boolean;
}

/**
 * meshPlatform v2 (COMPAT §7): the location is `locationRef.name` (v2) or `locationRef.identifier`
 * (v1 style); the reference is echoed in the form it was sent.
 */
export const platformV2 = {
  media: { kind: 'meshplatform', version: 'v2' } as const,
  decode(body: unknown): DecodedPlatform {
    const { metadata, spec } = decodeBody(body);
    const { name, identifier } = spec.locationRef;
    if (name === undefined && identifier === undefined) throw badRequest('spec.locationRef.name: required (the identifier of a meshLocation)');
    if (name !== undefined && identifier !== undefined && name !== identifier) throw badRequest('spec.locationRef: name and identifier name different locations');
    return {
      input: {
        name: metadata.name,
        location: (name ?? identifier)!,
        ownedByWorkspace: metadata.ownedByWorkspace,
        platformType: platformTypeOf(spec.config),
        isPublic: spec.availability?.restriction === 'PUBLIC',
        document: sentObject(metadata, spec),
      },
      ...(metadata.uuid ? { uuid: metadata.uuid } : {}),
    };
  },
  encode(platform: Platform, { baseUrl, withConfig }: PlatformView, apiVersion = 'v2') {
    const { config, ...spec } = platform.document.spec;
    return {
      apiVersion,
      kind: 'meshPlatform',
      metadata: { ...platform.document.metadata, uuid: platform.uuid, name: platform.name, ownedByWorkspace: platform.ownedByWorkspace, createdOn: platform.createdOn },
      spec: withConfig && config !== undefined ? { ...spec, config: hideSecrets(config) } : spec,
      status: { platformTypeIdentifier: platform.platformType },
      _links: {
        self: { href: objectUrl(baseUrl, PATHS.platforms, platform.uuid) },
        owner: { href: objectUrl(baseUrl, PATHS.workspaces, platform.ownedByWorkspace) },
        location: { href: objectUrl(baseUrl, PATHS.locations, platform.location) },
      },
    };
  },
};
