import { CodecRegistry, eventCodec, LINKLESS, type Codec, type RelationsView } from '../../codec.js';
import type { User, UserInput } from '../model.js';
import { userV2 } from './v2.js';

export interface UserCodec extends Codec<User, RelationsView> {
  decode(body: unknown): UserInput;
}

/** meshUser's wire versions (v1 was retired on 2025-03-01: src/lib/versions.ts answers for it). */
export const USER_CODECS = new CodecRegistry<UserCodec>('meshUser', [userV2]);

/** What its events carry: the userV2 answer a reader of its workspace gets. */
export const USER_EVENTS = eventCodec(USER_CODECS.kind, userV2, LINKLESS);
