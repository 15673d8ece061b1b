import { CodecRegistry, eventCodec, type Codec } from '../../codec.js';
import type { Runner } from '../model.js';
import { runnerV1Preview, type DecodedRunner } from './v1-preview.js';

export interface RunnerCodec extends Codec<Runner> {
  decode(body: unknown): DecodedRunner;
}

export const RUNNER_CODECS = new CodecRegistry<RunnerCodec>('meshBuildingBlockRunner', [runnerV1Preview]);

/** What its events carry: the runnerV1Preview answer a reader of its workspace gets. */
export const RUNNER_EVENTS = eventCodec(RUNNER_CODECS.kind, runnerV1Preview, {});
