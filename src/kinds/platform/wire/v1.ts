import type { Platform } from '../model.js';
import { decodePlatform, encodePlatformCommon, platformAnswer, platformSchema, type DecodedPlatform, type PlatformView } from './v2.js';

/**
 * meshPlatform v1, deprecated for v2 (spec §9; served with the deprecation headers): the location is
 * `locationRef.identifier` and the publication state `availability.marketplaceStatus` (OpenAPI).
 */
export const platformV1 = {
  media: { kind: 'meshplatform', version: 'v1' } as const,
  schema: platformAnswer('v1'),
  bodySchema: platformSchema('marketplaceStatus'),
  decode: (body: unknown): DecodedPlatform => decodePlatform(body, 'marketplaceStatus'),
  encode(platform: Platform, view: PlatformView) {
    const { metadata, spec, _links } = encodePlatformCommon(platform, view);
    const { publicationState: _publicationState, ...availability } = (platform.document.spec.availability as Record<string, unknown> | undefined) ?? {};
    return {
      apiVersion: 'v1',
      kind: 'meshPlatform',
      metadata,
      spec: {
        ...spec,
        locationRef: { kind: 'meshLocation', identifier: platform.location },
        availability: { ...availability, restriction: platform.restriction, marketplaceStatus: platform.publicationState },
      },
      status: { platformTypeIdentifier: platform.platformType, marketPlace: { status: platform.publicationState } },
      _links,
    };
  },
};
