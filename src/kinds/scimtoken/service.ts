import { randomUUID } from 'node:crypto';
import type { RequestContext } from '../../auth/context.js';
import type { SecretBox } from '../../crypto/secret-box.js';
import { badRequest, notFound } from '../../lib/errors.js';
import type { ScimTokenTable } from '../../store/schema.js';
import { inTransaction, type Db } from '../../store/transaction.js';
import { generateClientSecret } from '../apikey/service.js';

/** What a SCIM bearer token starts with: it can never be taken for an API key's JWT, nor one for it. */
export const SCIM_TOKEN_PREFIX = 'byscim_';

/** A SCIM credential. Only the keyed hash of its secret is stored. */
export interface ScimToken {
  id: string;
  name: string;
  createdOn: string;
}

const toModel = (row: ScimTokenTable): ScimToken => ({ id: row.id, name: row.name, createdOn: row.created_on });

/**
 * The SCIM bearer credentials an admin creates (`blockyard admin scim-token create`): a dedicated
 * secret, never an API key's token. While one exists, SCIM provisioning is enabled, and meshUsers are
 * no longer created or replaced over `/api/meshobjects/meshusers` (OpenAPI). The token is
 * `byscim_` + 40 random characters, stored as an HMAC under the secret-hash key, looked up by it.
 */
export class ScimTokenService {
  constructor(
    private readonly db: Db,
    private readonly secrets: SecretBox,
  ) {}

  async create(_ctx: RequestContext, name: string): Promise<{ token: ScimToken; secret: string }> {
    const trimmed = name.trim();
    if (trimmed === '' || trimmed.length > 255) throw badRequest('name: 1 to 255 characters');
    const secret = `${SCIM_TOKEN_PREFIX}${generateClientSecret()}`;
    const row: ScimTokenTable = {
      id: randomUUID(),
      name: trimmed,
      secret_hash: this.secrets.hash(secret),
      created_on: new Date().toISOString(),
    };
    await inTransaction(this.db, (trx) => trx.insertInto('scim_tokens').values(row).execute());
    return { token: toModel(row), secret };
  }

  async list(): Promise<ScimToken[]> {
    const rows = await this.db.selectFrom('scim_tokens').selectAll().orderBy('created_on').orderBy('id').execute();
    return rows.map(toModel);
  }

  async delete(_ctx: RequestContext, id: string): Promise<void> {
    const result = await inTransaction(this.db, (trx) => trx.deleteFrom('scim_tokens').where('id', '=', id).executeTakeFirst());
    if (Number(result.numDeletedRows) === 0) throw notFound(`no SCIM token ${id}`);
  }

  /** The token this secret is, or undefined. The lookup is by keyed hash: no secret is compared in the clear. */
  async verify(secret: string): Promise<ScimToken | undefined> {
    if (!secret.startsWith(SCIM_TOKEN_PREFIX) || secret.length > 200) return undefined;
    const row = await this.db.selectFrom('scim_tokens').selectAll().where('secret_hash', '=', this.secrets.hash(secret)).executeTakeFirst();
    return row ? toModel(row) : undefined;
  }

  /** Whether SCIM provisioning is enabled: some SCIM token exists. */
  async enabled(): Promise<boolean> {
    const row = await this.db.selectFrom('scim_tokens').select('id').limit(1).executeTakeFirst();
    return row !== undefined;
  }
}
