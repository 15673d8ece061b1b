import { CodecRegistry, eventCodec, type Codec } from '../../codec.js';
import type { Location, LocationInput } from '../model.js';
import { locationV1 } from './v1.js';
import { locationV1Preview } from './v1-preview.js';

export interface LocationCodec extends Codec<Location> {
  decode(body: unknown): LocationInput;
}

export const LOCATION_CODECS = new CodecRegistry<LocationCodec>('meshLocation', [locationV1, locationV1Preview]);

/** What its events carry: the locationV1 answer a reader of its workspace gets. */
export const LOCATION_EVENTS = eventCodec(LOCATION_CODECS.kind, locationV1, {});
