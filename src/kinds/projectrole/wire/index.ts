import { CodecRegistry, eventCodec, type Codec } from '../../codec.js';
import type { ProjectRole, ProjectRoleInput } from '../model.js';
import { projectRoleV1 } from './v1.js';

export interface ProjectRoleCodec extends Codec<ProjectRole> {
  decode(body: unknown): ProjectRoleInput;
}

export const PROJECT_ROLE_CODECS = new CodecRegistry<ProjectRoleCodec>('meshProjectRole', [projectRoleV1]);

/** What its events carry: the projectRoleV1 answer a reader of its workspace gets. */
export const PROJECT_ROLE_EVENTS = eventCodec(PROJECT_ROLE_CODECS.kind, projectRoleV1, {});
