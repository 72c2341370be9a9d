import { createHash, randomBytes, randomInt } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Uniform random base62 string (rejection-free: randomInt is unbiased). */
export function randomBase62(length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += BASE62[randomInt(62)];
  return out;
}

export const API_KEY_PREFIX = 'svc_';
export const API_KEY_PATTERN = /^svc_[0-9A-Za-z]{32}$/;

export function newApiKey(): string {
  return API_KEY_PREFIX + randomBase62(32);
}

/** Relay keys share the shape of API keys under another prefix so they are never confused. */
export function newRelayKey(): string {
  return 'svcrelay_' + randomBase62(32);
}

/** Public site id: URL-safe, never all digits (a letter first), 12 characters. */
export function newSitePublicId(): string {
  const letters = BASE62.slice(10);
  return letters[randomInt(letters.length)] + randomBase62(11);
}

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

export function randomSalt(): Buffer {
  return randomBytes(16);
}

// Session ids are drawn per new session on the ingest hot path: one 8 KiB draw serves 1024 ids
// instead of a system call each.
const ID_POOL_BYTES = 8192;
let idPool = Buffer.alloc(0);
let idOffset = ID_POOL_BYTES;

/** Random positive 63-bit id, as a bigint (DuckDB BIGINT). */
export function randomId64(): bigint {
  if (idOffset >= idPool.length) {
    idPool = randomBytes(ID_POOL_BYTES);
    idOffset = 0;
  }
  const id = idPool.readBigInt64BE(idOffset) & 0x7fffffffffffffffn;
  idOffset += 8;
  return id;
}
