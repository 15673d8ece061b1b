import { Type } from '@sinclair/typebox';
import { DateTime, Echoed, Identifier, KindOf, NonEmptyShortString, Tags } from '../../../lib/wire-schemas.js';
import type { RelationsView } from '../../codec.js';
import { sentObject } from '../../document.js';
import { objectLinks, objectVersion } from '../../wire-helpers.js';
import type { Workspace, WorkspaceInput } from '../model.js';
import { WORKSPACES_PATH } from '../model.js';

/** meshWorkspace v2 (COMPAT §7): `metadata{name, tags}`, `spec{displayName, platformBuilderAccessEnabled}`. */
const Body = Type.Object({
  kind: KindOf('meshWorkspace'),
  metadata: Type.Object({ name: Identifier, tags: Type.Optional(Tags) }),
  spec: Type.Object({ displayName: NonEmptyShortString, platformBuilderAccessEnabled: Type.Optional(Type.Boolean()) }),
});

/** A workspace's parts as v1 and v2 answer them; v1 moves the tags into the spec. */
export const workspaceAnswer = (apiVersion: 'v1' | 'v2') => ({
  metadata: Echoed({ name: Identifier, ...(apiVersion === 'v2' ? { tags: Tags } : {}), createdOn: DateTime }),
  spec: Echoed({
    displayName: Type.String(),
    platformBuilderAccessEnabled: Type.Optional(Type.Boolean()),
    ...(apiVersion === 'v1' ? { tags: Tags } : {}),
  }),
});

/** A workspace's answer in v2, from `metadata` on. */
export function encodeWorkspace(workspace: Workspace, view: RelationsView) {
  const { metadata, spec } = workspace.document;
  const query = `?workspaceIdentifier=${encodeURIComponent(workspace.name)}`;
  return {
    metadata: { ...metadata, name: workspace.name, tags: metadata.tags ?? {}, createdOn: workspace.createdOn },
    spec,
    _links: objectLinks(view, WORKSPACES_PATH, workspace.name, {
      meshprojects: { rel: 'meshprojects', workspace: workspace.name, query },
      meshtenants: { rel: 'meshtenants', workspace: workspace.name, query },
      meshusers: { rel: 'meshusers', workspace: workspace.name, query },
      meshworkspaceusergroups: { rel: 'meshworkspaceusergroups', workspace: workspace.name, query },
      meshserviceinstances: { rel: 'meshserviceinstances', workspace: workspace.name, query },
    }),
  };
}

export const workspaceV2 = objectVersion('meshWorkspace', 'v2', {
  answer: workspaceAnswer('v2'),
  body: Body,
  decode: ({ metadata, spec }): WorkspaceInput => ({ name: metadata.name, document: sentObject(metadata, spec) }),
  encode: encodeWorkspace,
});
