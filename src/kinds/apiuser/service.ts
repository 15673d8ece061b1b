import type { RequestContext } from '../../auth/context.js';
import { hashPassword, PASSWORD_COST, verifyNoPassword, verifyPassword, type ScryptCost } from '../../auth/passwords.js';
import { digest } from '../../crypto/secret-box.js';
import { badRequest, conflict, notFound } from '../../lib/errors.js';
import { isUniqueViolation } from '../../store/database.js';
import type { Db } from '../../store/transaction.js';
import { normalizeUsername, passwordProblem, usernameProblem, type ApiUser } from './model.js';
import { ApiUserStore } from './store.js';
import type { EventRecorder } from '../eventlog/recorder.js';
import { eventOf } from '../eventlog/titles.js';
import { API_USER_EVENTS } from './wire/index.js';
import { API_USER_TITLES } from './events.js';

const subject = (user: ApiUser) => ({ codec: API_USER_EVENTS, id: user.username, object: user });

/**
 * How long a user looked up for authentication is trusted before it is read again: a user deleted, or
 * whose password changed, on another instance stops working here within this time.
 */
const USER_CHECK_MS = 5_000;

/**
 * How a guess is admitted to the slow hash (the failed-attempt limits): `begin`
 * refuses (429), or starts an attempt that counts as failed until it succeeds; `address` waits its
 * turn when the hashing threads are busy.
 */
export interface HashingAdmission {
  address: string;
  begin(): { succeeded(): void };
}

const UNLIMITED: HashingAdmission = { address: '', begin: () => ({ succeeded: () => undefined }) };

interface Remembered {
  passwordHash: string;
  checkedAt: number;
}

/**
 * API users (Basic auth, admin-equivalent, spec 5.1). Passwords are hashed with scrypt; a successful
 * verification is remembered (by a digest of the pair) with the stored hash it matched, so repeated
 * requests do not pay the slow hash each time. The stored hash is read again (a cheap lookup, no
 * scrypt unless it changed) at most every USER_CHECK_MS, so a deletion or a new password on another
 * instance takes effect within that time; any change here clears that memory at once.
 */
export class ApiUserService {
  private readonly store: ApiUserStore;
  /** By digest of username and password: the stored hash the pair matched, and when that was last read. */
  private readonly verified = new Map<string, Remembered>();
  /** Checks under way, by the same digest: a burst of identical requests waits for one hash. */
  private readonly checking = new Map<string, Promise<boolean>>();
  /** Users looked up for run tokens they claimed runs with: whether they exist, until when that is trusted. */
  private readonly existing = new Map<string, { exists: boolean; until: number }>();
  /** Counts local changes of users: a lookup that read meanwhile does not cache what it read. */
  private generation = 0;

  constructor(
    db: Db,
    private readonly events: EventRecorder,
    /** What new hashes and unknown usernames cost: PASSWORD_COST but in test servers. */
    private readonly cost: ScryptCost = PASSWORD_COST,
  ) {
    this.store = new ApiUserStore(db);
  }

  /** The normalised username, once the username and password rules hold (else 400 naming the field). */
  private static check(rawUsername: string, password: string): string {
    const username = normalizeUsername(rawUsername);
    const nameProblem = usernameProblem(username);
    if (nameProblem) throw badRequest(`username: ${nameProblem}`);
    const problem = passwordProblem(password);
    if (problem) throw badRequest(`password: ${problem}`);
    return username;
  }

  async create(ctx: RequestContext, rawUsername: string, password: string): Promise<ApiUser> {
    const username = ApiUserService.check(rawUsername, password);
    const user = { username, createdOn: new Date().toISOString() };
    const passwordHash = await hashPassword(password, this.cost);
    try {
      await this.events.change(ctx, async (trx, events) => {
        await new ApiUserStore(trx).insert(user, passwordHash);
        events.push(eventOf(API_USER_TITLES.apiUserCreated, subject(user)));
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict(`API user ${username} already exists`);
      throw error;
    }
    return user;
  }

  /** Creates the user or sets its password (bootstrap from configuration). */
  async put(ctx: RequestContext, rawUsername: string, password: string): Promise<void> {
    const username = ApiUserService.check(rawUsername, password);
    const stored = await this.store.passwordHash(username);
    if (stored && (await verifyPassword(password, stored))) return;
    const passwordHash = await hashPassword(password, this.cost);
    await this.events.change(ctx, async (trx, events) => {
      const store = new ApiUserStore(trx);
      const existing = await store.find(username);
      const user = existing ?? { username, createdOn: new Date().toISOString() };
      await store.upsert(user, passwordHash);
      events.push(
        eventOf(existing ? API_USER_TITLES.apiUserPasswordRotated : API_USER_TITLES.apiUserCreated, {
          ...subject(user),
          ...(existing ? { previous: existing } : {}),
        }),
      );
    });
    this.forgetAll();
  }

  list(): Promise<ApiUser[]> {
    return this.store.list();
  }

  find(username: string): Promise<ApiUser | undefined> {
    return this.store.find(normalizeUsername(username));
  }

  async delete(ctx: RequestContext, username: string): Promise<void> {
    const name = normalizeUsername(username);
    const deleted = await this.events.change(ctx, async (trx, events) => {
      const store = new ApiUserStore(trx);
      const user = await store.find(name);
      if (!user || !(await store.delete(name))) return false;
      events.push(eventOf(API_USER_TITLES.apiUserDeleted, subject(user)));
      return true;
    });
    if (!deleted) throw notFound(`API user ${username} not found`);
    this.forgetAll();
  }

  private forgetAll(): void {
    this.generation++;
    this.verified.clear();
    this.existing.clear();
  }

  /**
   * Whether the password is the user's. A recently verified pair answers at once; otherwise the slow
   * hash runs only as an attempt `admission` admits, and an unknown username costs a hash as well,
   * so timing does not tell which usernames exist.
   */
  async verify(rawUsername: string, password: string, admission: HashingAdmission = UNLIMITED): Promise<boolean> {
    const username = normalizeUsername(rawUsername);
    const key = digest(`${username}\u0000${password}`);
    const remembered = this.verified.get(key);
    if (remembered && Date.now() - remembered.checkedAt < USER_CHECK_MS) return true;
    const pending = this.checking.get(key);
    if (pending) return pending;
    const check = this.checkPassword(username, password, key, remembered, admission).finally(() => this.checking.delete(key));
    this.checking.set(key, check);
    return check;
  }

  private async checkPassword(
    username: string,
    password: string,
    key: string,
    remembered: Remembered | undefined,
    admission: HashingAdmission,
  ): Promise<boolean> {
    const now = Date.now();
    const generation = this.generation;
    const stored = await this.store.passwordHash(username);
    if (remembered && stored === remembered.passwordHash) {
      if (generation === this.generation) remembered.checkedAt = now;
      return true;
    }
    this.verified.delete(key);
    const attempt = admission.begin();
    let valid: boolean;
    try {
      valid = stored
        ? await verifyPassword(password, stored, admission.address)
        : await verifyNoPassword(password, admission.address, this.cost);
    } catch (error) {
      attempt.succeeded(); // not the guess's fault (a full hashing queue): not counted as a failure
      throw error;
    }
    if (!valid || !stored) return false;
    attempt.succeeded();
    if (this.verified.size > 10_000) this.verified.clear();
    if (generation === this.generation) this.verified.set(key, { passwordHash: stored, checkedAt: now });
    return true;
  }

  /** Whether the user exists (for the run tokens of runs it claimed): read again at most every USER_CHECK_MS, at once after a change here. */
  async exists(username: string): Promise<boolean> {
    const now = Date.now();
    const cached = this.existing.get(username);
    if (cached && cached.until > now) return cached.exists;
    const generation = this.generation;
    const exists = (await this.store.passwordHash(username)) !== undefined;
    if (this.existing.size > 10_000) this.existing.clear();
    if (generation === this.generation) this.existing.set(username, { exists, until: now + USER_CHECK_MS });
    return exists;
  }
}
