import { CodecRegistry, type Codec } from '../../codec.js';
import type { Project, ProjectInput } from '../model.js';
import { projectV2, type ProjectView } from './v2.js';

export interface ProjectCodec extends Codec<Project, ProjectView> {
  decode(body: unknown): ProjectInput;
}

export const PROJECT_CODECS = new CodecRegistry<ProjectCodec>('meshProject', [projectV2]);
