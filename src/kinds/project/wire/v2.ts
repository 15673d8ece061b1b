import { Type } from '@sinclair/typebox';
import { DateTime, Echoed, Identifier, KindOf, NonEmptyShortString, ShortString, Tags } from '../../../lib/wire-schemas.js';
import type { RelationsView } from '../../codec.js';
import { sentObject } from '../../document.js';
import { objectLinks, objectVersion } from '../../wire-helpers.js';
import { PROJECTS_PATH, projectIdentifier, type Project, type ProjectInput } from '../model.js';

const Body = Type.Object({
  kind: KindOf('meshProject'),
  metadata: Type.Object({ name: Identifier, ownedByWorkspace: Identifier }),
  spec: Type.Object({
    displayName: NonEmptyShortString,
    tags: Type.Optional(Tags),
    paymentMethodIdentifier: Type.Optional(ShortString),
    substitutePaymentMethodIdentifier: Type.Optional(ShortString),
  }),
});

/** meshProject v2 (COMPAT §7), `/<workspace>.<project>`. */
export const projectV2 = objectVersion('meshProject', 'v2', {
  answer: {
    metadata: Echoed({ name: Identifier, ownedByWorkspace: Identifier, createdOn: DateTime }),
    spec: Echoed({
      displayName: Type.String(),
      tags: Tags,
      paymentMethodIdentifier: Type.Optional(Type.String()),
      substitutePaymentMethodIdentifier: Type.Optional(Type.String()),
    }),
  },
  body: Body,
  decode: ({ metadata, spec }): ProjectInput => ({
    workspace: metadata.ownedByWorkspace,
    name: metadata.name,
    ...(spec.paymentMethodIdentifier !== undefined ? { paymentMethodIdentifier: spec.paymentMethodIdentifier } : {}),
    ...(spec.substitutePaymentMethodIdentifier !== undefined
      ? { substitutePaymentMethodIdentifier: spec.substitutePaymentMethodIdentifier }
      : {}),
    document: sentObject(metadata, spec),
  }),
  encode(project: Project, view: RelationsView) {
    const { workspace } = project;
    const query = `?workspaceIdentifier=${encodeURIComponent(workspace)}&projectIdentifier=${encodeURIComponent(project.name)}`;
    return {
      metadata: { ...project.document.metadata, name: project.name, ownedByWorkspace: project.workspace, createdOn: project.createdOn },
      spec: { ...project.document.spec, tags: project.document.spec.tags ?? {} },
      _links: objectLinks(view, PROJECTS_PATH, projectIdentifier(project), {
        meshworkspace: { rel: 'meshworkspaces', workspace, id: workspace },
        meshtenants: { rel: 'meshtenants', workspace, query },
        meshusers: { rel: 'meshusers', workspace, query },
        meshprojectuserbindings: { rel: 'meshprojectuserbindings', workspace, query },
        meshprojectgroupbindings: { rel: 'meshprojectgroupbindings', workspace, query },
        meshserviceinstances: { rel: 'meshserviceinstances', workspace, query },
        activePaymentMethod:
          project.activePaymentMethod === undefined ? undefined : { rel: 'meshpaymentmethods', workspace, id: project.activePaymentMethod },
      }),
    };
  },
});
