import type { Kysely } from 'kysely';
import { hashPassword, verifyPassword } from '../../auth/passwords.js';
import { digest } from '../../crypto/secret-box.js';
import { badRequest, conflict, notFound } from '../../errors.js';
import type { Tables } from '../../store/schema.js';

export interface ApiUser {
  username: string;
  createdOn: string;
}

/**
 * A username: 1–255 characters, no colon (Basic splits there) or whitespace, and not `.` or `..`: URL
 * clients resolve those path segments away (even escaped as `%2E`), so the user's self link could
 * never be reached.
 */
export const USERNAME_PATTERN = '^(?!\\.{1,2}$)[^:\\s]+$';
const USERNAME = new RegExp(USERNAME_PATTERN);
export const USERNAME_MAX_LENGTH = 255;

/** How long a verified username/password pair is trusted without running scrypt again. */
const VERIFIED_CACHE_MS = 60_000;

/**
 * API users (Basic auth, admin-equivalent, spec 5.1). Passwords are hashed with scrypt; a successful
 * verification is remembered (by a digest of the pair) for a minute so repeated requests do not pay the
 * slow hash each time. Any change to users clears that memory.
 */
export class ApiUserService {
  private readonly verified = new Map<string, number>();

  constructor(private readonly db: Kysely<Tables>) {}

  async create(username: string, password: string): Promise<ApiUser> {
    // The API's codec checks this too; the admin CLI calls here directly.
    if (username.length > USERNAME_MAX_LENGTH || !USERNAME.test(username)) {
      throw badRequest('username: 1 to 255 characters without colons or whitespace, and not "." or ".."');
    }
    const createdOn = new Date().toISOString();
    const existing = await this.db.selectFrom('api_users').select('username').where('username', '=', username).executeTakeFirst();
    if (existing) throw conflict(`API user ${username} already exists`);
    await this.db.insertInto('api_users').values({ username, password_hash: await hashPassword(password), created_on: createdOn }).execute();
    return { username, createdOn };
  }

  /** Creates the user or sets its password (bootstrap from configuration). */
  async put(username: string, password: string): Promise<void> {
    const row = await this.db.selectFrom('api_users').selectAll().where('username', '=', username).executeTakeFirst();
    if (row && (await verifyPassword(password, row.password_hash))) return;
    const passwordHash = await hashPassword(password);
    await this.db
      .insertInto('api_users')
      .values({ username, password_hash: passwordHash, created_on: new Date().toISOString() })
      .onConflict((oc) => oc.column('username').doUpdateSet({ password_hash: passwordHash }))
      .execute();
    this.verified.clear();
  }

  async list(): Promise<ApiUser[]> {
    const rows = await this.db.selectFrom('api_users').select(['username', 'created_on']).orderBy('created_on').orderBy('username').execute();
    return rows.map((row) => ({ username: row.username, createdOn: row.created_on }));
  }

  async get(username: string): Promise<ApiUser> {
    const row = await this.db.selectFrom('api_users').select(['username', 'created_on']).where('username', '=', username).executeTakeFirst();
    if (!row) throw notFound(`API user ${username} not found`);
    return { username: row.username, createdOn: row.created_on };
  }

  async delete(username: string): Promise<void> {
    const result = await this.db.deleteFrom('api_users').where('username', '=', username).executeTakeFirst();
    if (Number(result.numDeletedRows) === 0) throw notFound(`API user ${username} not found`);
    this.verified.clear();
  }

  async verify(username: string, password: string): Promise<boolean> {
    const key = digest(`${username}\u0000${password}`);
    const until = this.verified.get(key);
    if (until !== undefined && until > Date.now()) return true;
    const row = await this.db.selectFrom('api_users').select('password_hash').where('username', '=', username).executeTakeFirst();
    if (!row || !(await verifyPassword(password, row.password_hash))) return false;
    if (this.verified.size > 10_000) this.verified.clear();
    this.verified.set(key, Date.now() + VERIFIED_CACHE_MS);
    return true;
  }
}
