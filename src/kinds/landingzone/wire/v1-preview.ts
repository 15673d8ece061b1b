import { sameShapeVersion } from '../../wire-helpers.js';
import { landingZoneV1 } from './v1.js';

/** meshLandingZone v1-preview, deprecated for v1 (spec §9): the same shape. */
export const landingZoneV1Preview = sameShapeVersion(landingZoneV1, 'v1-preview');
