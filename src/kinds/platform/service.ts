import { randomUUID } from 'node:crypto';
import type { RequestContext } from '../../auth/context.js';
import type { SecretBox } from '../../crypto/secret-box.js';
import { isSealedSecret, sealSecrets, sealSensitive } from '../../crypto/secret-values.js';
import { badRequest, conflict, unprocessable } from '../../lib/errors.js';
import type { PageRequest } from '../../lib/paging.js';
import { canonicalUuid } from '../../lib/validation.js';
import { isForeignKeyViolation, isUniqueViolation } from '../../store/database.js';
import type { Db } from '../../store/transaction.js';
import type { EventRecorder } from '../eventlog/recorder.js';
import { differs, eventOf, type EventTitle } from '../eventlog/titles.js';
import type { ReferenceGraph } from '../references.js';
import type { WorkspaceService } from '../workspace/service.js';
import { CONFIG_SECRET_MASKS, CONFIG_SECRET_PATHS, configFromV1Form } from './config.js';
import { fullPlatformIdentifier, type Platform, type PlatformInput } from './model.js';
import { PlatformStore, type PlatformFilter } from './store.js';
import { PLATFORM_EVENTS } from './wire/index.js';
import { PLATFORM_TITLES } from './events.js';

/**
 * Each secret of the config's type that is a string (v1's form) replaced by what `replace` makes of it
 * (`path`: the field, for messages).
 */
function replaceSecretStrings(
  config: Record<string, unknown>,
  replace: (text: string, path: readonly string[]) => unknown,
): Record<string, unknown> {
  const type = String(config.type).toLowerCase();
  const paths = CONFIG_SECRET_PATHS[type];
  if (!paths || !isObject(config[type])) return config;
  const own = structuredClone(config[type]) as Record<string, unknown>;
  for (const path of paths) {
    const parent = valueAt(own, path.slice(0, -1));
    const key = path.at(-1)!;
    if (isObject(parent) && typeof parent[key] === 'string') parent[key] = replace(parent[key], [type, ...path]);
  }
  return { ...config, [type]: own };
}

const valueAt = (root: unknown, path: readonly string[]) =>
  path.reduce<unknown>((node, key) => (isObject(node) ? node[key] : undefined), root);

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

const subject = (platform: Platform) => ({
  codec: PLATFORM_EVENTS,
  id: fullPlatformIdentifier(platform),
  workspace: platform.ownedByWorkspace,
  object: platform,
});

/** Platforms without any notion of who asks (AuthorizedPlatformService adds that). */
export class PlatformService {
  private readonly store: PlatformStore;

  constructor(
    private readonly db: Db,
    private readonly workspaces: WorkspaceService,
    /** The locations: a platform's must exist (422 naming the field). */
    private readonly locations: { requireExists(name: string, field: string): Promise<void> },
    private readonly secrets: SecretBox,
    private readonly events: EventRecorder,
    private readonly references: ReferenceGraph,
  ) {
    this.store = new PlatformStore(db);
  }

  /**
   * Secrets in `config` are sealed, whatever their JSON type (v1 sends strings); `{hash}` or v1's mask
   * keeps the one stored at the same place. With none stored, the mask is the value (the OpenAPI's v1
   * examples create platforms with `*****` as their secrets).
   */
  private sealed(input: PlatformInput, previous?: Platform): PlatformInput {
    const config = input.document.spec.config as Record<string, unknown> | undefined;
    if (config === undefined) return input;
    const before = previous?.document.spec.config;
    const objects = replaceSecretStrings(config, (text, path) => {
      const stored = valueAt(before, path);
      return CONFIG_SECRET_MASKS.includes(text) && isSealedSecret(stored) ? { hash: stored.hash } : { plaintext: text };
    });
    const spec = { ...input.document.spec, config: sealSecrets(objects, before, this.secrets, 'spec.config') };
    return { ...input, document: { ...input.document, spec } };
  }

  /**
   * A platform as the current version stores it. Platforms written through v1 before its config was
   * converted hold v1's shapes and their secrets as strings: those read in the stored form, sealed.
   */
  private current(platform: Platform): Platform {
    const config = platform.document.spec.config as Record<string, unknown> | undefined;
    if (config === undefined) return platform;
    const converted = configFromV1Form(config);
    const sealed = replaceSecretStrings(converted, (text, path) =>
      sealSensitive(text, undefined, this.secrets, `spec.config.${path.join('.')}`),
    );
    if (JSON.stringify(sealed) === JSON.stringify(config)) return platform;
    return { ...platform, document: { ...platform.document, spec: { ...platform.document.spec, config: sealed } } };
  }

  async create(ctx: RequestContext, input: PlatformInput): Promise<Platform> {
    await this.workspaces.requireExists(input.ownedByWorkspace, 'metadata.ownedByWorkspace');
    await this.locations.requireExists(input.location, 'spec.locationRef');
    const platform: Platform = { ...this.sealed(input), uuid: randomUUID(), createdOn: new Date().toISOString() };
    try {
      await this.events.change(ctx, async (trx, events) => {
        await new PlatformStore(trx).insert(platform);
        events.push(eventOf(PLATFORM_TITLES.platformCreated, subject(platform)));
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict(`meshPlatform ${fullPlatformIdentifier(input)} already exists`);
      if (isForeignKeyViolation(error))
        throw unprocessable(
          `metadata.ownedByWorkspace or spec.locationRef: the workspace or location of meshPlatform ${fullPlatformIdentifier(input)} does not exist`,
        );
      throw error;
    }
    return platform;
  }

  async find(uuid: string): Promise<Platform | undefined> {
    const id = canonicalUuid(uuid);
    const platform = id ? await this.store.find(id) : undefined;
    return platform && this.current(platform);
  }

  async findByIdentifier(name: string, location: string): Promise<Platform | undefined> {
    const platform = await this.store.findByIdentifier(name, location);
    return platform && this.current(platform);
  }

  async list(filter: PlatformFilter, page: PageRequest) {
    const { items, total } = await this.store.list(filter, page);
    return { items: items.map((platform) => this.current(platform)), total };
  }

  async update(ctx: RequestContext, existing: Platform, input: PlatformInput): Promise<Platform> {
    if (input.name !== existing.name) throw badRequest(`metadata.name: a platform's name cannot change (is "${existing.name}")`);
    if (input.location !== existing.location)
      throw badRequest(`spec.locationRef: a platform's location cannot change (is "${existing.location}")`);
    if (input.ownedByWorkspace !== existing.ownedByWorkspace)
      await this.workspaces.requireExists(input.ownedByWorkspace, 'metadata.ownedByWorkspace');
    const platform: Platform = { ...this.sealed(input, existing), uuid: existing.uuid, createdOn: existing.createdOn };
    const keys: EventTitle[] = [];
    if (differs(existing.displayName, platform.displayName)) keys.push(PLATFORM_TITLES.platformNameChanged);
    if (differs(existing.document.spec.config, platform.document.spec.config)) keys.push(PLATFORM_TITLES.platformConfigurationChanged);
    if (keys.length === 0 && differs(existing, platform)) keys.push(PLATFORM_TITLES.platformSettingsChanged);
    if (keys.length === 0) return platform;
    await this.events.change(ctx, async (trx, events) => {
      await new PlatformStore(trx).update(platform);
      for (const key of keys) events.push(eventOf(key, { ...subject(platform), previous: existing }));
    });
    return platform;
  }

  /** 409 while live tenants stand on it; the records of its deleted tenants go with it, in one transaction. */
  async delete(ctx: RequestContext, platform: Platform): Promise<void> {
    const dependents = await this.references.holding(this.db, 'platform', [platform.uuid]);
    if (dependents.length > 0)
      throw conflict(`meshPlatform ${fullPlatformIdentifier(platform)} still has ${dependents.join(', ')}; delete them first`);
    try {
      await this.events.change(ctx, async (trx, events) => {
        await this.references.cascade(trx, 'platform', [platform.uuid], events);
        await new PlatformStore(trx).delete(platform.uuid);
        events.push(eventOf(PLATFORM_TITLES.platformDeleted, subject(platform)));
      });
    } catch (error) {
      if (isForeignKeyViolation(error))
        throw conflict(`meshPlatform ${fullPlatformIdentifier(platform)} still has tenants; delete them first`);
      throw error;
    }
  }
}
