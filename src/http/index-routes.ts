import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { ADMIN_WORKSPACE } from '../auth/bootstrap.js';
import { MESHOBJECT_RELATIONS } from '../kinds/relations.js';
import type { HalLinks } from '../lib/hal.js';
import { JSON_CONTENT_TYPE } from '../lib/media-types.js';
import { LIFECYCLE, isRetired, lifecycleOf } from '../lib/versions.js';
import { Links, Nullable } from '../lib/wire-schemas.js';
import type { AppContext } from './app.js';
import { routeSchema } from './route-schemas.js';

/** The release of the original system whose API this service matches (clients require ≥ 2026.34.0). */
export const COMPATIBLE_VERSION = '2026.34.0';

const MediaTypeEntry = Type.Object({ kind: Type.String(), version: Type.String(), format: Type.String(), phase: Type.Union([Type.Literal('current'), Type.Literal('deprecated')]) });
const Deprecation = Type.Object({ kind: Type.String(), version: Type.String(), phase: Type.Union([Type.Literal('deprecated'), Type.Literal('retired')]), endOfLife: Nullable(Type.String({ format: 'date' })), replacedBy: Type.String() });
const Metadata = Type.Object({ mediaTypes: Type.Array(MediaTypeEntry), deprecations: Type.Array(Deprecation), _links: Links });
const Info = Type.Object({ version: Type.String(), is4EPEnabled: Type.Boolean(), metadata: Type.Object({}, { additionalProperties: true }), adminWorkspaceIdentifier: Type.String() });

/** Endpoints 1 and 3 (spec §2.2, §2.3) and the metadata API. */
export async function indexRoutes(app: FastifyInstance, context: AppContext): Promise<void> {
  const href = (path: string) => ({ href: `${context.baseUrl()}${path}` });
  const vendors = context.config.mediaVendors;
  const indexMedia = { produces: [{ kind: '', version: 'v1' }] };
  const objectsMedia = { produces: [{ kind: 'meshobjects', version: 'v2' }, { kind: 'meshobjects', version: 'v1' }] };
  const metadataMedia = { produces: [{ kind: 'metadata', version: 'v1' }] };
  const answers = (description: string, media: { produces: { kind: string; version: string }[] }, schema: ReturnType<typeof Type.Object>) => ({ 200: { description, body: media.produces.map((ref) => ({ media: ref, schema })) } });
  const indexSchema = routeSchema('GET', '/api', { summary: 'The API index (spec §2.2)', responses: answers('links to the metadata and the meshObjects', indexMedia, Type.Object({ _links: Links })) }, 'authenticated', indexMedia, vendors);
  const objectsSchema = routeSchema('GET', '/api/meshobjects', { summary: 'The meshObjects index (spec §2.3)', responses: answers('a link to each collection the caller may use', objectsMedia, Type.Object({ _links: Links })) }, 'authenticated', objectsMedia, vendors);
  const metadataSchema = routeSchema('GET', '/api/metadata', { summary: 'Served media types and the deprecation list (spec §9)', responses: answers('the media types and deprecations', metadataMedia, Metadata) }, 'authenticated', metadataMedia, vendors);
  const infoSchema = routeSchema('GET', '/mesh/info', { summary: 'What the Terraform provider checks first', responses: { 200: { description: 'the compatible release', body: [{ media: 'application/json', schema: Info }] } } }, 'public', undefined, vendors);

  app.get('/api', { config: { media: indexMedia }, schema: indexSchema }, async () => ({
    _links: { metadata: href('/api/metadata'), meshobjects: href('/api/meshobjects'), self: href('/api') },
  }));

  // A relation is listed when the caller may use its endpoint (spec §2.2): list it, or create in it
  // (a runner's claim is the runs relation's POST). Paths that only answer for retired versions
  // (http/retired-paths.ts) are not served, so never listed.
  app.get('/api/meshobjects', { config: { media: objectsMedia }, schema: objectsSchema }, async (request) => {
    const collections = context.collectionPermissions(request.principal);
    const links: HalLinks = {};
    for (const relation of MESHOBJECT_RELATIONS) {
      if (!collections.mayList(relation.path) && !collections.mayCreate(relation.path)) continue;
      links[relation.rel] = relation.template === '' ? href(relation.path) : { href: `${context.baseUrl()}${relation.path}${relation.template}`, templated: true };
    }
    links.self = href('/api/meshobjects');
    return { _links: links };
  });

  // The metadata API: which media types this server serves and the deprecation list (spec §9).
  app.get('/api/metadata', { config: { media: metadataMedia }, schema: metadataSchema }, async () => ({
    mediaTypes: [...context.served.values()]
      .map((ref) => ({ kind: ref.kind, version: ref.version, format: ref.format ?? 'hal+json', phase: lifecycleOf(ref) ? 'deprecated' : 'current' }))
      .sort((a, b) => a.kind.localeCompare(b.kind) || a.version.localeCompare(b.version)),
    deprecations: LIFECYCLE.map((entry) => ({
      kind: entry.kind,
      version: entry.version,
      phase: isRetired(entry) ? 'retired' : 'deprecated',
      endOfLife: entry.endOfLife ?? null,
      replacedBy: entry.replacedBy,
    })),
    _links: { self: href('/api/metadata') },
  }));

  // What the Terraform provider checks before it starts (COMPAT §2): no auth, plain JSON.
  app.get('/mesh/info', { config: { access: 'public' }, schema: infoSchema }, async (_request, reply) =>
    reply.type(JSON_CONTENT_TYPE).send({ version: COMPATIBLE_VERSION, is4EPEnabled: false, metadata: {}, adminWorkspaceIdentifier: ADMIN_WORKSPACE }),
  );
}
