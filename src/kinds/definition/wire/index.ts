import { CodecRegistry, type Codec } from '../../codec.js';
import type { Definition, DefinitionVersion } from '../model.js';
import { definitionV1Preview, type DecodedDefinition } from './definition-v1-preview.js';
import { versionV1Preview, type DecodedVersion } from './version-v1-preview.js';

export interface DefinitionCodec extends Codec<Definition> {
  decode(body: unknown): DecodedDefinition;
}

export interface VersionCodec extends Codec<DefinitionVersion> {
  decode(body: unknown): DecodedVersion;
}

export const DEFINITION_CODECS = new CodecRegistry<DefinitionCodec>('meshBuildingBlockDefinition', [definitionV1Preview]);
export const VERSION_CODECS = new CodecRegistry<VersionCodec>('meshBuildingBlockDefinitionVersion', [versionV1Preview]);
