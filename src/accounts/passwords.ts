// Password hashing: scrypt from node:crypto (memory-hard), a random 16-byte salt per hash. The stored
// text names its parameters, so they can be raised later while old hashes still verify (and are
// re-hashed with the current ones at the next sign-in).
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { BoundedQueue } from '../core/bounded-queue.js';
import { apiError } from '../core/errors.js';

/** N = 2^17, r = 8, p = 1 (OWASP's floor for scrypt): 128 MiB of memory and about 0.4 s of one core per hash. */
export const SCRYPT_PARAMS = { N: 131_072, r: 8, p: 1, keyLength: 32, saltBytes: 16 } as const;
export const MIN_PASSWORD_LENGTH = 10;
export const MAX_PASSWORD_LENGTH = 1024;

/**
 * Every derivation (sign-in, setup, a new user, a password change) waits its turn here: one runs at
 * a time, 16 more may wait, and beyond that the caller gets 429 at once. node:crypto's async scrypt
 * runs on libuv's thread pool (UV_THREADPOOL_SIZE, 4 threads by default), which dns.lookup (webhook
 * deliveries) and file I/O share: unbounded, a burst of sign-ins would hold every thread for the
 * length of a hash each and stall them. One at a time leaves the other threads free and holds
 * scrypt's memory to one hash's 128 MiB, without a second JavaScript runtime (a worker thread running
 * scryptSync would isolate as well, for a worker's memory and start-up). Sign-ins are rare enough
 * (a session lasts 30 days) for one core's worth of hashing.
 */
export const passwordHashing = new BoundedQueue(
  1,
  16,
  () => apiError('RATE_LIMITED', 'passwordChecks', {}, { 'retry-after': '5' }),
);

function derive(password: string, salt: Buffer, keyLength: number, options: ScryptOptions): Promise<Buffer> {
  // scrypt needs 128 * N * r * p bytes, above Node's default ceiling (32 MiB): allow twice that.
  const maxmem = 256 * (options.N ?? 0) * (options.r ?? 0) * (options.p ?? 1);
  return passwordHashing.run(
    () =>
      new Promise((resolve, reject) => {
        scrypt(password.normalize('NFC'), salt, keyLength, { ...options, maxmem }, (err, key) => (err ? reject(err) : resolve(key)));
      }),
  );
}

/** A new password's policy: 10 to 1024 characters. */
export function checkPasswordPolicy(password: unknown): string {
  if (typeof password !== 'string' || password.length < MIN_PASSWORD_LENGTH) {
    throw apiError('INVALID_PARAMS', 'tooShort', { name: 'password', min: MIN_PASSWORD_LENGTH });
  }
  if (password.length > MAX_PASSWORD_LENGTH) throw apiError('INVALID_PARAMS', 'tooLong', { name: 'password', max: MAX_PASSWORD_LENGTH });
  return password;
}

/** `scrypt$<N>$<r>$<p>$<salt base64>$<key base64>` */
export async function hashPassword(password: string): Promise<string> {
  const { N, r, p, keyLength, saltBytes } = SCRYPT_PARAMS;
  const salt = randomBytes(saltBytes);
  const key = await derive(password, salt, keyLength, { N, r, p });
  return ['scrypt', N, r, p, salt.toString('base64'), key.toString('base64')].join('$');
}

/** A stored hash's parts, or undefined when it is not one. */
function parseHash(stored: string): { N: number; r: number; p: number; salt: Buffer; key: Buffer } | undefined {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return undefined;
  const [N, r, p] = parts.slice(1, 4).map(Number) as [number, number, number];
  const key = Buffer.from(parts[5]!, 'base64');
  return key.length === 0 ? undefined : { N, r, p, salt: Buffer.from(parts[4]!, 'base64'), key };
}

/** True when `password` matches `stored`; compared in constant time. A malformed hash matches nothing. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const hash = parseHash(stored);
  if (!hash) return false;
  const key = await derive(password, hash.salt, hash.key.length, { N: hash.N, r: hash.r, p: hash.p });
  return timingSafeEqual(key, hash.key);
}

/** True when a stored hash was made with other parameters than the current ones. */
export function hashNeedsUpgrade(stored: string): boolean {
  const hash = parseHash(stored);
  const { N, r, p, keyLength } = SCRYPT_PARAMS;
  return !hash || hash.N !== N || hash.r !== r || hash.p !== p || hash.key.length !== keyLength;
}

/** A hash of the current parameters that no password matches: a random key under a random salt. */
const DUMMY_HASH = ['scrypt', SCRYPT_PARAMS.N, SCRYPT_PARAMS.r, SCRYPT_PARAMS.p, randomBytes(SCRYPT_PARAMS.saltBytes).toString('base64'), randomBytes(SCRYPT_PARAMS.keyLength).toString('base64')].join('$');

/**
 * Spends the time of one verification on a password that matches nothing, so that an unknown email
 * takes as long to refuse as a wrong password (no user enumeration by timing).
 */
export async function verifyAgainstDummy(password: string): Promise<false> {
  await verifyPassword(password, DUMMY_HASH);
  return false;
}
