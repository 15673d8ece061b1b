import { Type } from '@sinclair/typebox';
import { MAX_STRING } from '../../../lib/limits.js';
import { Identifier, KindOf, NonEmptyShortString } from '../../../lib/wire-schemas.js';
import type { RelationsView } from '../../codec.js';
import { sentObject } from '../../document.js';
import { projectIdentifier } from '../../project/model.js';
import { objectLinks, objectVersion } from '../../wire-helpers.js';
import { SERVICE_INSTANCES_PATH, isDeleting, type ServiceInstance, type ServiceInstanceInput } from '../model.js';

/** Instance ids and marketplace identifiers stand in paths and queries: URL-safe characters only. */
const UrlSafe = Type.String({ pattern: '^[A-Za-z0-9._~-]+$', maxLength: MAX_STRING });

const Body = Type.Object({
  kind: KindOf('meshServiceInstance'),
  metadata: Type.Object({ ownedByProject: Identifier, ownedByWorkspace: Identifier, marketplaceIdentifier: UrlSafe, instanceId: UrlSafe }),
  spec: Type.Object({
    displayName: NonEmptyShortString,
    serviceId: NonEmptyShortString,
    planId: NonEmptyShortString,
    creator: NonEmptyShortString,
    // Open Service Broker parameters: any JSON object, kept as sent.
    parameters: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  }),
});

const Link = Type.Object({ href: Type.String() });

/**
 * meshServiceInstance v2 (OpenAPI): `metadata.{ownedByProject, ownedByWorkspace, marketplaceIdentifier,
 * instanceId}`, `spec.{displayName, serviceId, planId, creator, parameters?}`; answered with
 * `metadata.createdOn` (and `markedForDeletionOn` while deleting) and `status.state` (ACTIVE, DELETING).
 */
export const serviceInstanceV2 = objectVersion('meshServiceInstance', 'v2', {
  answer: {
    metadata: Type.Object({
      ownedByProject: Type.String(),
      ownedByWorkspace: Type.String(),
      marketplaceIdentifier: Type.String(),
      instanceId: Type.String(),
      createdOn: Type.String(),
      markedForDeletionOn: Type.Optional(Type.String()),
    }),
    spec: Type.Object({
      displayName: Type.String(),
      serviceId: Type.String(),
      planId: Type.String(),
      creator: Type.String(),
      parameters: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    }),
    status: Type.Object({ state: Type.Union([Type.Literal('ACTIVE'), Type.Literal('DELETING')]) }),
    _links: Type.Object({ self: Link, meshproject: Type.Optional(Link), meshworkspace: Type.Optional(Link) }),
  },
  body: Body,
  decode: ({ metadata, spec }): ServiceInstanceInput => ({
    instanceId: metadata.instanceId,
    workspace: metadata.ownedByWorkspace,
    project: metadata.ownedByProject,
    marketplace: metadata.marketplaceIdentifier,
    serviceId: spec.serviceId,
    planId: spec.planId,
    creator: spec.creator,
    document: sentObject(metadata, spec),
  }),
  encode(instance: ServiceInstance, view: RelationsView) {
    const { displayName, parameters } = instance.document.spec as { displayName: string; parameters?: Record<string, unknown> };
    return {
      metadata: {
        ownedByProject: instance.project,
        ownedByWorkspace: instance.workspace,
        marketplaceIdentifier: instance.marketplace,
        instanceId: instance.instanceId,
        createdOn: instance.createdOn,
        ...(instance.markedForDeletionOn !== undefined ? { markedForDeletionOn: instance.markedForDeletionOn } : {}),
      },
      spec: {
        displayName,
        serviceId: instance.serviceId,
        planId: instance.planId,
        creator: instance.creator,
        ...(parameters !== undefined ? { parameters } : {}),
      },
      status: { state: isDeleting(instance) ? ('DELETING' as const) : ('ACTIVE' as const) },
      _links: objectLinks(view, SERVICE_INSTANCES_PATH, instance.instanceId, {
        meshproject: {
          rel: 'meshprojects',
          workspace: instance.workspace,
          id: projectIdentifier({ workspace: instance.workspace, name: instance.project }),
        },
        meshworkspace: { rel: 'meshworkspaces', workspace: instance.workspace, id: instance.workspace },
      }),
    };
  },
});
