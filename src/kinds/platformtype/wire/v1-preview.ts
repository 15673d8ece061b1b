import type { EncodeView } from '../../codec.js';
import type { PlatformType } from '../model.js';
import { platformTypeAnswer, platformTypeV1 } from './v1.js';

/** meshPlatformType v1-preview, deprecated for v1 (spec §9): the same shape. */
export const platformTypeV1Preview = {
  media: { kind: 'meshplatformtype', version: 'v1-preview' } as const,
  schema: platformTypeAnswer('v1-preview'),
  bodySchema: platformTypeV1.bodySchema,
  decode: platformTypeV1.decode,
  encode: (type: PlatformType, view: EncodeView) => platformTypeV1.encode(type, view, 'v1-preview'),
};
