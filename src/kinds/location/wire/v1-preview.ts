import { sameShapeVersion } from '../../wire-helpers.js';
import { locationV1 } from './v1.js';

/** meshLocation v1-preview, deprecated for v1 (spec §9): the same shape. */
export const locationV1Preview = sameShapeVersion(locationV1, 'v1-preview');
