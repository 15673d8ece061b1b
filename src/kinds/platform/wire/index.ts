import { CodecRegistry, eventCodec, LINKLESS, type Codec } from '../../codec.js';
import type { Platform } from '../model.js';
import { platformV1 } from './v1.js';
import { platformV2, type DecodedPlatform, type PlatformView } from './v2.js';
import { platformV2Preview } from './v2-preview.js';

export interface PlatformCodec extends Codec<Platform, PlatformView> {
  decode(body: unknown): DecodedPlatform;
}

export const PLATFORM_CODECS = new CodecRegistry<PlatformCodec>('meshPlatform', [platformV2, platformV2Preview, platformV1]);

/** What its events carry: the platformV2 answer a reader of its workspace gets. */
export const PLATFORM_EVENTS = eventCodec(PLATFORM_CODECS.kind, platformV2, { ...LINKLESS, withConfig: false });
