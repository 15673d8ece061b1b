import { CodecRegistry, type Codec } from '../../codec.js';
import type { UserGroup, UserGroupInput } from '../model.js';
import { userGroupV1 } from './v1.js';

export interface UserGroupCodec extends Codec<UserGroup> {
  decode(body: unknown): UserGroupInput;
}

export const USER_GROUP_CODECS = new CodecRegistry<UserGroupCodec>('meshWorkspaceUserGroup', [userGroupV1]);
