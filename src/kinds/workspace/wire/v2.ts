import { Type } from '@sinclair/typebox';
import { compileDecoder } from '../../../lib/validation.js';
import { DateTime, Echoed, Identifier, KindOf, Links, NonEmptyShortString, Tags } from '../../../lib/wire-schemas.js';
import type { RelationsView } from '../../codec.js';
import { sentObject } from '../../document.js';
import { objectUrl } from '../../paths.js';
import { relatedLinks } from '../../relations.js';
import type { Workspace, WorkspaceInput } from '../model.js';
import { WORKSPACES_PATH } from '../model.js';

/** meshWorkspace v2 (COMPAT §7): `metadata{name, tags}`, `spec{displayName, platformBuilderAccessEnabled}`. */
const Body = Type.Object({
  kind: KindOf('meshWorkspace'),
  metadata: Type.Object({ name: Identifier, tags: Type.Optional(Tags) }),
  spec: Type.Object({ displayName: NonEmptyShortString, platformBuilderAccessEnabled: Type.Optional(Type.Boolean()) }),
});
const decodeBody = compileDecoder(Body);

/** A workspace as v1 and v2 answer it; v1 moves the tags into the spec. */
export const workspaceAnswer = (apiVersion: 'v1' | 'v2') =>
  Type.Object({
    apiVersion: Type.Literal(apiVersion),
    kind: Type.Literal('meshWorkspace'),
    metadata: Echoed({ name: Identifier, ...(apiVersion === 'v2' ? { tags: Tags } : {}), createdOn: DateTime }),
    spec: Echoed({
      displayName: Type.String(),
      platformBuilderAccessEnabled: Type.Optional(Type.Boolean()),
      ...(apiVersion === 'v1' ? { tags: Tags } : {}),
    }),
    _links: Links,
  });

export const workspaceV2 = {
  media: { kind: 'meshworkspace', version: 'v2' } as const,
  schema: workspaceAnswer('v2'),
  bodySchema: Body,
  decode(body: unknown): WorkspaceInput {
    const { metadata, spec } = decodeBody(body);
    return { name: metadata.name, document: sentObject(metadata, spec) };
  },
  encode(workspace: Workspace, view: RelationsView) {
    const { baseUrl } = view;
    const { metadata, spec } = workspace.document;
    const query = `?workspaceIdentifier=${encodeURIComponent(workspace.name)}`;
    return {
      apiVersion: 'v2',
      kind: 'meshWorkspace',
      metadata: { ...metadata, name: workspace.name, tags: metadata.tags ?? {}, createdOn: workspace.createdOn },
      spec,
      _links: {
        self: { href: objectUrl(baseUrl, WORKSPACES_PATH, workspace.name) },
        ...relatedLinks(view, {
          meshprojects: { rel: 'meshprojects', workspace: workspace.name, query },
          meshtenants: { rel: 'meshtenants', workspace: workspace.name, query },
          meshusers: { rel: 'meshusers', workspace: workspace.name, query },
          meshworkspaceusergroups: { rel: 'meshworkspaceusergroups', workspace: workspace.name, query },
          meshserviceinstances: { rel: 'meshserviceinstances', workspace: workspace.name, query },
        }),
      },
    };
  },
};
