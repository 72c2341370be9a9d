// A raw-event row with every column defaulted, for tests and benches that write rows directly
// (not through ingestion) so that they control every column.
import { localDay } from '../src/core/localtime.js';
import type { StoredEvent } from '../src/storage/events/schema.js';

export function event(overrides: Partial<StoredEvent> & Pick<StoredEvent, 'siteId' | 'ts'>, timeZone = 'UTC'): StoredEvent {
  return {
    day: localDay(overrides.ts, timeZone),
    visitorId: 1n,
    sessionId: 1n,
    sessionStart: false,
    name: 'pageview',
    page: '/',
    hostname: null,
    entryPage: '/',
    referrer: null,
    utmSource: null,
    utmMedium: null,
    utmCampaign: null,
    country: null,
    region: null,
    city: null,
    browser: null,
    os: null,
    device: null,
    screenWidth: null,
    language: null,
    props: null,
    engagedMs: null,
    scrollDepth: null,
    revenueMinor: null,
    revenueCurrency: null,
    lcp: null,
    inp: null,
    cls: null,
    ttfb: null,
    ...overrides,
  };
}
