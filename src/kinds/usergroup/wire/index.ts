import { CodecRegistry, eventCodec, LINKLESS, type Codec, type RelationsView } from '../../codec.js';
import type { UserGroup, UserGroupInput } from '../model.js';
import { userGroupV1 } from './v1.js';

export interface UserGroupCodec extends Codec<UserGroup, RelationsView> {
  decode(body: unknown): UserGroupInput;
}

export const USER_GROUP_CODECS = new CodecRegistry<UserGroupCodec>('meshWorkspaceUserGroup', [userGroupV1]);

/** What its events carry: the userGroupV1 answer a reader of its workspace gets. */
export const USER_GROUP_EVENTS = eventCodec(USER_GROUP_CODECS.kind, userGroupV1, LINKLESS);
