import type { Selectable } from 'kysely';
import type { Page, PageRequest } from '../../lib/paging.js';
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
  };
}

/** The `api_keys` table. */
export class ApiKeyStore {
  constructor(private readonly db: Db) {}

  async insert(key: ApiKey): Promise<void> {
    await this.db.insertInto('api_keys').values(toRow(key)).execute();
  }

  /** Insert or replace (bootstrap keys). */
  async upsert(key: ApiKey): Promise<void> {
    const row = toRow(key);
    await this.db
      .insertInto('api_keys')
      .values(row)
      .onConflict((oc) => oc.column('uuid').doUpdateSet({ display_name: row.display_name, permissions: row.permissions, expires_at: row.expires_at, secret_hash: row.secret_hash, owned_by_workspace: row.owned_by_workspace }))
      .execute();
  }

  async find(uuid: string): Promise<ApiKey | undefined> {
    const row = await this.db.selectFrom('api_keys').selectAll().where('uuid', '=', uuid).executeTakeFirst();
    return row ? toModel(row) : undefined;
  }

  async list(filter: { workspace?: string }, page: PageRequest): Promise<Page<ApiKey>> {
    let query = this.db.selectFrom('api_keys');
    if (filter.workspace !== undefined) query = query.where('owned_by_workspace', '=', filter.workspace);
    const [rows, count] = await Promise.all([
      query.selectAll().orderBy('created_on').orderBy('uuid').limit(page.size).offset(page.page * page.size).execute(),
      query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
    ]);
    return { items: rows.map(toModel), total: Number(count.total) };
  }

  async update(key: ApiKey): Promise<void> {
    const { uuid, created_on: _created, ...rest } = toRow(key);
    await this.db.updateTable('api_keys').set(rest).where('uuid', '=', uuid).execute();
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
    const row = await this.db.selectFrom('api_keys').select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
    return Number(row.total);
  }
}
