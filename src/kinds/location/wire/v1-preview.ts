import type { EncodeView } from '../../codec.js';
import type { Location } from '../model.js';
import { locationAnswer, locationV1 } from './v1.js';

/** meshLocation v1-preview, deprecated for v1 (spec §9): the same shape. */
export const locationV1Preview = {
  media: { kind: 'meshlocation', version: 'v1-preview' } as const,
  schema: locationAnswer('v1-preview'),
  bodySchema: locationV1.bodySchema,
  decode: locationV1.decode,
  encode: (location: Location, view: EncodeView) => locationV1.encode(location, view, 'v1-preview'),
};
