import { CodecRegistry, eventCodec, type Codec } from '../../codec.js';
import type { Integration, IntegrationInput } from '../model.js';
import { integrationV1 } from './v1.js';
import { integrationV1Preview } from './v1-preview.js';

export interface IntegrationCodec extends Codec<Integration> {
  decode(body: unknown): IntegrationInput;
}

export const INTEGRATION_CODECS = new CodecRegistry<IntegrationCodec>('meshIntegration', [integrationV1, integrationV1Preview]);

/** What its events carry: the integrationV1 answer a reader of its workspace gets. */
export const INTEGRATION_EVENTS = eventCodec(INTEGRATION_CODECS.kind, integrationV1, {});
