import type { Logger } from 'pino';
import type { Config } from '../config.js';
import { EXIT_CODES, StartFailure } from '../lib/start-failure.js';
import { legacyHashKey, loadMasterKeys, SecretBox, type MasterKeys } from './secret-box.js';

/** The keyring entry holding the secret-hash key, encrypted under the master key. */
export const HASH_KEY_ENTRY = 'secret-hash-key';

/** Where the keyring lives (store/keyring.ts implements it on the `keyring` table). */
export interface KeyringStore {
  /** The sealed value of an entry, or undefined. */
  read(name: string): Promise<string | undefined>;
  /** Stores the entry unless it exists (another instance may have just made it). */
  insertIfAbsent(name: string, sealed: string): Promise<void>;
  /** Stores the entry, replacing what is there. */
  replace(name: string, sealed: string): Promise<void>;
  /** The oldest value sealed under a master key that the database holds (the first signing key's private half). */
  oldestSealedValue(): Promise<string | undefined>;
}

/**
 * What `/readyz` says of the keyring: `UP`, `ROTATING` while previous master keys are configured (a
 * rotation is under way), `ABANDONED` when this process sealed a new keyring because the master key
 * opened none of the stored keys and BLOCKYARD_ABANDON_SEALED_SECRETS said so.
 */
export type KeyringState = 'UP' | 'ROTATING' | 'ABANDONED';

export interface OpenedKeyring {
  secrets: SecretBox;
  state: KeyringState;
}

interface CheckedMasterKeys extends MasterKeys {
  /** False only when the keys open nothing stored and the operator chose to abandon it. */
  opens: boolean;
}

/**
 * The master keys, checked against what the database holds before anything is written to it: the
 * keyring's hash key, or on a database from before the keyring its oldest sealed value. A key that
 * opens neither (a mistyped key, a lost key file) stops the start, since every stored credential
 * would be unusable; BLOCKYARD_ABANDON_SEALED_SECRETS is the deliberate way past.
 */
export async function checkMasterKeys(
  config: Config,
  keyring: Pick<KeyringStore, 'read' | 'oldestSealedValue'>,
): Promise<CheckedMasterKeys> {
  const sample = (await keyring.read(HASH_KEY_ENTRY)) ?? (await keyring.oldestSealedValue());
  const keys = loadMasterKeys(config, sample === undefined);
  if (sample === undefined || opens(keys, sample)) return { ...keys, opens: true };
  if (config.abandonSealedSecrets) return { ...keys, opens: false };
  const sealedWith = /^v2:([0-9a-f]{16}):/.exec(sample)?.[1];
  throw new StartFailure(
    EXIT_CODES.masterKey,
    `BLOCKYARD_MASTER_KEY: opens none of the keys this database holds${sealedWith ? ` (they are sealed under master key id ${sealedWith}, the configured key's id is ${new SecretBox(keys.current).keyId})` : ''}: set the key the database was written with (during a rotation, the old one in BLOCKYARD_PREVIOUS_MASTER_KEYS); to give up every secret sealed before, start once with BLOCKYARD_ABANDON_SEALED_SECRETS=true`,
  );
}

function opens({ current, previous }: MasterKeys, sealed: string): boolean {
  try {
    new SecretBox(current, { previous }).decrypt(sealed);
    return true;
  } catch {
    return false;
  }
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
 * Abandoning (the keys open nothing stored, and the operator said so) seals a new entry under the
 * current master key: later starts open it without the setting, and nothing hashed or sealed before
 * is usable (signing keys from before are neither trusted nor published).
 */
export async function openSecretBox(config: Config, keyring: KeyringStore, log: Logger): Promise<OpenedKeyring> {
  const { current, previous, opens } = await checkMasterKeys(config, keyring);
  const masterOnly = new SecretBox(current, { previous });
  if (!opens) {
    log.warn(
      'BLOCKYARD_ABANDON_SEALED_SECRETS: the master key opens none of the keys stored in this database; a new keyring is sealed under it, and every secret, credential hash and signing key from before is given up',
    );
    const hashKey = legacyHashKey(current);
    await keyring.replace(HASH_KEY_ENTRY, masterOnly.encrypt(hashKey.toString('base64')));
    return { secrets: new SecretBox(current, { previous, hashKey }), state: 'ABANDONED' };
  }
  if (config.abandonSealedSecrets)
    log.warn('BLOCKYARD_ABANDON_SEALED_SECRETS is set, but the master key opens the stored keys: nothing is abandoned; remove the setting');
  let sealed = await keyring.read(HASH_KEY_ENTRY);
  if (sealed === undefined) {
    await keyring.insertIfAbsent(HASH_KEY_ENTRY, masterOnly.encrypt((await writtenWith(keyring, current, previous)).toString('base64')));
    sealed = (await keyring.read(HASH_KEY_ENTRY))!;
  }
  const hashKey = Buffer.from(masterOnly.decrypt(sealed), 'base64');
  if (previous.length > 0)
    log.warn(
      { previousMasterKeys: previous.length },
      'previous master keys are configured: run `blockyard admin rotate-master-key`, then restart without them',
    );
  return { secrets: new SecretBox(current, { previous, hashKey }), state: previous.length > 0 ? 'ROTATING' : 'UP' };
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
