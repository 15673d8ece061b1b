import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ConfigError, type Config } from '../config.js';
import { EXIT_CODES, StartFailure } from '../lib/start-failure.js';

/** The id of a master key in the values it seals: 16 hex characters of an HMAC of the key (reveals nothing about it). */
export function masterKeyId(masterKey: Buffer): string {
  return createHmac('sha256', masterKey).update('blockyard/key-id').digest('hex').slice(0, 16);
}

/**
 * The secret-hash key as every version before the keyring derived it from the master key. The
 * keyring (crypto/keyring.ts) stores it once, encrypted, so hashes survive a master-key rotation.
 */
export function legacyHashKey(masterKey: Buffer): Buffer {
  return createHmac('sha256', masterKey).update('blockyard/hash').digest();
}

const encryptionKeyOf = (masterKey: Buffer) => createHmac('sha256', masterKey).update('blockyard/encryption').digest();

/** A sealed value names the master key that sealed it: `v2:<key id>:<base64 of IV ‖ tag ‖ ciphertext>`. */
const V2 = /^v2:([0-9a-f]{16}):(.*)$/s;

export interface SecretBoxOptions {
  /** Master keys that may still decrypt (never encrypt): those before a rotation. */
  previous?: readonly Buffer[];
  /** The key of secret hashes (the keyring's); today's derivation from the master key when absent. */
  hashKey?: Buffer;
}

/**
 * Encryption at rest (AES-256-GCM) under the master key (`BLOCKYARD_MASTER_KEY`, or
 * `<data dir>/master.key` generated on first start with SQLite), and keyed hashing (HMAC-SHA256)
 * under the secret-hash key, which does not change with the master key. Values are sealed under the
 * current master key and opened with it or any previous one (`BLOCKYARD_PREVIOUS_MASTER_KEYS`), so
 * instances keep working while `blockyard admin rotate-master-key` re-encrypts.
 */
export class SecretBox {
  /** The id of the current master key, in every value sealed now. */
  readonly keyId: string;
  private readonly encryptionKey: Buffer;
  /** Every key that may decrypt, by id, the current one first. */
  private readonly decryptionKeys = new Map<string, Buffer>();
  private readonly hashKey: Buffer;

  constructor(masterKey: Buffer, options: SecretBoxOptions = {}) {
    this.keyId = masterKeyId(masterKey);
    this.encryptionKey = encryptionKeyOf(masterKey);
    for (const key of [masterKey, ...(options.previous ?? [])]) {
      const id = masterKeyId(key);
      if (!this.decryptionKeys.has(id)) this.decryptionKeys.set(id, encryptionKeyOf(key));
    }
    this.hashKey = options.hashKey ?? legacyHashKey(masterKey);
  }

  encrypt(plaintext: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.encryptionKey, iv);
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return `v2:${this.keyId}:${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64')}`;
  }

  /** Opens a value sealed under the current or a previous master key; throws for any other. */
  decrypt(sealed: string): string {
    const v2 = V2.exec(sealed);
    if (v2) {
      const key = this.decryptionKeys.get(v2[1]!);
      if (!key) throw new Error('sealed under a master key that is not configured');
      return open(key, v2[2]!);
    }
    // Values sealed before key ids (`v1:`) name no key: the authentication tag tells which one fits.
    if (!sealed.startsWith('v1:')) throw new Error('unknown sealed value format');
    for (const key of this.decryptionKeys.values()) {
      try {
        return open(key, sealed.slice(3));
      } catch {
        // not this key
      }
    }
    throw new Error('sealed under a master key that is not configured');
  }

  /** Sealed under the current master key (nothing for a rotation to do). */
  isCurrent(sealed: string): boolean {
    return sealed.startsWith(`v2:${this.keyId}:`);
  }

  /** The value sealed under the current master key: itself when it is already, else opened and sealed again. */
  reencrypt(sealed: string): string {
    return this.isCurrent(sealed) ? sealed : this.encrypt(this.decrypt(sealed));
  }

  /** `sha256:<64 hex>`: stable per value, useless without the server key. */
  hash(value: string): string {
    return `sha256:${createHmac('sha256', this.hashKey).update(value, 'utf8').digest('hex')}`;
  }

  /** Constant-time comparison of a value with a stored hash. */
  matches(value: string, storedHash: string): boolean {
    const actual = Buffer.from(this.hash(value));
    const expected = Buffer.from(storedHash);
    return actual.length === expected.length && timingSafeEqual(actual, expected);
  }
}

function open(key: Buffer, base64: string): string {
  const raw = Buffer.from(base64, 'base64');
  const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
  decipher.setAuthTag(raw.subarray(12, 28));
  return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
}

export interface MasterKeys {
  current: Buffer;
  previous: Buffer[];
}

/**
 * The configured master keys: `BLOCKYARD_MASTER_KEY` (required with PostgreSQL, config.ts) or the key
 * file in the data directory, and `BLOCKYARD_PREVIOUS_MASTER_KEYS`. The key file is generated only
 * when `mayCreate` (a database that holds nothing sealed yet): a database with sealed values and no
 * key file has lost its key, and a new one would hide that until every secret failed to open.
 */
export function loadMasterKeys(config: Config, mayCreate: boolean): MasterKeys {
  const previous = config.previousMasterKeys.map((key) => Buffer.from(key, 'base64'));
  if (config.masterKey) return { current: Buffer.from(config.masterKey, 'base64'), previous };
  const file = path.join(config.dataDir, 'master.key');
  try {
    return { current: Buffer.from(readFileSync(file, 'utf8').trim(), 'base64'), previous };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT')
      throw new ConfigError('BLOCKYARD_DATA_DIR', `cannot read the master key file ${file}: ${(error as Error).message}`);
  }
  if (!mayCreate) {
    throw new StartFailure(
      EXIT_CODES.masterKey,
      `BLOCKYARD_MASTER_KEY: is unset and ${file} is missing, but the database holds values sealed under a master key: restore ${file} from your backup or set BLOCKYARD_MASTER_KEY to that key`,
    );
  }
  mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
  const key = randomBytes(32).toString('base64');
  writeFileSync(file, `${key}\n`, { mode: 0o600, flag: 'wx' });
  return { current: Buffer.from(key, 'base64'), previous };
}

/** A digest for cache keys of credentials (never stored, never logged). */
export function digest(value: string): string {
  return createHash('sha256').update(value).digest('base64url');
}
