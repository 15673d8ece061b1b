import type { TSchema } from '@sinclair/typebox';
import { CodecRegistry, eventCodec, type Codec } from '../../codec.js';
import type { Run, StepRow } from '../../block/run.js';
import type { RunUpdate, SourceRegistration } from '../model.js';
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

/** What a run's events carry (filed under its block's workspace): see `encodeForBlockReaders`. */
export const RUN_EVENTS = eventCodec(RUN_CODECS.kind, { encode: runV1.encodeForBlockReaders }, {});
