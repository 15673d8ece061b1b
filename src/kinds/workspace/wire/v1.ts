import { Type } from '@sinclair/typebox';
import { compileDecoder } from '../../../lib/validation.js';
import { Identifier, KindOf, NonEmptyShortString, Tags } from '../../../lib/wire-schemas.js';
import type { RelationsView } from '../../codec.js';
import { sentObject } from '../../document.js';
import type { Workspace, WorkspaceInput } from '../model.js';
import { workspaceAnswer, workspaceV2 } from './v2.js';

/** meshWorkspace v1 (the import's documented form): the tags are `spec.tags`, not `metadata.tags`. */
const Body = Type.Object({
  kind: KindOf('meshWorkspace'),
  metadata: Type.Object({ name: Identifier }),
  spec: Type.Object({ displayName: NonEmptyShortString, tags: Type.Optional(Tags) }),
});
const decodeBody = compileDecoder(Body);

/**
 * meshWorkspace v1, deprecated for v2 (spec §9, no date; REST answers carry the deprecation headers,
 * the import a remark). The stored document is v2's: `spec.tags` is kept as `metadata.tags`.
 */
export const workspaceV1 = {
  media: { kind: 'meshworkspace', version: 'v1' } as const,
  schema: workspaceAnswer('v1'),
  bodySchema: Body,
  decode(body: unknown): WorkspaceInput {
    const { metadata, spec } = decodeBody(body);
    const { tags, ...otherSpec } = spec;
    return { name: metadata.name, document: sentObject({ ...metadata, ...(tags !== undefined ? { tags } : {}) }, otherSpec) };
  },
  encode(workspace: Workspace, view: RelationsView) {
    const v2 = workspaceV2.encode(workspace, view);
    const { tags, ...metadata } = v2.metadata;
    return { ...v2, apiVersion: 'v1', metadata, spec: { ...v2.spec, tags } };
  },
};
