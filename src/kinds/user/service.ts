import { randomUUID } from 'node:crypto';
import type { RequestContext } from '../../auth/context.js';
import { conflict } from '../../lib/errors.js';
import type { PageRequest } from '../../lib/paging.js';
import { isUniqueViolation } from '../../store/database.js';
import type { Db } from '../../store/transaction.js';
import type { EventRecorder } from '../eventlog/recorder.js';
import type { ReferenceGraph } from '../references.js';
import { differs, eventOf } from '../eventlog/titles.js';
import type { User, UserInput } from './model.js';
import { UserStore, type UserFilter } from './store.js';
import { USER_EVENTS } from './wire/index.js';
import { USER_TITLES } from './events.js';

/**
 * meshUsers without any notion of who asks (AuthorizedUserService adds that). Each write is one
 * method in one transaction (create, replace, delete), so whatever records a write (events, SCIM)
 * attaches in one place.
 */
const subject = (user: User) => ({ codec: USER_EVENTS, id: user.username, object: user });

export class UserService {
  private readonly store: UserStore;

  constructor(
    db: Db,
    private readonly events: EventRecorder,
    /** Its memberships and bindings go with a user, by their kinds' code. */
    private readonly references: ReferenceGraph,
  ) {
    this.store = new UserStore(db);
  }

  find(username: string): Promise<User | undefined> {
    return this.store.find(username);
  }

  findByEuid(euid: string): Promise<User | undefined> {
    return this.store.findByEuid(euid);
  }

  /** Users by uuid and by username, in batches of 500 (SCIM names users by uuid; bounded statements). */
  async byUuids(uuids: readonly string[]): Promise<User[]> {
    const found: User[] = [];
    for (let start = 0; start < uuids.length; start += 500) found.push(...(await this.store.byUuids(uuids.slice(start, start + 500))));
    return found;
  }

  async byUsernames(usernames: readonly string[]): Promise<User[]> {
    const found: User[] = [];
    for (let start = 0; start < usernames.length; start += 500)
      found.push(...(await this.store.byUsernames(usernames.slice(start, start + 500))));
    return found;
  }

  /** The names among `usernames` that are users, in one query. */
  existing(usernames: readonly string[]): Promise<Set<string>> {
    return this.store.existing(usernames);
  }

  list(filter: UserFilter, page: PageRequest) {
    return this.store.list(filter, page);
  }

  private async euidTaken(trx: Db, input: UserInput): Promise<void> {
    if (input.euid === undefined) return;
    const holder = await new UserStore(trx).findByEuid(input.euid);
    if (holder && holder.username !== input.username)
      throw conflict(`spec.euid: "${input.euid}" already belongs to meshUser ${holder.username}`);
  }

  async create(ctx: RequestContext, input: UserInput): Promise<User> {
    const user: User = { ...input, uuid: randomUUID(), createdOn: new Date().toISOString() };
    try {
      await this.events.change(ctx, async (trx, events) => {
        const store = new UserStore(trx);
        if (await store.find(input.username)) throw conflict(`meshUser ${input.username} already exists`);
        await this.euidTaken(trx, input);
        await store.insert(user);
        events.push(eventOf(USER_TITLES.userCreated, subject(user)));
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict(`meshUser ${input.username} already exists (or its spec.euid belongs to another user)`);
      throw error;
    }
    return user;
  }

  /**
   * PUT: every field as sent (the username and uuid stay). What the input leaves out of the SCIM state
   * (`active`, SCIM's own attributes: a meshUser PUT carries neither) stays as it was.
   */
  async replace(ctx: RequestContext, existing: User, input: UserInput): Promise<User> {
    const { active = existing.active, scim = existing.scim } = input;
    const user: User = { ...input, uuid: existing.uuid, createdOn: existing.createdOn, updatedOn: new Date().toISOString() };
    if (active === false) user.active = false;
    else delete user.active;
    if (scim !== undefined) user.scim = scim;
    if (!differs({ ...existing, updatedOn: undefined }, { ...user, updatedOn: undefined })) return existing;
    try {
      await this.events.change(ctx, async (trx, events) => {
        await this.euidTaken(trx, input);
        await new UserStore(trx).update(user);
        events.push(eventOf(USER_TITLES.userChanged, { ...subject(user), previous: existing }));
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict(`spec.euid: "${input.euid ?? ''}" already belongs to another meshUser`);
      throw error;
    }
    return user;
  }

  /** The user goes with its group memberships and bindings, in one transaction. */
  async delete(ctx: RequestContext, user: User): Promise<void> {
    await this.events.change(ctx, async (trx, events) => {
      await this.references.cascade(trx, 'user', [user.username], events);
      await new UserStore(trx).delete(user.username);
      events.push(
        eventOf(USER_TITLES.userDeleted, {
          ...subject(user),
          description: `meshUser ${user.username} was deleted with its group memberships and role bindings`,
        }),
      );
    });
  }
}
