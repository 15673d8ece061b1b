import type { Kysely } from 'kysely';
import type { Tables } from './schema.js';

/** The `keyring` table: the service's own keys, each sealed under the master key (crypto/keyring.ts). */
export class KeyringTable {
  constructor(private readonly db: Kysely<Tables>) {}

  async read(name: string): Promise<string | undefined> {
    return (await this.db.selectFrom('keyring').select('value_encrypted').where('name', '=', name).executeTakeFirst())?.value_encrypted;
  }

  async insertIfAbsent(name: string, sealed: string): Promise<void> {
    await this.db
      .insertInto('keyring')
      .values({ name, value_encrypted: sealed, created_on: new Date().toISOString() })
      .onConflict((oc) => oc.column('name').doNothing())
      .execute();
  }

  async replace(name: string, sealed: string): Promise<void> {
    await this.db
      .insertInto('keyring')
      .values({ name, value_encrypted: sealed, created_on: new Date().toISOString() })
      .onConflict((oc) => oc.column('name').doUpdateSet({ value_encrypted: sealed, created_on: new Date().toISOString() }))
      .execute();
  }

  /** The private half of the oldest token signing key: sealed under the master key the database was first written with. */
  async oldestSealedValue(): Promise<string | undefined> {
    return (
      await this.db
        .selectFrom('signing_keys')
        .select('private_jwk_encrypted')
        .orderBy('created_on')
        .orderBy('kid')
        .limit(1)
        .executeTakeFirst()
    )?.private_jwk_encrypted;
  }
}

const isMissingTable = (error: unknown) => (error as { code?: string }).code === '42P01' || /no such table/.test((error as Error).message);

/**
 * The keyring's reads on a database that may not be migrated yet (the master key is checked before
 * anything is written): a table that does not exist holds nothing.
 */
export function keyringBeforeMigrations(db: Kysely<Tables>): Pick<KeyringTable, 'read' | 'oldestSealedValue'> {
  const table = new KeyringTable(db);
  const orNothing = async (read: () => Promise<string | undefined>) => {
    try {
      return await read();
    } catch (error) {
      if (isMissingTable(error)) return undefined;
      throw error;
    }
  };
  return { read: (name) => orNothing(() => table.read(name)), oldestSealedValue: () => orNothing(() => table.oldestSealedValue()) };
}
