import { CodecRegistry, eventCodec, type Codec } from '../../codec.js';
import type { TagDefinition, TagDefinitionInput } from '../model.js';
import { tagDefinitionV1 } from './v1.js';

export interface TagDefinitionCodec extends Codec<TagDefinition> {
  decode(body: unknown): TagDefinitionInput;
}

export const TAG_DEFINITION_CODECS = new CodecRegistry<TagDefinitionCodec>('meshTagDefinition', [tagDefinitionV1]);

/** What its events carry: the tagDefinitionV1 answer a reader of its workspace gets. */
export const TAG_DEFINITION_EVENTS = eventCodec(TAG_DEFINITION_CODECS.kind, tagDefinitionV1, {});
