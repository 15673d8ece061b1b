import type { Logger } from 'pino';
import type { Config } from '../config.js';
import { legacyHashKey, loadMasterKeys, SecretBox } from './secret-box.js';

/** The keyring entry holding the secret-hash key, encrypted under the master key. */
export const HASH_KEY_ENTRY = 'secret-hash-key';

/** Where the keyring lives (store/keyring.ts implements it on the `keyring` table). */
export interface KeyringStore {
  /** The sealed value of an entry, or undefined. */
  read(name: string): Promise<string | undefined>;
  /** Stores the entry unless it exists (another instance may have just made it). */
  insertIfAbsent(name: string, sealed: string): Promise<void>;
  /** The oldest value sealed under a master key that the database holds (the first signing key's private half). */
  oldestSealedValue(): Promise<string | undefined>;
}

/**
 * The secret box of this process: the configured master keys, and the secret-hash key from the
 * keyring. Hashes shown to clients and stored for API key secrets (which can never be re-hashed: the
 * plaintext is unknown) must not change with the master key, so the hash key is its own key, stored
 * encrypted under the master key and re-encrypted with everything else by `rotate-master-key`.
 *
 * The first start of a database without the entry stores the key every earlier version derived from
 * the master key, so every existing hash stays valid. That is the master key the database was written
 * with: with previous master keys configured, the one that opens its oldest sealed value.
 *
 * A master key that opens no stored entry (a mistyped key, or a fresh key meant to abandon everything
 * sealed before) starts all the same, with an error in the log: the hash key is then derived from the
 * current master key for this process only (the stored entry stays for instances with the right key),
 * so no secret hashed before verifies and nothing sealed before can be read.
 */
export async function openSecretBox(config: Config, keyring: KeyringStore, log: Logger): Promise<SecretBox> {
  const { current, previous } = loadMasterKeys(config);
  const masterOnly = new SecretBox(current, { previous });
  let sealed = await keyring.read(HASH_KEY_ENTRY);
  if (sealed === undefined) {
    await keyring.insertIfAbsent(HASH_KEY_ENTRY, masterOnly.encrypt((await writtenWith(keyring, current, previous)).toString('base64')));
    sealed = (await keyring.read(HASH_KEY_ENTRY))!;
  }
  let hashKey: Buffer;
  try {
    hashKey = Buffer.from(masterOnly.decrypt(sealed), 'base64');
  } catch {
    log.error(
      'the master key (BLOCKYARD_MASTER_KEY, BLOCKYARD_PREVIOUS_MASTER_KEYS) opens none of the keys stored in this database: secrets hashed or sealed before cannot be used, and token signing keys made before are neither trusted nor published',
    );
    hashKey = legacyHashKey(current);
  }
  if (previous.length > 0) log.warn({ previousMasterKeys: previous.length }, 'previous master keys are configured: run `blockyard admin rotate-master-key`, then restart without them');
  return new SecretBox(current, { previous, hashKey });
}

/** The master key (current or previous) that opens the database's oldest sealed value; the current one for an empty database. */
async function writtenWith(keyring: KeyringStore, current: Buffer, previous: readonly Buffer[]): Promise<Buffer> {
  const oldest = await keyring.oldestSealedValue();
  if (oldest === undefined || previous.length === 0) return legacyHashKey(current);
  for (const key of [current, ...previous]) {
    try {
      new SecretBox(key).decrypt(oldest);
      return legacyHashKey(key);
    } catch {
      // sealed under another key
    }
  }
  return legacyHashKey(current);
}
