import type { RelationsView } from '../../codec.js';
import type { LandingZone } from '../model.js';
import { landingZoneAnswer, landingZoneV1 } from './v1.js';

/** meshLandingZone v1-preview, deprecated for v1 (spec §9): the same shape. */
export const landingZoneV1Preview = {
  media: { kind: 'meshlandingzone', version: 'v1-preview' } as const,
  schema: landingZoneAnswer('v1-preview'),
  bodySchema: landingZoneV1.bodySchema,
  decode: landingZoneV1.decode,
  encode: (zone: LandingZone, view: RelationsView) => landingZoneV1.encode(zone, view, 'v1-preview'),
};
