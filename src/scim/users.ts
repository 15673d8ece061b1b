import type { RequestContext } from '../auth/context.js';
import { MAX_STRING } from '../lib/limits.js';
import type { PageRequest } from '../lib/paging.js';
import type { AuthorizedUserService } from '../kinds/user/authorized-service.js';
import type { User, UserInput } from '../kinds/user/model.js';
import type { UserFilter } from '../kinds/user/store.js';
import { checkedUsername } from '../kinds/user/wire/v2.js';
import { sentObject } from '../kinds/document.js';
import { canonicalKeys, ENTERPRISE_SCHEMA, isPlainObject, parseFilter, USER_SCHEMA, type ScimObject } from './attributes.js';
import { invalidFilter, invalidValue, mutability, scimNotFound } from './errors.js';
import { window } from './paged.js';
import { applyPatch } from './patch.js';
import { listResponse, paging, project, resourceBody, withMeta } from './resource.js';

const EMAIL = /^[^@\s]+@[^@\s]+$/;
/**
 * Attributes the server owns or maps to meshUser columns, never kept among the SCIM attributes: a
 * password is never stored, and `groups` is read-only (membership is the Groups').
 */
const NOT_KEPT = ['id', 'meta', 'schemas', 'externalId', 'active', 'password', 'groups'];

/** `true`/`false`, and Entra ID's strings `"True"`/`"False"`. */
export function scimBoolean(value: unknown, field: string): boolean | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string' && /^(true|false)$/i.test(value)) return value.toLowerCase() === 'true';
  throw invalidValue(`${field}: true or false is required, got ${JSON.stringify(value)}`);
}

function text(value: unknown, field: string): string {
  if (value === undefined || value === null) return '';
  if (typeof value !== 'string') throw invalidValue(`${field}: a string is required`);
  if (value.length > MAX_STRING) throw invalidValue(`${field}: at most ${MAX_STRING} characters`);
  return value;
}

/** Which of the SCIM e-mails is the meshUser's: the primary, else the work one, else the first. */
function chosenEmail(emails: unknown[]): number {
  const primary = emails.findIndex((email) => isPlainObject(email) && scimBoolean(email.primary, 'emails.primary') === true);
  if (primary >= 0) return primary;
  const work = emails.findIndex((email) => isPlainObject(email) && typeof email.type === 'string' && email.type.toLowerCase() === 'work');
  return work >= 0 ? work : 0;
}

/**
 * SCIM Users (RFC 7643 §4.1) as meshUsers, through the authorized user service (so every write is the
 * user service's, where events attach): `id` is the meshUser's uuid, `userName` its username (taken in
 * lower case: SCIM user names are case-insensitive, usernames lower-case), `externalId` its `euid`,
 * `name.givenName`/`familyName` its first and last name, the primary (else work, else first) e-mail its
 * `email` (else the userName when it is an address). `active=false` keeps the user, flagged, with its
 * memberships and bindings. Every other attribute the client sends is kept and returned as sent.
 */
export class ScimUsers {
  constructor(
    private readonly users: AuthorizedUserService,
    private readonly baseUrl: () => string,
  ) {}

  location(user: User): string {
    return `${this.baseUrl()}/scim/v2/Users/${encodeURIComponent(user.uuid)}`;
  }

  /** The SCIM representation, with `meta`. */
  toScim(user: User): ScimObject {
    const { [ENTERPRISE_SCHEMA]: enterprise, ...extra } = user.scim ?? {};
    const emails =
      Array.isArray(extra.emails) && extra.emails.length > 0
        ? structuredClone(extra.emails)
        : [{ value: user.email, type: 'work', primary: true }];
    const chosen = emails[chosenEmail(emails)];
    if (isPlainObject(chosen)) chosen.value = user.email;
    const userName = typeof extra.userName === 'string' && extra.userName.toLowerCase() === user.username ? extra.userName : user.username;
    const name: ScimObject = { ...(isPlainObject(extra.name) ? extra.name : {}) };
    if (user.firstName !== '') name.givenName = user.firstName;
    else delete name.givenName;
    if (user.lastName !== '') name.familyName = user.lastName;
    else delete name.familyName;
    const resource: ScimObject = {
      schemas: [USER_SCHEMA, ...(isPlainObject(enterprise) ? [ENTERPRISE_SCHEMA] : [])],
      id: user.uuid,
      ...(user.euid !== undefined ? { externalId: user.euid } : {}),
      ...extra,
      userName,
      name,
      emails,
      active: user.active !== false,
      ...(isPlainObject(enterprise) ? { [ENTERPRISE_SCHEMA]: enterprise } : {}),
    };
    return withMeta(resource, {
      resourceType: 'User',
      created: user.createdOn,
      ...(user.updatedOn ? { lastModified: user.updatedOn } : {}),
      location: this.location(user),
    });
  }

  /** A SCIM User as the meshUser it becomes (`existing`: the user it replaces). */
  toInput(body: ScimObject, existing?: User): UserInput {
    const resource = canonicalKeys(body) as ScimObject;
    if (typeof resource.userName !== 'string' || resource.userName.trim() === '')
      throw invalidValue('userName: a non-empty string is required');
    const username = checkedUsername(resource.userName.trim().toLowerCase(), 'userName');
    if (existing && existing.username !== username) {
      throw mutability(
        `userName: "${existing.username}" cannot become "${username}": meshUsers are identified by their username (delete the user and create it again)`,
      );
    }
    const emails = resource.emails === undefined || resource.emails === null ? [] : resource.emails;
    if (!Array.isArray(emails)) throw invalidValue('emails: a list is required');
    const chosen = emails.length > 0 ? emails[chosenEmail(emails)] : undefined;
    const email = isPlainObject(chosen) && typeof chosen.value === 'string' ? chosen.value : username.includes('@') ? username : '';
    if (!EMAIL.test(email) || email.length > MAX_STRING)
      throw invalidValue(
        `emails: a meshUser needs an e-mail address (the primary, work or first of emails, else an address as userName), got ${JSON.stringify(email)}`,
      );
    const name = resource.name === undefined || resource.name === null ? {} : resource.name;
    if (!isPlainObject(name)) throw invalidValue('name: an object is required');
    const firstName = text(name.givenName, 'name.givenName');
    const lastName = text(name.familyName, 'name.familyName');
    const externalId = text(resource.externalId, 'externalId');
    const active = scimBoolean(resource.active, 'active') ?? true;
    const scim: ScimObject = { ...resource, userName: resource.userName.trim() };
    for (const key of NOT_KEPT) delete scim[key];
    // Entra ID sets the manager as a bare id (`"path": "…:manager", "value": "<id>"`); the schema's is complex.
    const enterprise = scim[ENTERPRISE_SCHEMA];
    if (isPlainObject(enterprise) && typeof enterprise.manager === 'string')
      scim[ENTERPRISE_SCHEMA] = { ...enterprise, manager: { value: enterprise.manager } };
    return {
      username,
      email,
      firstName,
      lastName,
      ...(externalId !== '' ? { euid: externalId } : {}),
      document: sentObject(
        { ...(existing?.document.metadata ?? {}), name: username },
        { email, firstName, lastName, ...(externalId !== '' ? { euid: externalId } : {}), tags: existing?.document.spec.tags ?? {} },
      ),
      active,
      scim,
    };
  }

  async find(ctx: RequestContext, id: string): Promise<User> {
    const [user] = await this.users.byUuids(ctx, [id]);
    if (!user) throw scimNotFound(`no User ${id}`);
    return user;
  }

  async create(ctx: RequestContext, body: unknown): Promise<User> {
    return this.users.create(ctx, this.toInput(resourceBody(body)));
  }

  async replace(ctx: RequestContext, id: string, body: unknown): Promise<User> {
    const existing = await this.find(ctx, id);
    return (await this.users.save(ctx, existing.username, this.toInput(resourceBody(body), existing))).user;
  }

  async patch(ctx: RequestContext, id: string, body: unknown): Promise<User> {
    const existing = await this.find(ctx, id);
    const { meta: _meta, ...current } = this.toScim(existing);
    const patched = applyPatch(current, body);
    return (await this.users.save(ctx, existing.username, this.toInput(patched, existing))).user;
  }

  async delete(ctx: RequestContext, id: string): Promise<void> {
    const user = await this.find(ctx, id);
    await this.users.delete(ctx, user.username);
  }

  /** `filter` on `userName`, `externalId`, `id` and `emails`/`emails.value` with `eq` (joined by `and`); paging by `startIndex`/`count`. */
  async list(ctx: RequestContext, query: Record<string, string | undefined>) {
    const { startIndex, count } = paging(query);
    const filter: UserFilter = {};
    let none = false;
    for (const comparison of query.filter !== undefined ? parseFilter(query.filter) : []) {
      const key = ({ userName: 'username', externalId: 'euid', id: 'uuid', emails: 'email', 'emails.value': 'email' } as const)[
        comparison.attr as 'userName'
      ];
      if (key === undefined || comparison.op !== 'eq')
        throw invalidFilter(
          `Users are filtered by userName, externalId, id or emails.value with eq, not "${comparison.attr} ${comparison.op}"`,
        );
      if (typeof comparison.value !== 'string') {
        none = true;
        continue;
      }
      const value = key === 'username' ? comparison.value.toLowerCase() : comparison.value;
      if (filter[key] !== undefined && filter[key] !== value) none = true;
      filter[key] = value;
    }
    const page = none
      ? { items: [], total: 0 }
      : await window((request: PageRequest) => this.users.list(ctx, filter, request), startIndex, count);
    return listResponse(
      page.items.map((user) => project(this.toScim(user), query)),
      page.total,
      startIndex,
    );
  }
}
