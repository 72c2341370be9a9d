// Verifying an svc webhook in Node (no dependencies). docs/webhooks.md explains each step;
// test/alerts/receiver-guide.test.ts runs this file against real deliveries.
import { createHmac, timingSafeEqual } from 'node:crypto';

const TOLERANCE_SECONDS = 300;

/**
 * Checks one delivery. `rawBody` must be the exact bytes received (a Buffer or string), read
 * before any JSON parsing; `headers` are the request headers with lower-case names.
 * Returns the parsed payload, or throws with the reason.
 */
export function verifySvcWebhook(secret, headers, rawBody, nowSeconds = Math.floor(Date.now() / 1000)) {
  const timestamp = headers['svc-timestamp'];
  const signature = headers['svc-signature'];
  if (typeof timestamp !== 'string' || !/^\d+$/.test(timestamp)) throw new Error('missing svc-timestamp');
  if (typeof signature !== 'string') throw new Error('missing svc-signature');
  if (Math.abs(nowSeconds - Number(timestamp)) > TOLERANCE_SECONDS) throw new Error('timestamp outside tolerance');

  const body = Buffer.isBuffer(rawBody) ? rawBody : Buffer.from(rawBody, 'utf8');
  const expected = createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest();
  // The header may carry several schemes one day ("v1=…, v2=…"); accept any matching v1.
  const valid = signature
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part.startsWith('v1='))
    .some((part) => {
      const given = Buffer.from(part.slice(3), 'hex');
      return given.length === expected.length && timingSafeEqual(given, expected);
    });
  if (!valid) throw new Error('bad signature');
  return JSON.parse(body.toString('utf8'));
}

/** Remembers delivery ids already handled, so a retried delivery is acknowledged but not re-run. */
export class SeenDeliveries {
  #seen = new Map();
  constructor(ttlMs = 24 * 3600 * 1000) {
    this.ttlMs = ttlMs;
  }
  /** True the first time an id is seen. Use a database unique key in production. */
  firstTime(deliveryId, nowMs = Date.now()) {
    for (const [id, at] of this.#seen) if (nowMs - at > this.ttlMs) this.#seen.delete(id);
    if (this.#seen.has(deliveryId)) return false;
    this.#seen.set(deliveryId, nowMs);
    return true;
  }
}
