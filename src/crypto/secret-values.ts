import { badRequest, conflict } from '../lib/errors.js';
import type { SecretBox } from './secret-box.js';

/**
 * Secret values inside objects (COMPAT §6): a client sends `{"plaintext": "…"}` to set or rotate a
 * secret and `{"hash": "<earlier hash>"}` to keep it; responses carry only `{"hash": "sha256:…"}`.
 * Stored, a secret is `{hash, ciphertext}` (encrypted under the master key), so it can be handed to
 * whoever needs it later without ever being readable through the API.
 */
export interface SealedSecret {
  hash: string;
  ciphertext: string;
}

type Json = unknown;

const isObject = (value: Json): value is Record<string, Json> => value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * The one secret-shape predicate: `{plaintext: <any JSON value>}` or `{hash: "<string>"}` (nulls
 * already removed), the only shapes a client uses for a secret. Every place a sensitive value enters
 * asks this, so a secret is recognised (and sealed) whatever the JSON type of its plaintext.
 */
export function secretInput(value: Json): { plaintext: unknown } | { hash: string } | undefined {
  if (!isObject(value)) return undefined;
  const keys = Object.keys(value);
  if (keys.length !== 1) return undefined;
  if (keys[0] === 'plaintext') return { plaintext: value.plaintext };
  if (keys[0] === 'hash' && typeof value.hash === 'string') return { hash: value.hash };
  return undefined;
}

/** A plaintext as it is sealed: strings as they are, other JSON values as their JSON text. */
const secretText = (plaintext: unknown) => (typeof plaintext === 'string' ? plaintext : JSON.stringify(plaintext));

export function isSealedSecret(value: Json): value is SealedSecret {
  return isObject(value) && typeof value.hash === 'string' && typeof value.ciphertext === 'string' && Object.keys(value).length === 2;
}

/**
 * Replaces every secret in `value` by its sealed form. `{hash}` keeps the secret stored at the same
 * place in `previous`, and is a conflict (409) when it names another value: the client's view drifted.
 */
export function sealSecrets(value: Json, previous: Json, box: SecretBox, field: string): Json {
  const secret = secretInput(value);
  if (secret && 'plaintext' in secret) {
    const text = secretText(secret.plaintext);
    return { hash: box.hash(text), ciphertext: box.encrypt(text) } satisfies SealedSecret;
  }
  if (secret && 'hash' in secret) {
    if (isSealedSecret(previous) && previous.hash === secret.hash) return previous;
    throw conflict(`${field}: the secret's hash does not match the stored secret; send {"plaintext": …} to set a new value`);
  }
  if (Array.isArray(value))
    return value.map((item, index) => sealSecrets(item, Array.isArray(previous) ? previous[index] : undefined, box, `${field}[${index}]`));
  if (isObject(value)) {
    if ('ciphertext' in value && 'hash' in value) throw badRequest(`${field}: a secret is sent as {"plaintext": …} or {"hash": …}`);
    const out: Record<string, Json> = {};
    for (const [key, item] of Object.entries(value))
      out[key] = sealSecrets(item, isObject(previous) ? previous[key] : undefined, box, `${field}.${key}`);
    return out;
  }
  return value;
}

/** A sensitive value as sent — bare (any JSON type) or in a secret shape — sealed: never stored in plaintext. */
export function sealSensitive(value: Json, previous: Json, box: SecretBox, field: string): Json {
  return sealSecrets(secretInput(value) ? value : { plaintext: value }, previous, box, field);
}

/** The client's view of stored values: sealed secrets become `{hash}`. */
export function hideSecrets(value: Json): Json {
  if (isSealedSecret(value)) return { hash: value.hash };
  if (Array.isArray(value)) return value.map(hideSecrets);
  if (isObject(value)) {
    const out: Record<string, Json> = {};
    for (const [key, item] of Object.entries(value)) out[key] = hideSecrets(item);
    return out;
  }
  return value;
}

/** What `resealSecrets` did to a value. */
export interface Resealed {
  value: Json;
  /** Sealed secrets now under the current master key that were not before. */
  resealed: number;
  /** Sealed secrets no configured master key opens (left as they are). */
  unreadable: number;
}

/**
 * Every sealed secret in `value` re-encrypted under the current master key (a master-key rotation);
 * hashes stay as they are (the hash key does not change with the master key).
 */
export function resealSecrets(value: Json, box: SecretBox): Resealed {
  let resealed = 0;
  let unreadable = 0;
  const walk = (item: Json): Json => {
    if (isSealedSecret(item)) {
      if (box.isCurrent(item.ciphertext)) return item;
      try {
        const ciphertext = box.reencrypt(item.ciphertext);
        resealed++;
        return { hash: item.hash, ciphertext } satisfies SealedSecret;
      } catch {
        unreadable++;
        return item;
      }
    }
    if (Array.isArray(item)) return item.map(walk);
    if (isObject(item)) {
      const out: Record<string, Json> = {};
      for (const [key, inner] of Object.entries(item)) out[key] = walk(inner);
      return out;
    }
    return item;
  };
  const out = walk(value);
  return { value: resealed > 0 ? out : value, resealed, unreadable };
}
