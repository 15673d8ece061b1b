import { CodecRegistry, type Codec } from '../../codec.js';
import type { EventRecord } from '../model.js';
import { eventLogV1Preview } from './v1-preview.js';

export type EventLogCodec = Codec<EventRecord>;

/** meshEventLog's wire versions. */
export const EVENTLOG_CODECS = new CodecRegistry<EventLogCodec>('meshEventLog', [eventLogV1Preview]);
