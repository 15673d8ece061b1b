import type { Platform } from '../model.js';
import { platformAnswer, platformV2, type PlatformView } from './v2.js';

/** meshPlatform v2-preview, deprecated for v2 (spec §9): the same shape. */
export const platformV2Preview = {
  media: { kind: 'meshplatform', version: 'v2-preview' } as const,
  schema: platformAnswer('v2-preview'),
  bodySchema: platformV2.bodySchema,
  decode: platformV2.decode,
  encode: (platform: Platform, view: PlatformView) => platformV2.encode(platform, view, 'v2-preview'),
};
