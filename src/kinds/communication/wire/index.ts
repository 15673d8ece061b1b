import { CodecRegistry, eventCodec, LINKLESS, type Codec, type RelationsView } from '../../codec.js';
import type { Communication, CommunicationInput } from '../model.js';
import { communicationV1Preview } from './v1-preview.js';

export interface CommunicationCodec extends Codec<Communication, RelationsView> {
  decode(body: unknown): CommunicationInput;
}

export const COMMUNICATION_CODECS = new CodecRegistry<CommunicationCodec>('meshCommunication', [communicationV1Preview]);

/** What its events carry (filed under its receiving workspace): the answer that workspace's readers get. */
export const COMMUNICATION_EVENTS = eventCodec(COMMUNICATION_CODECS.kind, communicationV1Preview, LINKLESS);
