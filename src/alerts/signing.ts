// The webhook signature scheme (docs/webhooks.md): `svc-signature: v1=<hex HMAC-SHA256(secret, "<ts>.<body>")>`
// over the exact body bytes, with `svc-timestamp` in Unix seconds so receivers can refuse replays.
import { createHmac } from 'node:crypto';

export const SIGNATURE_SCHEME = 'v1';

export function signatureHex(secret: string, timestampSeconds: number, body: string): string {
  return createHmac('sha256', secret).update(`${timestampSeconds}.${body}`).digest('hex');
}

/** Headers of one attempt, signed at send time; `deliveryId` is the same on every retry. */
export function deliveryHeaders(secret: string, deliveryId: string, body: string, nowMs: number): Record<string, string> {
  const timestamp = Math.floor(nowMs / 1000);
  return {
    'content-type': 'application/json',
    'svc-timestamp': String(timestamp),
    'svc-signature': `${SIGNATURE_SCHEME}=${signatureHex(secret, timestamp, body)}`,
    'svc-delivery-id': deliveryId,
  };
}
