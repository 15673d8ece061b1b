import { CodecRegistry, eventCodec, type Codec } from '../../codec.js';
import type { ApiKey, ApiKeyInput } from '../model.js';
import { apiKeyV1Preview } from './v1-preview.js';

export interface ApiKeyCodec extends Codec<ApiKey, { baseUrl: string; secret?: string }> {
  decode(body: unknown): ApiKeyInput;
}

export const API_KEY_CODECS = new CodecRegistry<ApiKeyCodec>('meshApiKey', [apiKeyV1Preview]);

/** What its events carry: the answer a reader of its workspace gets (never the secret, nor its hash). */
export const API_KEY_EVENTS = eventCodec(API_KEY_CODECS.kind, apiKeyV1Preview, {});
