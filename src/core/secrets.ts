// One comparison for every secret a request presents (admin token, setup token, CSRF token): both
// sides are hashed to SHA-256 digests first, so timingSafeEqual always compares 32 bytes with 32 and
// neither the time taken nor an early return tells how long the expected secret is.
import { createHash, timingSafeEqual } from 'node:crypto';

const digest = (text: string) => createHash('sha256').update(text).digest();

/** Whether `given` equals `expected`, in time independent of where they differ and of their lengths. An empty expected secret matches nothing. */
export function tokensEqual(given: string, expected: string): boolean {
  const same = timingSafeEqual(digest(given), digest(expected));
  return same && expected !== '';
}
