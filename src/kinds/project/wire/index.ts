import { CodecRegistry, eventCodec, LINKLESS, type Codec, type RelationsView } from '../../codec.js';
import type { Project, ProjectInput } from '../model.js';
import { projectV2 } from './v2.js';

export interface ProjectCodec extends Codec<Project, RelationsView> {
  decode(body: unknown): ProjectInput;
}

export const PROJECT_CODECS = new CodecRegistry<ProjectCodec>('meshProject', [projectV2]);

/** What its events carry: the projectV2 answer a reader of its workspace gets. */
export const PROJECT_EVENTS = eventCodec(PROJECT_CODECS.kind, projectV2, LINKLESS);
