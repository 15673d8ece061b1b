import { CodecRegistry, eventCodec, LINKLESS, type Codec, type RelationsView } from '../../codec.js';
import type { LandingZone, LandingZoneInput } from '../model.js';
import { landingZoneV1 } from './v1.js';
import { landingZoneV1Preview } from './v1-preview.js';

export interface LandingZoneCodec extends Codec<LandingZone, RelationsView> {
  decode(body: unknown): LandingZoneInput;
}

export const LANDING_ZONE_CODECS = new CodecRegistry<LandingZoneCodec>('meshLandingZone', [landingZoneV1, landingZoneV1Preview]);

/** What its events carry: the landingZoneV1 answer a reader of its workspace gets. */
export const LANDING_ZONE_EVENTS = eventCodec(LANDING_ZONE_CODECS.kind, landingZoneV1, LINKLESS);
