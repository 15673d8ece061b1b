import { CodecRegistry, eventCodec, LINKLESS, type Codec, type RelationsView } from '../../codec.js';
import type { Workspace, WorkspaceInput } from '../model.js';
import { workspaceV1 } from './v1.js';
import { workspaceV2 } from './v2.js';

export interface WorkspaceCodec extends Codec<Workspace, RelationsView> {
  decode(body: unknown): WorkspaceInput;
}

/** meshWorkspace's wire versions (a new one: a codec file and a line here). */
export const WORKSPACE_CODECS = new CodecRegistry<WorkspaceCodec>('meshWorkspace', [workspaceV2, workspaceV1]);

/** What its events carry: the workspaceV2 answer a reader of its workspace gets. */
export const WORKSPACE_EVENTS = eventCodec(WORKSPACE_CODECS.kind, workspaceV2, LINKLESS);
