import { CodecRegistry, type Codec } from '../../codec.js';
import type { TagDefinition, TagDefinitionInput } from '../model.js';
import { tagDefinitionV1 } from './v1.js';

export interface TagDefinitionCodec extends Codec<TagDefinition> {
  decode(body: unknown): TagDefinitionInput;
}

export const TAG_DEFINITION_CODECS = new CodecRegistry<TagDefinitionCodec>('meshTagDefinition', [tagDefinitionV1]);
