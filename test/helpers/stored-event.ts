// A collected event as the write buffer, the spool and the event log hold it, numbered for tests.
import type { StoredEvent } from '../../src/storage/events/schema.js';
import { event } from '../../support/events.js';

/** Event `i` of a run: every field set, bigints at the edges of 64 bits, a non-ASCII prop. */
export const storedEvent = (i: number): StoredEvent =>
  event({
    siteId: 'site',
    ts: 1_700_000_000_000 + i,
    day: '2023-11-14',
    visitorId: -(2n ** 63n) + BigInt(i),
    sessionId: 2n ** 62n + BigInt(i),
    sessionStart: i % 2 === 0,
    page: `/p/${i}`,
    hostname: 'www.example.com',
    country: 'FR',
    browser: 'Chrome',
    device: 'desktop',
    screenWidth: 1280,
    language: 'fr',
    props: '{"plan":"ü"}',
  });
