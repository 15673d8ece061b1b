import { randomBytes, randomUUID } from 'node:crypto';
import type { RequestContext } from '../../auth/context.js';
import type { SecretBox } from '../../crypto/secret-box.js';
import { badRequest } from '../../lib/errors.js';
import type { PageRequest } from '../../lib/paging.js';
import { isDate, isDateTime } from '../../lib/validation.js';
import { PERMISSION_CODES } from '../../auth/permissions.js';
import { isExpired, type ApiKey, type ApiKeyInput } from './model.js';
import type { Db } from '../../store/transaction.js';
import { ApiKeyStore } from './store.js';
import type { EventRecorder } from '../eventlog/recorder.js';
import { differs, eventOf } from '../eventlog/titles.js';

import type { EventDraft } from '../eventlog/model.js';
import type { WorkspaceService } from '../workspace/service.js';
import { API_KEY_EVENTS } from './wire/index.js';
import { API_KEY_TITLES } from './events.js';

const subject = (key: ApiKey) => ({ codec: API_KEY_EVENTS, id: key.uuid, workspace: key.ownedByWorkspace, object: key });

/** A deleted workspace's keys go with it, each with its event (content: the key as it was, its secret only as a hash). */
export async function deleteKeysOfWorkspace(trx: Db, [workspace]: readonly string[], events: EventDraft[]): Promise<void> {
  const keys = new ApiKeyStore(trx);
  const { items } = await keys.list({ workspace: workspace! }, { page: 0, size: 100_000 });
  await keys.deleteOfWorkspace(workspace!);
  for (const key of items) events.push(eventOf(API_KEY_TITLES.apiKeyDeleted, subject(key)));
}

/** Client secrets: 40 characters of [A-Za-z0-9] (the GitHub auth action does not URL-encode). */
export function generateClientSecret(): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  const bytes = randomBytes(64);
  let secret = '';
  for (const byte of bytes) {
    if (byte < 248) secret += alphabet[byte % 62]; // 248 = 4 × 62: no modulo bias
    if (secret.length === 40) break;
  }
  return secret.length === 40 ? secret : generateClientSecret();
}

/** How long a key looked up for authentication is trusted before it is read again (other instances' changes). */
const ACTIVE_KEY_CACHE_MS = 5_000;

/**
 * API keys without any notion of who asks (see AuthorizedApiKeyService for that). Secrets are random,
 * returned once, and stored as keyed hashes.
 */
export class ApiKeyService {
  private readonly active = new Map<string, { key: ApiKey | undefined; until: number }>();
  /** Counts local changes of keys (see forget). */
  private generation = 0;

  private readonly store: ApiKeyStore;

  constructor(
    db: Db,
    private readonly secrets: SecretBox,
    private readonly workspaces: WorkspaceService,
    private readonly events: EventRecorder,
  ) {
    this.store = new ApiKeyStore(db);
  }

  /** 400 for what no caller may send: unknown codes, an unreadable expiry (asked before any permission check, so an unknown code is never a 403). */
  validate(input: ApiKeyInput): void {
    const unknown = input.permissions.find((code) => !PERMISSION_CODES.has(code));
    if (unknown !== undefined) throw badRequest(`spec.permissions: unknown permission "${unknown}"`);
    // The wire codec checks this too; callers without it (the admin CLI) must not store an expiry nobody can compute.
    if (input.expiresAt !== undefined && !isDate(input.expiresAt) && !isDateTime(input.expiresAt)) {
      throw badRequest('spec.expiresAt: must be a calendar date (YYYY-MM-DD) or an RFC 3339 date-time (YYYY-MM-DDThh:mm:ssZ)');
    }
  }

  async create(
    ctx: RequestContext,
    input: ApiKeyInput,
    clientId: string = randomUUID(),
    secret: string = generateClientSecret(),
  ): Promise<{ key: ApiKey; secret: string }> {
    this.validate(input);
    await this.workspaces.requireExists(input.ownedByWorkspace, 'metadata.ownedByWorkspace');
    const key: ApiKey = {
      uuid: clientId,
      ...input,
      permissions: [...new Set(input.permissions)],
      secretHash: this.secrets.hash(secret),
      createdOn: new Date().toISOString(),
      revision: 0,
    };
    await this.events.change(ctx, async (trx, events) => {
      await new ApiKeyStore(trx).insert(key);
      events.push(eventOf(API_KEY_TITLES.apiKeyCreated, subject(key)));
    });
    return { key, secret };
  }

  /** Creates or replaces a key with a given id and secret (bootstrap from configuration). */
  async put(ctx: RequestContext, clientId: string, input: ApiKeyInput, secret: string): Promise<ApiKey> {
    const existing = await this.store.find(clientId);
    const key: ApiKey = {
      uuid: clientId,
      ...input,
      secretHash: this.secrets.hash(secret),
      createdOn: existing?.createdOn ?? new Date().toISOString(),
      revision: existing?.revision ?? 0,
    };
    if (existing && !differs(existing, key)) return existing;
    await this.events.change(ctx, async (trx, events) => {
      await new ApiKeyStore(trx).upsert(key);
      if (!existing) events.push(eventOf(API_KEY_TITLES.apiKeyCreated, subject(key)));
      else
        events.push(
          eventOf(existing.secretHash !== key.secretHash ? API_KEY_TITLES.apiKeySecretRotated : API_KEY_TITLES.apiKeyChanged, {
            ...subject(key),
            previous: existing,
          }),
        );
    });
    this.forget(clientId);
    return key;
  }

  find(uuid: string): Promise<ApiKey | undefined> {
    return this.store.find(uuid);
  }

  list(filter: { workspace?: string }, page: PageRequest) {
    return this.store.list(filter, page);
  }

  /** A changed `expiresAt` rotates the secret (COMPAT §5): the new one is returned once. */
  async update(ctx: RequestContext, existing: ApiKey, input: ApiKeyInput): Promise<{ key: ApiKey; secret?: string }> {
    this.validate(input);
    if (input.ownedByWorkspace !== existing.ownedByWorkspace)
      throw badRequest('metadata.ownedByWorkspace: a key cannot move to another workspace');
    const rotate = input.expiresAt !== existing.expiresAt;
    const secret = rotate ? generateClientSecret() : undefined;
    const key: ApiKey = {
      ...existing,
      ...input,
      permissions: [...new Set(input.permissions)],
      secretHash: secret ? this.secrets.hash(secret) : existing.secretHash,
    };
    if (input.expiresAt === undefined) delete key.expiresAt;
    if (!rotate && !differs(existing, key)) return { key };
    await this.events.change(ctx, async (trx, events) => {
      key.revision = await new ApiKeyStore(trx).update(key, rotate);
      events.push(
        eventOf(rotate ? API_KEY_TITLES.apiKeySecretRotated : API_KEY_TITLES.apiKeyChanged, { ...subject(key), previous: existing }),
      );
    });
    this.forget(key.uuid);
    return secret ? { key, secret } : { key };
  }

  /** A new secret; tokens obtained with the old one stop working (the key's revision goes up). */
  async rotateSecret(ctx: RequestContext, existing: ApiKey): Promise<{ key: ApiKey; secret: string }> {
    const secret = generateClientSecret();
    const key = { ...existing, secretHash: this.secrets.hash(secret) };
    await this.events.change(ctx, async (trx, events) => {
      key.revision = await new ApiKeyStore(trx).update(key, true);
      events.push(eventOf(API_KEY_TITLES.apiKeySecretRotated, { ...subject(key), previous: existing }));
    });
    this.forget(key.uuid);
    return { key, secret };
  }

  /** Drops cached keys of a deleted workspace, so their tokens stop working at once. */
  forgetWorkspace(workspace: string): void {
    this.generation++;
    for (const [clientId, cached] of this.active) if (cached.key?.ownedByWorkspace === workspace) this.active.delete(clientId);
  }

  async delete(ctx: RequestContext, uuid: string): Promise<void> {
    await this.events.change(ctx, async (trx, events) => {
      const store = new ApiKeyStore(trx);
      const key = await store.find(uuid);
      if (key && (await store.delete(uuid))) events.push(eventOf(API_KEY_TITLES.apiKeyDeleted, subject(key)));
    });
    this.forget(uuid);
  }

  /**
   * A key changed here: its next use reads it again, so the change (a rotation, fewer permissions,
   * deletion) takes effect at once on this instance. A lookup that was reading meanwhile may have read
   * the key as it was: the generation tells it not to cache that.
   */
  private forget(uuid: string): void {
    this.generation++;
    this.active.delete(uuid);
  }

  /** The key for a login, or undefined for an unknown id, a wrong secret or an expired key. */
  async verifyCredentials(clientId: string, secret: string): Promise<ApiKey | undefined> {
    const key = await this.store.find(clientId);
    if (!key || !this.secrets.matches(secret, key.secretHash) || isExpired(key)) return undefined;
    return key;
  }

  /**
   * The current state of a key for authenticating a token: cached briefly (ACTIVE_KEY_CACHE_MS), so
   * verification costs no database round trip per request, while deletion, expiry, rotation and
   * permission changes made on other instances take effect within that time (at once on this one).
   */
  async findActive(clientId: string): Promise<ApiKey | undefined> {
    const cached = this.active.get(clientId);
    const now = Date.now();
    let key: ApiKey | undefined;
    if (cached && cached.until > now) key = cached.key;
    else {
      const generation = this.generation;
      key = await this.store.find(clientId);
      if (this.active.size > 10_000) this.active.clear();
      if (generation === this.generation) this.active.set(clientId, { key, until: now + ACTIVE_KEY_CACHE_MS });
    }
    return key && !isExpired(key, now) ? key : undefined;
  }

  count(): Promise<number> {
    return this.store.count();
  }
}
