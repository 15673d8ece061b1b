import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../http/app.js';
import { importableKinds } from './importable-kinds.js';
import { Importer } from './importer.js';

/** `…meshobjects.v1+json` (a JSON array) or `…v1+yaml` (a `---` stream) in, JSON results out. */
const IMPORT_JSON = { kind: 'meshobjects', version: 'v1', format: 'json' } as const;
const IMPORT_YAML = { kind: 'meshobjects', version: 'v1', format: 'yaml' } as const;

/** The declarative import (spec §1, COMPAT §7): `PUT /api/meshobjects`, admins only. */
export async function importRoutes(app: FastifyInstance, context: AppContext): Promise<void> {
  const importer = new Importer(importableKinds(context.services), app.log);
  app.put('/api/meshobjects', { config: { media: { produces: [IMPORT_JSON], consumes: [IMPORT_JSON, IMPORT_YAML] }, access: 'admin' } }, async (request) =>
    importer.import(request.principal, request.body),
  );
}
