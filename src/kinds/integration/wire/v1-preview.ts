import type { EncodeView } from '../../codec.js';
import type { Integration } from '../model.js';
import { integrationAnswer, integrationV1 } from './v1.js';

/** meshIntegration v1-preview, deprecated for v1 (spec §9): the same shape. */
export const integrationV1Preview = {
  media: { kind: 'meshintegration', version: 'v1-preview' } as const,
  schema: integrationAnswer('v1-preview'),
  bodySchema: integrationV1.bodySchema,
  decode: integrationV1.decode,
  encode: (integration: Integration, view: EncodeView) => integrationV1.encode(integration, view, 'v1-preview'),
};
