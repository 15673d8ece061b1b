import { eventCodec, type EventCodec } from '../../codec.js';
import { BINDING_KINDS, type Binding, type BindingKind } from '../model.js';
import { bindingCodec, subjectsCodec, type BindingCodec } from './codec.js';

/** The REST versions of each binding kind (workspace bindings v2, project bindings v3). */
export const BINDING_CODECS: Record<BindingKind, BindingCodec> = {
  meshWorkspaceUserBinding: bindingCodec(BINDING_KINDS.workspaceUser, 'v2'),
  meshWorkspaceGroupBinding: bindingCodec(BINDING_KINDS.workspaceGroup, 'v2'),
  meshProjectUserBinding: bindingCodec(BINDING_KINDS.projectUser, 'v3'),
  meshProjectGroupBinding: bindingCodec(BINDING_KINDS.projectGroup, 'v3'),
};

/**
 * What the import takes besides the REST versions (openapi-notes §4, spec §9): the `subjects[]`
 * forms that are deprecated but not retired. The retired ones (meshWorkspaceGroupBinding v1,
 * meshProject*Binding v1) are refused by the import's lifecycle list before any codec is asked.
 */
export const IMPORT_ONLY_BINDING_CODECS: Record<BindingKind, Pick<BindingCodec, 'decodeAll' | 'media'>[]> = {
  meshWorkspaceUserBinding: [subjectsCodec(BINDING_KINDS.workspaceUser, 'v1')],
  meshWorkspaceGroupBinding: [],
  meshProjectUserBinding: [subjectsCodec(BINDING_KINDS.projectUser, 'v2')],
  meshProjectGroupBinding: [subjectsCodec(BINDING_KINDS.projectGroup, 'v2')],
};

/** What a binding's events carry: its REST answer, as a reader of its workspace gets it. */
export const BINDING_EVENTS = Object.fromEntries(
  Object.entries(BINDING_CODECS).map(([kind, codec]) => [kind, eventCodec(kind, codec, {})]),
) as Record<BindingKind, EventCodec<Binding>>;
