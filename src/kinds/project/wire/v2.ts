import { Type } from '@sinclair/typebox';
import { compileDecoder } from '../../http/validation.js';
import { Identifier, KindOf, NonEmptyShortString, ShortString, Tags } from '../../http/wire-schemas.js';
import { sentObject } from '../document.js';
import { projectIdentifier, type Project, type ProjectInput } from './model.js';

/** meshProject v2 on the wire (COMPAT §7). */
export const PROJECT_VERSIONS = [{ kind: 'meshproject', version: 'v2' }] as const;
export const PROJECTS_PATH = '/api/meshobjects/meshprojects';

const decodeBody = compileDecoder(
  Type.Object({
    kind: KindOf('meshProject'),
    metadata: Type.Object({ name: Identifier, ownedByWorkspace: Identifier }),
    spec: Type.Object({
      displayName: NonEmptyShortString,
      tags: Type.Optional(Tags),
      paymentMethodIdentifier: Type.Optional(ShortString),
      substitutePaymentMethodIdentifier: Type.Optional(ShortString),
    }),
  }),
);

export function decodeProject(body: unknown): ProjectInput {
  const { metadata, spec } = decodeBody(body);
  return {
    workspace: metadata.ownedByWorkspace,
    name: metadata.name,
    ...(spec.paymentMethodIdentifier !== undefined ? { paymentMethodIdentifier: spec.paymentMethodIdentifier } : {}),
    document: sentObject(metadata, spec),
  };
}

export function encodeProject(project: Project, version: string, baseUrl: string) {
  const workspace = encodeURIComponent(project.workspace);
  return {
    apiVersion: version,
    kind: 'meshProject',
    metadata: { ...project.document.metadata, name: project.name, ownedByWorkspace: project.workspace, createdOn: project.createdOn },
    spec: { ...project.document.spec, tags: project.document.spec.tags ?? {} },
    _links: {
      self: { href: `${baseUrl}${PROJECTS_PATH}/${encodeURIComponent(projectIdentifier(project))}` },
      meshworkspace: { href: `${baseUrl}/api/meshobjects/meshworkspaces/${workspace}` },
      meshtenants: { href: `${baseUrl}/api/meshobjects/meshtenants?workspaceIdentifier=${workspace}&projectIdentifier=${encodeURIComponent(project.name)}` },
    },
  };
}
