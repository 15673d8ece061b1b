import type { RequestContext } from '../../auth/context.js';
import { hashPassword, verifyPassword } from '../../auth/passwords.js';
import { digest } from '../../crypto/secret-box.js';
import { badRequest, conflict, notFound } from '../../lib/errors.js';
import { isUniqueViolation } from '../../store/database.js';
import type { Db } from '../../store/transaction.js';
import { passwordProblem, usernameProblem, type ApiUser } from './model.js';
import { ApiUserStore } from './store.js';

/** How long a verified username/password pair is trusted without running scrypt again. */
const VERIFIED_CACHE_MS = 60_000;

/**
 * API users (Basic auth, admin-equivalent, spec 5.1). Passwords are hashed with scrypt; a successful
 * verification is remembered (by a digest of the pair) for a minute so repeated requests do not pay the
 * slow hash each time. Any change to users clears that memory.
 */
export class ApiUserService {
  private readonly store: ApiUserStore;
  private readonly verified = new Map<string, number>();

  constructor(db: Db) {
    this.store = new ApiUserStore(db);
  }

  private static check(username: string, password: string): void {
    const nameProblem = usernameProblem(username);
    if (nameProblem) throw badRequest(`username: ${nameProblem}`);
    const problem = passwordProblem(password);
    if (problem) throw badRequest(`password: ${problem}`);
  }

  async create(_ctx: RequestContext, username: string, password: string): Promise<ApiUser> {
    ApiUserService.check(username, password);
    const user = { username, createdOn: new Date().toISOString() };
    try {
      await this.store.insert(user, await hashPassword(password));
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict(`API user ${username} already exists`);
      throw error;
    }
    return user;
  }

  /** Creates the user or sets its password (bootstrap from configuration). */
  async put(_ctx: RequestContext, username: string, password: string): Promise<void> {
    ApiUserService.check(username, password);
    const stored = await this.store.passwordHash(username);
    if (stored && (await verifyPassword(password, stored))) return;
    await this.store.upsert({ username, createdOn: new Date().toISOString() }, await hashPassword(password));
    this.verified.clear();
  }

  list(): Promise<ApiUser[]> {
    return this.store.list();
  }

  find(username: string): Promise<ApiUser | undefined> {
    return this.store.find(username);
  }

  async delete(_ctx: RequestContext, username: string): Promise<void> {
    if (!(await this.store.delete(username))) throw notFound(`API user ${username} not found`);
    this.verified.clear();
  }

  async verify(username: string, password: string): Promise<boolean> {
    const key = digest(`${username}\u0000${password}`);
    const until = this.verified.get(key);
    if (until !== undefined && until > Date.now()) return true;
    const stored = await this.store.passwordHash(username);
    if (!stored || !(await verifyPassword(password, stored))) return false;
    if (this.verified.size > 10_000) this.verified.clear();
    this.verified.set(key, Date.now() + VERIFIED_CACHE_MS);
    return true;
  }
}
