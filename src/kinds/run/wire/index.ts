import type { TSchema } from '@sinclair/typebox';
import { CodecRegistry, type Codec } from '../../codec.js';
import type { Run } from '../../block/run.js';
import type { RunUpdate, SourceRegistration, StepRow } from '../model.js';
import { runV1, type RunAudience, type RunView } from './v1.js';

export interface RunCodec extends Codec<Run, RunView> {
  /** The schemas of the step log, a source's registration and a source's update. */
  readonly logsSchema: TSchema;
  readonly registrationSchema: TSchema;
  readonly updateSchema: TSchema;
  decodeRegistration(body: unknown): SourceRegistration;
  decodeUpdate(body: unknown): RunUpdate;
  encodeLogs(steps: AsyncIterable<StepRow>, audience?: RunAudience): AsyncIterable<string>;
}

export const RUN_CODECS = new CodecRegistry<RunCodec>('meshBuildingBlockRun', [runV1]);
