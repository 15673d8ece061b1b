import { Type } from '@sinclair/typebox';
import { Identifier, KindOf, NonEmptyShortString, Tags } from '../../../lib/wire-schemas.js';
import type { RelationsView } from '../../codec.js';
import { sentObject } from '../../document.js';
import { objectVersion } from '../../wire-helpers.js';
import type { Workspace, WorkspaceInput } from '../model.js';
import { encodeWorkspace, workspaceAnswer } from './v2.js';

/** meshWorkspace v1 (the import's documented form): the tags are `spec.tags`, not `metadata.tags`. */
const Body = Type.Object({
  kind: KindOf('meshWorkspace'),
  metadata: Type.Object({ name: Identifier }),
  spec: Type.Object({ displayName: NonEmptyShortString, tags: Type.Optional(Tags) }),
});

/**
 * meshWorkspace v1, deprecated for v2 (spec §9, no date; REST answers carry the deprecation headers,
 * the import a remark). The stored document is v2's: `spec.tags` is kept as `metadata.tags`.
 */
export const workspaceV1 = objectVersion('meshWorkspace', 'v1', {
  answer: workspaceAnswer('v1'),
  body: Body,
  decode({ metadata, spec }): WorkspaceInput {
    const { tags, ...otherSpec } = spec;
    return { name: metadata.name, document: sentObject({ ...metadata, ...(tags !== undefined ? { tags } : {}) }, otherSpec) };
  },
  encode(workspace: Workspace, view: RelationsView) {
    const v2 = encodeWorkspace(workspace, view);
    const { tags, ...metadata } = v2.metadata;
    return { ...v2, metadata, spec: { ...v2.spec, tags } };
  },
});
