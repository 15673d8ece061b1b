import { Type } from '@sinclair/typebox';
import { compileDecoder } from '../../http/validation.js';
import { Identifier, KindOf, NonEmptyShortString, Tags } from '../../http/wire-schemas.js';
import { sentObject } from '../document.js';
import type { Workspace, WorkspaceInput } from './model.js';

/** meshWorkspace v2 on the wire (COMPAT §7). */
export const WORKSPACE_VERSIONS = [{ kind: 'meshworkspace', version: 'v2' }] as const;
export const WORKSPACES_PATH = '/api/meshobjects/meshworkspaces';

const decodeBody = compileDecoder(
  Type.Object({
    kind: KindOf('meshWorkspace'),
    metadata: Type.Object({ name: Identifier, tags: Type.Optional(Tags) }),
    spec: Type.Object({ displayName: NonEmptyShortString, platformBuilderAccessEnabled: Type.Optional(Type.Boolean()) }),
  }),
);

export function decodeWorkspace(body: unknown): WorkspaceInput {
  const { metadata, spec } = decodeBody(body);
  return { name: metadata.name, document: sentObject(metadata, spec) };
}

export function encodeWorkspace(workspace: Workspace, version: string, baseUrl: string) {
  const { metadata, spec } = workspace.document;
  const query = `?workspaceIdentifier=${encodeURIComponent(workspace.name)}`;
  return {
    apiVersion: version,
    kind: 'meshWorkspace',
    metadata: { ...metadata, name: workspace.name, tags: metadata.tags ?? {}, createdOn: workspace.createdOn },
    spec,
    _links: {
      self: { href: `${baseUrl}${WORKSPACES_PATH}/${encodeURIComponent(workspace.name)}` },
      meshprojects: { href: `${baseUrl}/api/meshobjects/meshprojects${query}` },
      meshtenants: { href: `${baseUrl}/api/meshobjects/meshtenants${query}` },
    },
  };
}
