import { CodecRegistry, eventCodec, type Codec } from '../../codec.js';
import type { ApiUser } from '../model.js';
import { apiUserV1 } from './v1.js';

export interface ApiUserCodec extends Codec<ApiUser> {
  decode(body: unknown): { username: string; password: string };
}

export const API_USER_CODECS = new CodecRegistry<ApiUserCodec>('apiUser', [apiUserV1]);

/** What its events carry: the apiUserV1 answer a reader of its workspace gets. */
export const API_USER_EVENTS = eventCodec('API user', apiUserV1, {});
