import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ConfigError, type Config } from '../config.js';

/**
 * Encryption at rest (AES-256-GCM) and keyed hashing (HMAC-SHA256) under the master key
 * (`BLOCKYARD_MASTER_KEY`, or `<data dir>/master.key` generated on first start with SQLite).
 */
export class SecretBox {
  private readonly encryptionKey: Buffer;
  private readonly hashKey: Buffer;

  constructor(masterKey: Buffer) {
    // Separate keys per purpose, derived from the one master key.
    this.encryptionKey = createHmac('sha256', masterKey).update('blockyard/encryption').digest();
    this.hashKey = createHmac('sha256', masterKey).update('blockyard/hash').digest();
  }

  encrypt(plaintext: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.encryptionKey, iv);
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return `v1:${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64')}`;
  }

  decrypt(sealed: string): string {
    if (!sealed.startsWith('v1:')) throw new Error('unknown sealed value format');
    const raw = Buffer.from(sealed.slice(3), 'base64');
    const decipher = createDecipheriv('aes-256-gcm', this.encryptionKey, raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
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

export function loadSecretBox(config: Config): SecretBox {
  if (config.masterKey) return new SecretBox(Buffer.from(config.masterKey, 'base64'));
  if (config.databaseUrl) {
    throw new ConfigError('BLOCKYARD_MASTER_KEY', 'is required with BLOCKYARD_DATABASE_URL: every instance must share it (e.g. `openssl rand -base64 32`)');
  }
  const file = path.join(config.dataDir, 'master.key');
  try {
    return new SecretBox(Buffer.from(readFileSync(file, 'utf8').trim(), 'base64'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
  const key = randomBytes(32).toString('base64');
  writeFileSync(file, `${key}\n`, { mode: 0o600, flag: 'wx' });
  return new SecretBox(Buffer.from(key, 'base64'));
}

/** A digest for cache keys of credentials (never stored, never logged). */
export function digest(value: string): string {
  return createHash('sha256').update(value).digest('base64url');
}
