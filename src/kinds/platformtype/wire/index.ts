import { CodecRegistry, eventCodec, type Codec } from '../../codec.js';
import type { PlatformType, PlatformTypeInput } from '../model.js';
import { platformTypeV1 } from './v1.js';
import { platformTypeV1Preview } from './v1-preview.js';

export interface PlatformTypeCodec extends Codec<PlatformType> {
  decode(body: unknown): PlatformTypeInput;
}

export const PLATFORM_TYPE_CODECS = new CodecRegistry<PlatformTypeCodec>('meshPlatformType', [platformTypeV1, platformTypeV1Preview]);

/** What its events carry: the platformTypeV1 answer a reader of its workspace gets. */
export const PLATFORM_TYPE_EVENTS = eventCodec(PLATFORM_TYPE_CODECS.kind, platformTypeV1, {});
