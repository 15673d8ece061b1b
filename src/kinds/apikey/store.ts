import { sql, type Selectable } from 'kysely';
import type { Page, PageRequest } from '../../lib/paging.js';
import { CompiledQueries } from '../../store/compiled-queries.js';
import type { ApiKeyTable } from '../../store/schema.js';
import type { Db } from '../../store/transaction.js';
import type { ApiKey } from './model.js';

function toModel(row: Selectable<ApiKeyTable>): ApiKey {
  return {
    uuid: row.uuid,
    ownedByWorkspace: row.owned_by_workspace,
    displayName: row.display_name,
    permissions: JSON.parse(row.permissions) as string[],
    ...(row.expires_at !== null ? { expiresAt: row.expires_at } : {}),
    secretHash: row.secret_hash,
    createdOn: row.created_on,
    revision: Number(row.revision),
  };
}

function toRow(key: ApiKey): ApiKeyTable {
  return {
    uuid: key.uuid,
    owned_by_workspace: key.ownedByWorkspace,
    display_name: key.displayName,
    permissions: JSON.stringify(key.permissions),
    expires_at: key.expiresAt ?? null,
    secret_hash: key.secretHash,
    created_on: key.createdOn,
    revision: key.revision,
  };
}

/** The `api_keys` table. */
export class ApiKeyStore {
  private readonly queries: CompiledQueries;

  constructor(private readonly db: Db) {
    this.queries = new CompiledQueries(db, 'api_keys');
  }

  async insert(key: ApiKey): Promise<void> {
    await this.db.insertInto('api_keys').values(toRow(key)).execute();
  }

  /** Insert or replace (bootstrap keys); a changed secret is a rotation (the revision goes up). */
  async upsert(key: ApiKey): Promise<void> {
    const row = toRow(key);
    await this.db
      .insertInto('api_keys')
      .values(row)
      .onConflict((oc) =>
        oc.column('uuid').doUpdateSet((eb) => ({
          display_name: row.display_name,
          permissions: row.permissions,
          expires_at: row.expires_at,
          secret_hash: row.secret_hash,
          owned_by_workspace: row.owned_by_workspace,
          revision: eb
            .case()
            .when('api_keys.secret_hash', '=', row.secret_hash)
            .then(eb.ref('api_keys.revision'))
            .else(sql<number>`api_keys.revision + 1`)
            .end(),
        })),
      )
      .execute();
  }

  /** Compiled once: every login reads its key so. */
  async find(uuid: string): Promise<ApiKey | undefined> {
    const [row] = await this.queries.execute('find', [uuid], (id) => this.db.selectFrom('api_keys').selectAll().where('uuid', '=', id));
    return row ? toModel(row) : undefined;
  }

  async list(filter: { workspace?: string }, page: PageRequest): Promise<Page<ApiKey>> {
    let query = this.db.selectFrom('api_keys');
    if (filter.workspace !== undefined) query = query.where('owned_by_workspace', '=', filter.workspace);
    const [rows, count] = await Promise.all([
      query
        .selectAll()
        .orderBy('created_on')
        .orderBy('uuid')
        .limit(page.size)
        .offset(page.page * page.size)
        .execute(),
      query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
    ]);
    return { items: rows.map(toModel), total: Number(count.total) };
  }

  /** Writes the key; `rotated`: its secret changed, so its revision goes up (in SQL: concurrent rotations each count). Answers the stored revision. */
  async update(key: ApiKey, rotated: boolean): Promise<number> {
    const { uuid, created_on: _created, revision: _revision, ...rest } = toRow(key);
    const row = await this.db
      .updateTable('api_keys')
      .set({ ...rest, ...(rotated ? { revision: sql<number>`revision + 1` } : {}) })
      .where('uuid', '=', uuid)
      .returning('revision')
      .executeTakeFirst();
    return Number(row?.revision ?? key.revision);
  }

  async delete(uuid: string): Promise<boolean> {
    const result = await this.db.deleteFrom('api_keys').where('uuid', '=', uuid).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** The keys of a deleted workspace go with it (its unit of work). */
  async deleteOfWorkspace(workspace: string): Promise<void> {
    await this.db.deleteFrom('api_keys').where('owned_by_workspace', '=', workspace).execute();
  }

  async count(): Promise<number> {
    const row = await this.db
      .selectFrom('api_keys')
      .select((eb) => eb.fn.countAll<number>().as('total'))
      .executeTakeFirstOrThrow();
    return Number(row.total);
  }
}
