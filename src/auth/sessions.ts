import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Tables } from '../store/schema.js';
import type { Db } from '../store/transaction.js';

/**
 * The session cookie: `__Host-` makes the browser keep it to this origin (Secure, Path=/, no Domain),
 * HttpOnly keeps it from scripts, SameSite=Lax from other sites' subrequests and form posts.
 */
export const SESSION_COOKIE = '__Host-blockyard-session';

/** A person's sign-in session as the service reads it. */
export interface Session {
  username: string;
  /** The workspace the session acts in; undefined: none yet (the person holds no binding). */
  workspace: string | undefined;
}

/** `sessions` (migration 0026). */
interface SessionTable {
  id_hash: string;
  username: string;
  workspace: string | null;
  created_at: string;
  last_seen_at: string;
  expires_at: string;
}

const hashOf = (id: string) => createHash('sha256').update(id).digest('hex');
/** What a cookie can carry as an id: the 43 base64url characters of 32 random bytes. */
const SESSION_ID = /^[A-Za-z0-9_-]{43}$/;
/** A session's last-seen time is written at most this often: not one write per request. */
const TOUCH_INTERVAL_MS = 60_000;

/** The SQL of the sessions: a session counts only while its meshUser exists and is active. */
class SessionRows {
  private readonly db: Kysely<Tables & { sessions: SessionTable }>;

  constructor(db: Db) {
    this.db = db as unknown as Kysely<Tables & { sessions: SessionTable }>;
  }

  insert(row: SessionTable) {
    return this.db.insertInto('sessions').values(row).execute();
  }

  find(idHash: string) {
    return this.db
      .selectFrom('sessions')
      .innerJoin('users', 'users.username', 'sessions.username')
      .where('sessions.id_hash', '=', idHash)
      .where('users.active', '=', 1)
      .select(['sessions.username', 'sessions.workspace', 'sessions.last_seen_at', 'sessions.expires_at'])
      .executeTakeFirst();
  }

  touch(idHash: string, at: string) {
    return this.db.updateTable('sessions').set({ last_seen_at: at }).where('id_hash', '=', idHash).execute();
  }

  setWorkspace(idHash: string, workspace: string) {
    return this.db.updateTable('sessions').set({ workspace }).where('id_hash', '=', idHash).execute();
  }

  delete(idHash: string) {
    return this.db.deleteFrom('sessions').where('id_hash', '=', idHash).execute();
  }

  /** Sessions past their maximum, or idle since before `idleSince`. */
  deleteEnded(now: string, idleSince: string) {
    return this.db
      .deleteFrom('sessions')
      .where((eb) => eb.or([eb('expires_at', '<=', now), eb('last_seen_at', '<=', idleSince)]))
      .execute();
  }
}

/**
 * People's sign-in sessions (single sign-on, docs/sso.md), kept in the database so they survive
 * restarts and every instance knows them. The cookie carries a random id; only its SHA-256 is stored,
 * so the table read by someone else opens no session. A session ends after `idleSeconds` without a
 * request (each request moves that on: sliding), after `maxSeconds` since sign-in whatever happens,
 * at sign-out, and as soon as its meshUser is deleted or deactivated.
 */
export class Sessions {
  private readonly rows: SessionRows;

  constructor(
    db: Db,
    readonly lifetimes: { idleSeconds: number; maxSeconds: number },
  ) {
    this.rows = new SessionRows(db);
  }

  /** A new session for `username`; returns the id for the cookie. Ended sessions go meanwhile. */
  async create(username: string, workspace: string | undefined): Promise<string> {
    const now = Date.now();
    await this.rows.deleteEnded(new Date(now).toISOString(), new Date(now - this.lifetimes.idleSeconds * 1000).toISOString());
    const id = randomBytes(32).toString('base64url');
    const at = new Date(now).toISOString();
    await this.rows.insert({
      id_hash: hashOf(id),
      username,
      workspace: workspace ?? null,
      created_at: at,
      last_seen_at: at,
      expires_at: new Date(now + this.lifetimes.maxSeconds * 1000).toISOString(),
    });
    return id;
  }

  /** The live session of this id (its idle time starts again), or undefined. */
  async find(id: string): Promise<Session | undefined> {
    if (!SESSION_ID.test(id)) return undefined;
    const idHash = hashOf(id);
    const row = await this.rows.find(idHash);
    if (!row) return undefined;
    const now = Date.now();
    const lastSeen = Date.parse(row.last_seen_at);
    if (Date.parse(row.expires_at) <= now || lastSeen + this.lifetimes.idleSeconds * 1000 <= now) {
      await this.rows.delete(idHash);
      return undefined;
    }
    if (now - lastSeen >= Math.min(TOUCH_INTERVAL_MS, (this.lifetimes.idleSeconds * 1000) / 10))
      await this.rows.touch(idHash, new Date(now).toISOString());
    return { username: row.username, workspace: row.workspace ?? undefined };
  }

  async setWorkspace(id: string, workspace: string): Promise<void> {
    await this.rows.setWorkspace(hashOf(id), workspace);
  }

  async end(id: string): Promise<void> {
    await this.rows.delete(hashOf(id));
  }

  /** The `Set-Cookie` value of a new session (kept by the browser until the session's maximum). */
  cookie(id: string): string {
    return `${SESSION_COOKIE}=${id}; Path=/; Max-Age=${this.lifetimes.maxSeconds}; HttpOnly; Secure; SameSite=Lax`;
  }
}

/** The `Set-Cookie` value that makes the browser forget a cookie of ours. */
export const clearedCookie = (name: string) => `${name}=; Path=/; Max-Age=0; HttpOnly; Secure; SameSite=Lax`;

/** A cookie's value from a `Cookie` header, or undefined. */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  if (header === undefined) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq !== -1 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}
