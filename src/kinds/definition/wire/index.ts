import { CodecRegistry, eventCodec, LINKLESS, type Codec, type RelationsView } from '../../codec.js';
import type { Definition, DefinitionVersion } from '../model.js';
import { definitionV1Preview, type DecodedDefinition } from './definition-v1-preview.js';
import { versionV1Preview, type DecodedVersion } from './version-v1-preview.js';

export interface DefinitionCodec extends Codec<Definition, RelationsView> {
  decode(body: unknown): DecodedDefinition;
}

export interface VersionCodec extends Codec<DefinitionVersion, RelationsView> {
  decode(body: unknown): DecodedVersion;
}

export const DEFINITION_CODECS = new CodecRegistry<DefinitionCodec>('meshBuildingBlockDefinition', [definitionV1Preview]);
export const VERSION_CODECS = new CodecRegistry<VersionCodec>('meshBuildingBlockDefinitionVersion', [versionV1Preview]);

/**
 * A definition's events are about its metadata and spec: its answer without `status` (the versions
 * and usage count have events of their own, and a change of the definition does not read them).
 */
function encodeDefinitionForEvent(definition: Omit<Definition, 'versions' | 'usageCount'>, view: RelationsView) {
  const { status: _status, ...answer } = definitionV1Preview.encode({ ...definition, versions: [], usageCount: 0 }, view);
  return answer;
}

/** What their events carry: the v1-preview answers their owners' workspace reads. */
export const DEFINITION_EVENTS = eventCodec(DEFINITION_CODECS.kind, { encode: encodeDefinitionForEvent }, LINKLESS);
export const VERSION_EVENTS = eventCodec(VERSION_CODECS.kind, versionV1Preview, LINKLESS);
