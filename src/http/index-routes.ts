import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { ADMIN_WORKSPACE } from '../kinds/workspace/model.js';
import type { RequestContext } from '../auth/context.js';
import type { AuthorizedServices } from '../kinds/services.js';
import { indexLinks } from '../kinds/relations.js';
import { notFound } from '../lib/errors.js';
import { JSON_CONTENT_TYPE } from '../lib/media-types.js';
import { compileDecoder } from '../lib/validation.js';
import { isRetired } from '../lib/versions.js';
import { REST_VERSIONS } from '../lifecycle.js';
import { Links, NonEmptyShortString, Nullable, Tags } from '../lib/wire-schemas.js';
import type { AppContext } from './app.js';
import { routeSchema } from './route-schemas.js';

/** The release of the original system whose API this service matches (clients require ≥ 2026.34.0). */
export const COMPATIBLE_VERSION = '2026.34.0';

const MediaTypeEntry = Type.Object({
  kind: Type.String(),
  version: Type.String(),
  format: Type.String(),
  phase: Type.Union([Type.Literal('current'), Type.Literal('deprecated')]),
});
const Deprecation = Type.Object({
  kind: Type.String(),
  version: Type.String(),
  phase: Type.Union([Type.Literal('deprecated'), Type.Literal('retired')]),
  endOfLife: Nullable(Type.String({ format: 'date' })),
  replacedBy: Type.String(),
});
const Metadata = Type.Object({ mediaTypes: Type.Array(MediaTypeEntry), deprecations: Type.Array(Deprecation), _links: Links });
const Info = Type.Object({
  version: Type.String(),
  is4EPEnabled: Type.Boolean(),
  metadata: Type.Object({}, { additionalProperties: true }),
  adminWorkspaceIdentifier: Type.String(),
});
const ProjectQuery = Type.Object({ 'project-id': NonEmptyShortString });
const decodeProjectQuery = compileDecoder(ProjectQuery);
/** The OpenAPI's answer, in its legacy naming (a workspace was a "customer"). */
const ProjectMetadata = Type.Object({
  'project-identifier': Type.String(),
  'project-display-name': Type.String(),
  'customer-identifier': Type.String(),
  'customer-display-name': Type.String(),
  tags: Tags,
});
const HAL_JSON = 'application/hal+json';

/**
 * The project behind an OpenStack project id (the published OpenAPI's metadata API, for OpenStack's
 * own hooks): the live tenant whose `platformTenantId` it is, its project and workspace, each through
 * the caller's view. Any platform's tenant: platform types are named by operators here, and OpenStack
 * project ids are UUIDs no other cloud's tenant ids collide with (the oldest tenant, should they).
 * Nothing is stored: the answer is read from the tenant, so it follows every change of the project.
 */
async function openstackProjectMetadata(services: AuthorizedServices, ctx: RequestContext, projectId: string) {
  const missing = () => notFound(`no OpenStack project "${projectId}" is a tenant here`);
  const { items } = await services.tenants.list(ctx, { platformTenantId: projectId, states: ['ACTIVE'] }, { page: 0, size: 1 });
  const tenant = items[0];
  if (!tenant) throw missing();
  const project = await services.projects.find(ctx, `${tenant.workspace}.${tenant.project}`);
  const workspace = await services.workspaces.find(ctx, tenant.workspace);
  if (!project || !workspace) throw missing();
  return {
    'project-identifier': project.name,
    'project-display-name': String(project.document.spec.displayName ?? project.name),
    'customer-identifier': workspace.name,
    'customer-display-name': String(workspace.document.spec.displayName ?? workspace.name),
    tags: (project.document.spec.tags as Record<string, string[]> | undefined) ?? {},
  };
}

/** Endpoints 1 and 3 (spec §2.2, §2.3) and the metadata API. */
/** The deprecation list as the metadata API shows it: by end of life (undated last), then kind and version. */
const DEPRECATIONS = [...REST_VERSIONS.entries].sort(
  (a, b) =>
    (a.endOfLife ?? '9999').localeCompare(b.endOfLife ?? '9999') || a.kind.localeCompare(b.kind) || a.version.localeCompare(b.version),
);

export async function indexRoutes(app: FastifyInstance, context: AppContext): Promise<void> {
  const href = (path: string) => ({ href: `${context.baseUrl()}${path}` });
  const vendors = context.config.mediaVendors;
  const indexMedia = { produces: [{ kind: '', version: 'v1' }] };
  const objectsMedia = {
    produces: [
      { kind: 'meshobjects', version: 'v2' },
      { kind: 'meshobjects', version: 'v1' },
    ],
  };
  const metadataMedia = { produces: [{ kind: 'metadata', version: 'v1' }] };
  const answers = (
    description: string,
    media: { produces: { kind: string; version: string }[] },
    schema: ReturnType<typeof Type.Object>,
  ) => ({ 200: { description, body: media.produces.map((ref) => ({ media: ref, schema })) } });
  const indexSchema = routeSchema(
    'GET',
    '/api',
    {
      summary: 'The API index (spec §2.2)',
      responses: answers('links to the metadata and the meshObjects', indexMedia, Type.Object({ _links: Links })),
    },
    'authenticated',
    indexMedia,
    vendors,
  );
  const objectsSchema = routeSchema(
    'GET',
    '/api/meshobjects',
    {
      summary: 'The meshObjects index (spec §2.3)',
      responses: answers('a link to each collection the caller may use', objectsMedia, Type.Object({ _links: Links })),
    },
    'authenticated',
    objectsMedia,
    vendors,
  );
  const metadataSchema = routeSchema(
    'GET',
    '/api/metadata',
    {
      summary: 'Served media types and the deprecation list (spec §9)',
      responses: answers('the media types and deprecations', metadataMedia, Metadata),
    },
    'authenticated',
    metadataMedia,
    vendors,
  );
  // API users only in the OpenAPI: here the callers who read every tenant (API users, ADM_TENANT_LIST).
  const projectMetadataAccess = { resource: 'TENANT', action: 'LIST', adminOnly: true } as const;
  const projectMetadataMedia = { plainBodies: ['application/json'] };
  const projectMetadataSchema = routeSchema(
    'POST',
    '/api/metadata/openstackProjectMetadata',
    {
      summary: 'The project and workspace of an OpenStack project id (a tenant’s platformTenantId)',
      body: [{ media: 'application/json', schema: ProjectQuery }],
      responses: { 200: { description: 'the project, its workspace and its tags', body: [{ media: HAL_JSON, schema: ProjectMetadata }] } },
    },
    projectMetadataAccess,
    projectMetadataMedia,
    vendors,
  );
  const infoSchema = routeSchema(
    'GET',
    '/mesh/info',
    {
      summary: 'What the Terraform provider checks first',
      responses: { 200: { description: 'the compatible release', body: [{ media: 'application/json', schema: Info }] } },
    },
    'public',
    undefined,
    vendors,
  );

  app.get('/api', { config: { media: indexMedia }, schema: indexSchema }, async () => ({
    _links: { metadata: href('/api/metadata'), meshobjects: href('/api/meshobjects'), self: href('/api') },
  }));

  // The relations the caller may use (kinds/relations.ts: the one rule of every link into a relation).
  app.get('/api/meshobjects', { config: { media: objectsMedia }, schema: objectsSchema }, async (request) => ({
    _links: {
      ...indexLinks(context.relations, context.collectionPermissions(request.principal), context.baseUrl()),
      self: href('/api/meshobjects'),
    },
  }));

  // The metadata API: which media types this server serves and the deprecation list (spec §9).
  app.get('/api/metadata', { config: { media: metadataMedia }, schema: metadataSchema }, async () => ({
    mediaTypes: [...context.served.values()]
      .map((ref) => ({
        kind: ref.kind,
        version: ref.version,
        format: ref.format ?? 'hal+json',
        phase: REST_VERSIONS.of(ref) ? 'deprecated' : 'current',
      }))
      .sort((a, b) => a.kind.localeCompare(b.kind) || a.version.localeCompare(b.version)),
    deprecations: DEPRECATIONS.map((entry) => ({
      kind: entry.kind,
      version: entry.version,
      phase: isRetired(entry) ? 'retired' : 'deprecated',
      endOfLife: entry.endOfLife ?? null,
      replacedBy: entry.replacedBy,
    })),
    _links: { openstackProjectMetadata: href('/api/metadata/openstackProjectMetadata'), self: href('/api/metadata') },
  }));

  app.post(
    '/api/metadata/openstackProjectMetadata',
    { config: { media: projectMetadataMedia, access: projectMetadataAccess }, schema: projectMetadataSchema },
    async (request, reply) => {
      const query = decodeProjectQuery(request.body);
      return reply
        .type(HAL_JSON)
        .send(await openstackProjectMetadata(context.services, { principal: request.principal }, query['project-id']));
    },
  );

  // What the Terraform provider checks before it starts (COMPAT §2): no auth, plain JSON.
  app.get('/mesh/info', { config: { access: 'public' }, schema: infoSchema }, async (_request, reply) =>
    reply
      .type(JSON_CONTENT_TYPE)
      .send({ version: COMPATIBLE_VERSION, is4EPEnabled: false, metadata: {}, adminWorkspaceIdentifier: ADMIN_WORKSPACE }),
  );
}
