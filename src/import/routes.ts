import { ok, type Operation } from '../kinds/operation.js';
import { filterValue } from '../lib/query.js';
import type { AuthorizedServices } from '../kinds/services.js';
import type { UnitOfWork } from '../store/transaction.js';
import { importableKinds } from './importable-kinds.js';
import { Importer } from './importer.js';

/** `…meshobjects.v1+json` (a JSON array) or `…v1+yaml` (a `---` stream) in, JSON results out. */
export const IMPORT_JSON = { kind: 'meshobjects', version: 'v1', format: 'json' } as const;
export const IMPORT_YAML = { kind: 'meshobjects', version: 'v1', format: 'yaml' } as const;

/** The declarative import (spec §1, COMPAT §7): `PUT /api/meshobjects`, admins only. */
export function importOperations(services: AuthorizedServices, units: UnitOfWork, log: { error(details: object, message: string): void }): Operation[] {
  const importer = new Importer(importableKinds(services), services.collections, units, log);
  return [
    {
      method: 'PUT',
      path: '/api/meshobjects',
      media: { produces: [IMPORT_JSON], consumes: [IMPORT_JSON, IMPORT_YAML] },
      access: 'admin',
      handle: async (call) => {
        const collection = filterValue(call.query, 'meshObjectCollection');
        const owner = filterValue(call.query, 'owner');
        return ok(await importer.import(call.ctx, call.body, { ...(collection !== undefined ? { collection } : {}), ...(owner !== undefined ? { owner } : {}) }));
      },
    },
  ];
}
