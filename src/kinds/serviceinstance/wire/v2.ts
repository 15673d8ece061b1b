import { Type } from '@sinclair/typebox';
import { MAX_STRING } from '../../../lib/limits.js';
import { compileDecoder } from '../../../lib/validation.js';
import { Identifier, KindOf, NonEmptyShortString } from '../../../lib/wire-schemas.js';
import type { RelationsView } from '../../codec.js';
import { sentObject } from '../../document.js';
import { objectUrl } from '../../paths.js';
import { relatedLinks } from '../../relations.js';
import { projectIdentifier } from '../../project/model.js';
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
const decodeBody = compileDecoder(Body);

const Link = Type.Object({ href: Type.String() });

/** What `encode` answers (the served OpenAPI reads it as the response schema). */
const schema = Type.Object({
  apiVersion: Type.Literal('v2'),
  kind: Type.Literal('meshServiceInstance'),
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
});

/**
 * meshServiceInstance v2 (OpenAPI): `metadata.{ownedByProject, ownedByWorkspace, marketplaceIdentifier,
 * instanceId}`, `spec.{displayName, serviceId, planId, creator, parameters?}`; answered with
 * `metadata.createdOn` (and `markedForDeletionOn` while deleting) and `status.state` (ACTIVE, DELETING).
 */
export const serviceInstanceV2 = {
  media: { kind: 'meshserviceinstance', version: 'v2' } as const,
  schema,
  bodySchema: Body,
  decode(body: unknown): ServiceInstanceInput {
    const { metadata, spec } = decodeBody(body);
    return {
      instanceId: metadata.instanceId,
      workspace: metadata.ownedByWorkspace,
      project: metadata.ownedByProject,
      marketplace: metadata.marketplaceIdentifier,
      serviceId: spec.serviceId,
      planId: spec.planId,
      creator: spec.creator,
      document: sentObject(metadata, spec),
    };
  },
  encode(instance: ServiceInstance, view: RelationsView) {
    const { baseUrl } = view;
    const { displayName, parameters } = instance.document.spec as { displayName: string; parameters?: Record<string, unknown> };
    return {
      apiVersion: 'v2' as const,
      kind: 'meshServiceInstance' as const,
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
      _links: {
        self: { href: objectUrl(baseUrl, SERVICE_INSTANCES_PATH, instance.instanceId) },
        ...relatedLinks(view, {
          meshproject: {
            rel: 'meshprojects',
            workspace: instance.workspace,
            id: projectIdentifier({ workspace: instance.workspace, name: instance.project }),
          },
          meshworkspace: { rel: 'meshworkspaces', workspace: instance.workspace, id: instance.workspace },
        }),
      },
    };
  },
};
