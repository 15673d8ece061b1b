import { CodecRegistry, eventCodec, LINKLESS, type Codec, type RelationsView } from '../../codec.js';
import type { CommunicationContent, CommunicationContentUpdate, CommunicationDefinition } from '../model.js';
import { communicationDefinitionV1Preview } from './v1-preview.js';

export interface CommunicationDefinitionCodec extends Codec<CommunicationDefinition, RelationsView> {
  decode(body: unknown): CommunicationContent;
  /** A PUT: `type` may be left out (it stays); `uuid` is `metadata.uuid` when sent. */
  decodeUpdate(body: unknown): { uuid?: string; communication: CommunicationContentUpdate };
}

export const COMMUNICATION_DEFINITION_CODECS = new CodecRegistry<CommunicationDefinitionCodec>('meshCommunicationDefinition', [
  communicationDefinitionV1Preview,
]);

/** What its events carry (they are the sender's: filed under no workspace): its answer. */
export const COMMUNICATION_DEFINITION_EVENTS = eventCodec(COMMUNICATION_DEFINITION_CODECS.kind, communicationDefinitionV1Preview, LINKLESS);
