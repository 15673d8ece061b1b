import { sameShapeVersion } from '../../wire-helpers.js';
import { integrationV1 } from './v1.js';

/** meshIntegration v1-preview, deprecated for v1 (spec §9): the same shape. */
export const integrationV1Preview = sameShapeVersion(integrationV1, 'v1-preview');
