// A collected event as the write buffer, the spool and the event log hold it, numbered for tests.
import type { StoredEvent } from '../../src/storage/events/schema.js';

/** Event `i` of a run: every field set, bigints at the edges of 64 bits, a non-ASCII prop. */
export const storedEvent = (i: number): StoredEvent => ({
  siteId: 'site',
  ts: 1_700_000_000_000 + i,
  day: '2023-11-14',
  visitorId: -(2n ** 63n) + BigInt(i),
  sessionId: 2n ** 62n + BigInt(i),
  sessionStart: i % 2 === 0,
  name: 'pageview',
  page: `/p/${i}`,
  hostname: 'www.example.com',
  entryPage: '/',
  referrer: null,
  utmSource: null,
  utmMedium: null,
  utmCampaign: null,
  country: 'FR',
  region: null,
  city: null,
  browser: 'Chrome',
  os: null,
  device: 'desktop',
  screenWidth: 1280,
  language: 'fr',
  props: '{"plan":"ü"}',
  engagedMs: null,
  scrollDepth: null,
  revenueMinor: null,
  revenueCurrency: null,
});
