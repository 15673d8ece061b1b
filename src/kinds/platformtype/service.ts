import { randomUUID } from 'node:crypto';
import type { RequestContext } from '../../auth/context.js';
import { badRequest, conflict } from '../../lib/errors.js';
import type { PageRequest } from '../../lib/paging.js';
import { isUniqueViolation } from '../../store/database.js';
import type { Db } from '../../store/transaction.js';
import type { EventRecorder } from '../eventlog/recorder.js';
import type { PlatformType, PlatformTypeInput } from './model.js';
import { PlatformTypeStore, type PlatformTypeFilter } from './store.js';
import { eventOf } from '../eventlog/titles.js';
import { PLATFORM_TYPE_EVENTS } from './wire/index.js';
import { PLATFORM_TYPE_TITLES } from './events.js';

/** Platform types without any notion of who asks (AuthorizedPlatformTypeService adds that). */
export class PlatformTypeService {
  private readonly store: PlatformTypeStore;

  constructor(
    db: Db,
    private readonly events: EventRecorder,
  ) {
    this.store = new PlatformTypeStore(db);
  }

  find(name: string) {
    return this.store.find(name);
  }

  findByKey(key: string) {
    return this.store.findByKey(key);
  }

  list(filter: PlatformTypeFilter, page: PageRequest) {
    return this.store.list(filter, page);
  }

  /** Only CUSTOM types are made through the API (OpenAPI); the built-in ones come with the service. */
  async create(ctx: RequestContext, input: PlatformTypeInput): Promise<PlatformType> {
    if (input.category !== 'CUSTOM') throw badRequest(`spec.category: only CUSTOM platform types can be created, got ${input.category}`);
    const type: PlatformType = {
      name: input.name,
      uuid: randomUUID(),
      category: 'CUSTOM',
      lifecycleState: input.lifecycleState ?? 'ACTIVE',
      builtIn: false,
      createdOn: new Date().toISOString(),
      document: input.document,
    };
    try {
      await this.events.change(ctx, async (trx, events) => {
        await new PlatformTypeStore(trx).insert(type);
        events.push(
          eventOf(PLATFORM_TYPE_TITLES.platformTypeCreated, {
            codec: PLATFORM_TYPE_EVENTS,
            id: type.name,
            description: `Platform type ${type.name} was created`,
            object: type,
          }),
        );
      });
    } catch (error) {
      if (isUniqueViolation(error))
        throw conflict(`meshPlatformType ${input.name} already exists (platform type names are unique regardless of case)`);
      throw error;
    }
    return type;
  }

  /** Category immutable; built-in types are read-only; `status.lifecycleState` may (de)activate. */
  async update(ctx: RequestContext, existing: PlatformType, input: PlatformTypeInput): Promise<PlatformType> {
    if (existing.builtIn) throw conflict(`meshPlatformType ${existing.name} is built in and cannot be changed`);
    if (input.category !== existing.category)
      throw badRequest(`spec.category: the category of a platform type cannot change (is ${existing.category})`);
    const type: PlatformType = { ...existing, lifecycleState: input.lifecycleState ?? existing.lifecycleState, document: input.document };
    await this.change(ctx, existing, type, PLATFORM_TYPE_TITLES.platformTypeChanged, 'changed');
    return type;
  }

  /** DELETE deactivates (OpenAPI): the type takes no new platforms, existing ones keep it. */
  async deactivate(ctx: RequestContext, existing: PlatformType): Promise<void> {
    if (existing.builtIn || existing.category !== 'CUSTOM')
      throw conflict(`meshPlatformType ${existing.name} is built in: only CUSTOM platform types can be deactivated`);
    if (existing.lifecycleState === 'DEACTIVATED') return;
    await this.change(
      ctx,
      existing,
      { ...existing, lifecycleState: 'DEACTIVATED' },
      PLATFORM_TYPE_TITLES.platformTypeDeactivated,
      'deactivated',
    );
  }

  private async change(
    ctx: RequestContext,
    existing: PlatformType,
    type: PlatformType,
    key: (typeof PLATFORM_TYPE_TITLES)['platformTypeChanged' | 'platformTypeDeactivated'],
    verb: string,
  ): Promise<void> {
    await this.events.change(ctx, async (trx, events) => {
      await new PlatformTypeStore(trx).update(type);
      events.push(
        eventOf(key, {
          codec: PLATFORM_TYPE_EVENTS,
          id: type.name,
          description: `Platform type ${type.name} was ${verb}`,
          object: type,
          previous: existing,
        }),
      );
    });
  }
}
