import { sameShapeVersion } from '../../wire-helpers.js';
import { platformTypeV1 } from './v1.js';

/** meshPlatformType v1-preview, deprecated for v1 (spec §9): the same shape. */
export const platformTypeV1Preview = sameShapeVersion(platformTypeV1, 'v1-preview');
