import { sameShapeVersion } from '../../wire-helpers.js';
import { platformV2 } from './v2.js';

/** meshPlatform v2-preview, deprecated for v2 (spec §9): the same shape. */
export const platformV2Preview = sameShapeVersion(platformV2, 'v2-preview');
