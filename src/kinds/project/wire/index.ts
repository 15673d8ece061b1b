import { CodecRegistry, type Codec, type RelationsView } from '../../codec.js';
import type { Project, ProjectInput } from '../model.js';
import { projectV2 } from './v2.js';

export interface ProjectCodec extends Codec<Project, RelationsView> {
  decode(body: unknown): ProjectInput;
}

export const PROJECT_CODECS = new CodecRegistry<ProjectCodec>('meshProject', [projectV2]);
