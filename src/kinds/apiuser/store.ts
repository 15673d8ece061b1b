import type { Db } from '../../store/transaction.js';
import type { ApiUser } from './model.js';

/** The `api_users` table. */
export class ApiUserStore {
  constructor(private readonly db: Db) {}

  async insert(user: ApiUser, passwordHash: string): Promise<void> {
    await this.db
      .insertInto('api_users')
      .values({ username: user.username, password_hash: passwordHash, created_on: user.createdOn })
      .execute();
  }

  /** Creates the user or sets its password. */
  async upsert(user: ApiUser, passwordHash: string): Promise<void> {
    await this.db
      .insertInto('api_users')
      .values({ username: user.username, password_hash: passwordHash, created_on: user.createdOn })
      .onConflict((oc) => oc.column('username').doUpdateSet({ password_hash: passwordHash }))
      .execute();
  }

  async find(username: string): Promise<ApiUser | undefined> {
    const row = await this.db
      .selectFrom('api_users')
      .select(['username', 'created_on'])
      .where('username', '=', username)
      .executeTakeFirst();
    return row ? { username: row.username, createdOn: row.created_on } : undefined;
  }

  async passwordHash(username: string): Promise<string | undefined> {
    return (await this.db.selectFrom('api_users').select('password_hash').where('username', '=', username).executeTakeFirst())
      ?.password_hash;
  }

  async list(): Promise<ApiUser[]> {
    const rows = await this.db
      .selectFrom('api_users')
      .select(['username', 'created_on'])
      .orderBy('created_on')
      .orderBy('username')
      .execute();
    return rows.map((row) => ({ username: row.username, createdOn: row.created_on }));
  }

  async delete(username: string): Promise<boolean> {
    const result = await this.db.deleteFrom('api_users').where('username', '=', username).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}
