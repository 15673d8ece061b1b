import { Type } from '@sinclair/typebox';
import { badRequest } from '../../errors.js';
import { hideSecrets } from '../../crypto/secret-values.js';
import { compileDecoder } from '../../http/validation.js';
import { Identifier, KindOf, NonEmptyShortString, ShortString } from '../../http/wire-schemas.js';
import { sentObject } from '../document.js';
import type { Platform, PlatformInput } from './model.js';

/**
 * meshPlatform v2 and the deprecated v2-preview: one shape. The location is `locationRef.name` (v2)
 * or `locationRef.identifier` (v1 style); the reference is echoed in the form it was sent.
 */
export const PLATFORM_VERSIONS = [
  { kind: 'meshplatform', version: 'v2' },
  { kind: 'meshplatform', version: 'v2-preview' },
] as const;
export const PLATFORMS_PATH = '/api/meshobjects/meshplatforms';

const decodeBody = compileDecoder(
  Type.Object({
    kind: KindOf('meshPlatform'),
    metadata: Type.Object({ name: Identifier, ownedByWorkspace: Identifier, uuid: Type.Optional(Type.String()) }),
    spec: Type.Object({
      displayName: NonEmptyShortString,
      description: Type.Optional(Type.String({ maxLength: 4096 })),
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

/** The decoded body, and `metadata.uuid` when the client sent one (a PUT must name its path). */
export function decodePlatform(body: unknown): { input: PlatformInput; uuid?: string } {
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
}

/** `withConfig` false: the platform as consumers see it in the marketplace (no `config`). */
export function encodePlatform(platform: Platform, version: string, baseUrl: string, withConfig: boolean) {
  const { config, ...spec } = platform.document.spec;
  return {
    apiVersion: version,
    kind: 'meshPlatform',
    metadata: { ...platform.document.metadata, uuid: platform.uuid, name: platform.name, ownedByWorkspace: platform.ownedByWorkspace, createdOn: platform.createdOn },
    spec: withConfig && config !== undefined ? { ...spec, config: hideSecrets(config) } : spec,
    status: { platformTypeIdentifier: platform.platformType },
    _links: {
      self: { href: `${baseUrl}${PLATFORMS_PATH}/${platform.uuid}` },
      owner: { href: `${baseUrl}/api/meshobjects/meshworkspaces/${encodeURIComponent(platform.ownedByWorkspace)}` },
      location: { href: `${baseUrl}/api/meshobjects/meshlocations/${encodeURIComponent(platform.location)}` },
    },
  };
}
