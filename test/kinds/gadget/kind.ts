import type { Kysely } from 'kysely';
import { AuthorizedCrudService, ownedByWorkspace } from '../../../src/kinds/crud/authorized-service.js';
import { CrudService, type CrudStrategy } from '../../../src/kinds/crud/service.js';
import { importable, metadataName } from '../../../src/kinds/importable.js';
import { type KindManifest } from '../../../src/kinds/manifest.js';
import { resourceOperations } from '../../../src/kinds/resource.js';
import { versionOf } from '../../../src/kinds/operation.js';
import { Filter, filterValue } from '../../../src/lib/query.js';
import { GADGETS_PATH, type Gadget, type GadgetInput } from './model.js';
import { GADGET_CODECS, GADGET_EVENTS } from './wire.js';

export const GADGET_TITLES = {
  gadgetCreated: { title: 'Gadget Created', eventType: 'Created' },
  gadgetChanged: { title: 'Gadget Changed', eventType: 'Changed' },
  gadgetDeleted: { title: 'Gadget Deleted', eventType: 'Deleted' },
} as const;

declare module '../../../src/kinds/services.js' {
  interface AuthorizedServices {
    gadgets: AuthorizedCrudService<Gadget, GadgetInput>;
  }
}

const strategy = (requireWorkspace: (name: string, field: string) => Promise<void>): CrudStrategy<Gadget, GadgetInput> => ({
  kind: 'meshGadget',
  reference: 'gadget',
  table: {
    table: 'gadgets',
    key: 'name',
    toRow: (gadget) => ({
      name: gadget.name,
      owned_by_workspace: gadget.workspace,
      display_name: gadget.displayName,
      color: gadget.color ?? null,
    }),
    fromRow: (row) => ({
      name: String(row.name),
      workspace: String(row.owned_by_workspace),
      displayName: String(row.display_name),
      ...(row.color !== null ? { color: String(row.color) } : {}),
    }),
  },
  events: { created: GADGET_TITLES.gadgetCreated, changed: GADGET_TITLES.gadgetChanged, deleted: GADGET_TITLES.gadgetDeleted },
  eventCodec: GADGET_EVENTS,
  workspaceOf: (gadget) => gadget.workspace,
  prepareForCreate: (input) => ({ ...input, createdOn: new Date().toISOString() }),
  prepareForUpdate: (existing, input) => ({ ...input, createdOn: existing.createdOn }),
  validate: (input) => requireWorkspace(input.workspace, 'metadata.ownedByWorkspace'),
});

export const gadgetKind: KindManifest<'gadgets'> = {
  name: 'gadgets',
  resources: [
    {
      path: GADGETS_PATH,
      codecs: GADGET_CODECS,
      index: ['workspaceIdentifier'],
      cli: {},
    },
  ],
  events: GADGET_TITLES,
  references: [{ to: 'workspace', kind: 'meshGadgets', table: 'gadgets', columns: ['owned_by_workspace'] }],
  migrations: {
    '9001_test_gadgets': {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable('gadgets')
          .addColumn('name', 'varchar(255)', (c) => c.primaryKey())
          .addColumn('owned_by_workspace', 'varchar(255)', (c) => c.notNull().references('workspaces.name'))
          .addColumn('display_name', 'varchar(255)', (c) => c.notNull())
          .addColumn('color', 'varchar(40)')
          .addColumn('created_on', 'varchar(30)', (c) => c.notNull())
          .execute();
        await db.schema.createIndex('gadgets_workspace').on('gadgets').columns(['owned_by_workspace', 'created_on']).execute();
      },
    },
  },
  build(context) {
    const workspaces = context.plain('workspaces');
    const plain = new CrudService(
      context.db,
      context.recorder,
      context.references,
      strategy((name, field) => workspaces.requireExists(name, field)),
    );
    const access = ownedByWorkspace<Gadget, GadgetInput>('WORKSPACE', 'owned_by_workspace', (gadget) => gadget.workspace);
    return { authorized: new AuthorizedCrudService(plain, access, { kind: 'meshGadget', idOfInput: (input) => input.name }) };
  },
  operations: ({ gadgets }) =>
    resourceOperations<Gadget>({
      path: GADGETS_PATH,
      codecs: GADGET_CODECS.codecs,
      embedded: 'meshGadgets',
      filters: { workspaceIdentifier: Filter('gadgets of this workspace') },
      resource: 'WORKSPACE',
      encode: (gadget, call) => GADGET_CODECS.of(versionOf(call)).encode(gadget, call),
      get: (call, name) => gadgets.get(call.ctx, name),
      list: (call, page) => gadgets.list(call.ctx, { owned_by_workspace: filterValue(call.query, 'workspaceIdentifier') }, page),
      create: (call) => gadgets.create(call.ctx, GADGET_CODECS.of(call.consumes?.version).decode(call.body)),
      update: (call, name) => gadgets.update(call.ctx, name, GADGET_CODECS.of(call.consumes?.version).decode(call.body)),
      remove: { status: 204, run: (call, name) => gadgets.delete(call.ctx, name) },
    }),
  importable: ({ gadgets }) => [
    importable(GADGET_CODECS, metadataName, async (ctx, input) => {
      const { object, created } = await gadgets.save(ctx, input);
      return { name: object.name, created };
    }),
  ],
};
