import { Type } from '@sinclair/typebox';
import { ok, type Operation } from '../kinds/operation.js';
import { filterValue } from '../lib/query.js';
import type { KindManifest } from '../kinds/manifest.js';
import type { AuthorizedServices } from '../kinds/services.js';
import type { UnitOfWork } from '../store/transaction.js';
import { Importer } from './importer.js';

/** `…meshobjects.v1+json` (a JSON array) or `…v1+yaml` (a `---` stream) in, JSON results out. */
export const IMPORT_JSON = { kind: 'meshobjects', version: 'v1', format: 'json' } as const;
export const IMPORT_YAML = { kind: 'meshobjects', version: 'v1', format: 'yaml' } as const;

const Objects = Type.Array(Type.Object({ kind: Type.String(), apiVersion: Type.String() }, { additionalProperties: true }), {
  description: 'meshObjects (a YAML stream of them as +yaml)',
});
const Results = Type.Array(
  Type.Object({
    meshObject: Type.String({ description: '<kind>[<identity>]' }),
    status: Type.Union([Type.Literal('SUCCESS'), Type.Literal('FAILED')]),
    resultCode: Type.Union([Type.String(), Type.Null()]),
    message: Type.String(),
    remarks: Type.Array(Type.String()),
  }),
);

/** The declarative import (spec §1, COMPAT §7): `PUT /api/meshobjects`, admins only. */
export function importOperations(
  services: AuthorizedServices,
  kinds: readonly KindManifest[],
  units: UnitOfWork,
  log: { error(details: object, message: string): void },
): Operation[] {
  const importer = new Importer(
    kinds.flatMap((kind) => kind.importable?.(services) ?? []),
    services.collections,
    units,
    log,
  );
  return [
    {
      method: 'PUT',
      path: '/api/meshobjects',
      media: { produces: [IMPORT_JSON], consumes: [IMPORT_JSON, IMPORT_YAML] },
      access: 'admin',
      doc: {
        summary: 'Import meshObjects (declarative)',
        description:
          'Creates or updates each object by its identity, in order; one result per object. With a meshObjectCollection, objects of the collection missing from the import are deleted.',
        query: Type.Object({
          meshObjectCollection: Type.Optional(Type.String({ description: 'the collection the objects belong to (declarative deletion)' })),
          owner: Type.Optional(Type.String({ description: 'the collection’s owner' })),
        }),
        body: [
          { media: IMPORT_JSON, schema: Objects },
          { media: IMPORT_YAML, schema: Type.String({ description: 'a YAML stream (---) of meshObjects' }) },
        ],
        responses: { 200: { description: 'one result per object, in the order sent', body: [{ media: IMPORT_JSON, schema: Results }] } },
      },
      handle: async (call) => {
        const collection = filterValue(call.query, 'meshObjectCollection');
        const owner = filterValue(call.query, 'owner');
        return ok(
          await importer.import(call.ctx, call.body, {
            ...(collection !== undefined ? { collection } : {}),
            ...(owner !== undefined ? { owner } : {}),
          }),
        );
      },
    },
  ];
}
