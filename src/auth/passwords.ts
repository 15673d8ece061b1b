import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { serviceUnavailable } from '../lib/errors.js';

/** scrypt's cost parameters; a stored hash carries the ones it was made with. */
export interface ScryptCost {
  N: number;
  r: number;
  p: number;
}

/** API user passwords: scrypt (N=2^15, r=8, p=1), run on the thread pool, never on the event loop. */
export const PASSWORD_COST: Readonly<ScryptCost> = Object.freeze({ N: 32_768, r: 8, p: 1 });
const KEY_LENGTH = 32;

/**
 * At most half of libuv's thread pool hashes at once: however many logins arrive,
 * the other threads stay free for the rest of the server. Waiting checks are served round-robin by
 * client address, so a flood from one address delays another's login by one turn, not by the flood;
 * beyond a bounded queue a check is refused with 503 at once.
 */
const HASHING_THREADS = Math.max(1, Math.floor(Number(process.env.UV_THREADPOOL_SIZE || 4) / 2));
const MAX_WAITING = 256;
let hashing = 0;
let waitingCount = 0;
/** Waiting checks by address; Map order is the round-robin order (a served address moves to the end). */
const waiting = new Map<string, (() => void)[]>();

async function withHashingThread<T>(address: string, work: () => Promise<T>): Promise<T> {
  if (hashing >= HASHING_THREADS) {
    if (waitingCount >= MAX_WAITING) throw serviceUnavailable('too many password checks are under way; retry shortly', 1);
    waitingCount++;
    await new Promise<void>((resolve) => {
      const queue = waiting.get(address);
      if (queue) queue.push(resolve);
      else waiting.set(address, [resolve]);
    });
  } else hashing++;
  try {
    return await work();
  } finally {
    passThread();
  }
}

/** Hands the finished check's thread to the next address in turn (the count stays), or releases it. */
function passThread(): void {
  const next = waiting.entries().next();
  if (next.done) {
    hashing--;
    return;
  }
  const [address, queue] = next.value;
  const resolve = queue.shift()!;
  waiting.delete(address);
  if (queue.length > 0) waiting.set(address, queue);
  waitingCount--;
  resolve();
}

function derive(password: string, salt: Buffer, n: number, r: number, p: number, address: string): Promise<Buffer> {
  return withHashingThread(
    address,
    () =>
      new Promise((resolve, reject) =>
        scrypt(password, salt, KEY_LENGTH, { N: n, r, p, maxmem: 256 * n * r + 1024 * 1024 }, (error, key) =>
          error ? reject(error) : resolve(key),
        ),
      ),
  );
}

/** `cost`: PASSWORD_COST but in test servers (StartOptions.passwordCost). */
export async function hashPassword(password: string, cost = PASSWORD_COST): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, cost.N, cost.r, cost.p, '');
  return `scrypt$${cost.N}$${cost.r}$${cost.p}$${salt.toString('base64')}$${key.toString('base64')}`;
}

/**
 * A hash no password matches, with the current parameters: checking against it costs what checking a
 * real user's password costs, so an unknown username answers in the same time as a known one.
 */
const noUserHash = (cost: ScryptCost) =>
  `scrypt$${cost.N}$${cost.r}$${cost.p}$${Buffer.alloc(16).toString('base64')}$${Buffer.alloc(KEY_LENGTH).toString('base64')}`;

/** Spends a password check's time (at `cost`, what hashPassword spends) and answers false: for usernames that do not exist. */
export async function verifyNoPassword(password: string, address = '', cost = PASSWORD_COST): Promise<false> {
  await verifyPassword(password, noUserHash(cost), address);
  return false;
}

/** `address`: whose turn the check waits for when the hashing threads are busy. */
export async function verifyPassword(password: string, stored: string, address = ''): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !n || !r || !p || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const actual = await derive(password, Buffer.from(salt, 'base64'), Number(n), Number(r), Number(p), address);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
