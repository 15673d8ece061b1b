import { CodecRegistry, eventCodec, LINKLESS, type Codec } from '../../codec.js';
import type { Block, BlockRequest, BlockUpdate } from '../model.js';
import type { BlockFilter } from '../store.js';
import type { BlockView } from './rows.js';
import { blockV1 } from './v1.js';
import { blockV2Preview } from './v2-preview.js';

export interface BlockCodec extends Codec<Block, BlockView> {
  decode(body: unknown): BlockRequest;
  /** The body of a PUT (versions that take one). */
  decodeUpdate?(body: unknown): BlockUpdate;
  /** What the version's lists hold beyond the filters sent. */
  listFilter?(filter: BlockFilter): BlockFilter | 'none';
}

/** One store, two representations (spec §4: the Accept or Content-Type header selects v1 or v2-preview). */
export const BLOCK_CODECS = new CodecRegistry<BlockCodec>('meshBuildingBlock', [blockV1, blockV2Preview]);

/** What its events carry: the blockV2Preview answer a reader of its workspace gets. */
export const BLOCK_EVENTS = eventCodec(BLOCK_CODECS.kind, blockV2Preview, { ...LINKLESS, showPurge: false });
