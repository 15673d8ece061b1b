import { objectVersion } from '../../wire-helpers.js';
import { configToV1Form } from '../config.js';
import type { Platform } from '../model.js';
import { decodePlatform, encodePlatformCommon, platformAnswer, platformSchema, type DecodedPlatform, type PlatformView } from './v2.js';

const isConfig = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * meshPlatform v1, deprecated for v2 (spec §9; served with the deprecation headers): the location is
 * `locationRef.identifier`, the publication state `availability.marketplaceStatus` (OpenAPI) and the
 * config in v1's form, its secrets masked (config.ts).
 */
export const platformV1 = objectVersion('meshPlatform', 'v1', {
  answer: platformAnswer('v1'),
  body: platformSchema('marketplaceStatus'),
  decode: (body): DecodedPlatform => decodePlatform(body, 'marketplaceStatus'),
  encode(platform: Platform, view: PlatformView) {
    const { metadata, spec, _links } = encodePlatformCommon(platform, view);
    const { publicationState: _publicationState, ...availability } =
      (platform.document.spec.availability as Record<string, unknown> | undefined) ?? {};
    return {
      metadata,
      spec: {
        ...spec,
        ...(isConfig(spec.config) ? { config: configToV1Form(spec.config) } : {}),
        locationRef: { kind: 'meshLocation', identifier: platform.location },
        availability: { ...availability, restriction: platform.restriction, marketplaceStatus: platform.publicationState },
      },
      status: { platformTypeIdentifier: platform.platformType, marketPlace: { status: platform.publicationState } },
      _links,
    };
  },
});
