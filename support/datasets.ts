// Seeded random datasets of raw-event rows, shared by the stats tests and the benchmark. Rows are
// built directly (not through ingestion) so that tests control every column.
import type { StoredEvent } from '../src/storage/events/schema.js';
import { localDay } from '../src/core/localtime.js';
import { seededRandom } from '../src/core/seeded-random.js';
import { event } from './events.js';

export interface SessionShape {
  referrers: ReadonlyArray<string | null>;
  pages: readonly string[];
  countries: ReadonlyArray<[string, string, string] | null>;
  browsers: ReadonlyArray<[string, string, string] | null>;
  utm: ReadonlyArray<[string, string, string] | null>;
  customEvents: readonly string[];
  /**
   * Props (their stored JSON text, or null) of pageviews and custom events, taken in turn by
   * session and event: no draw of the random stream, so that adding some changes no other column.
   */
  props?: ReadonlyArray<string | null>;
  /** Hosts of the pages (null: a row stored before hosts were kept), taken in turn like props. */
  hostnames?: ReadonlyArray<string | null>;
}

export const SMALL_SHAPE: SessionShape = {
  referrers: [null, null, 'google.com', 'news.ycombinator.com', 'twitter.com'],
  pages: ['/', '/pricing', '/blog/a', '/blog/b', '/docs/start', '/signup'],
  countries: [null, ['FR', 'Île-de-France', 'Paris'], ['US', 'California', 'San Francisco'], ['IN', 'Karnataka', 'Bengaluru']],
  browsers: [null, ['Chrome', 'Windows', 'desktop'], ['Safari', 'iOS', 'mobile'], ['Firefox', 'Linux', 'desktop']],
  utm: [null, null, ['newsletter', 'email', 'spring'], ['ads', 'cpc', 'launch']],
  customEvents: ['signup', 'trial'],
  hostnames: ['r.test', 'r.test', 'blog.r.test', null],
  // Values that need decoding (quotes, backslashes, control characters, a reserved key's spelling),
  // numbers and booleans beside strings that read the same, and a key that has a `:`.
  props: [
    null,
    JSON.stringify({ plan: 'pro', seats: 3 }),
    JSON.stringify({ plan: 'free' }),
    null,
    JSON.stringify({ plan: 'say "hi"\\\n\u0001', flag: true, 'a:b': 'x' }),
    JSON.stringify({ seats: '3', plan: '(none)' }),
    JSON.stringify({ 'pl\"an': 'pro', plan: 'pro' }),
  ],
};

const REVENUE_CURRENCIES = [null, 'EUR', 'EUR', 'USD'] as const;

let nextId = 1n;

/**
 * Web vitals of an engage event (from its instant, drawing nothing from the random stream): one in
 * four reports none, the others some of them, values repeating within a few thousand.
 */
function vitalsAt(ts: number): Pick<StoredEvent, 'lcp' | 'inp' | 'cls' | 'ttfb'> {
  if (ts % 4 === 0) return { lcp: null, inp: null, cls: null, ttfb: null };
  return { lcp: ts % 7 === 0 ? null : ts % 6000, inp: ts % 3 === 0 ? null : ts % 700, cls: ts % 400, ttfb: ts % 5 === 0 ? null : ts % 2500 };
}

/**
 * One session's events, `start` its first instant: pageviews, sometimes engagement, an outbound
 * click or a custom event. Session-scoped columns are copied from the first event, as ingestion does.
 */
export function session(
  rand: () => number,
  siteId: string,
  start: number,
  visitorId: bigint,
  shape: SessionShape,
  timeZone: string,
): StoredEvent[] {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
  const sessionId = nextId++;
  const geo = pick(shape.countries);
  const ua = pick(shape.browsers);
  const utm = pick(shape.utm);
  const day = localDay(start, timeZone);
  const common = {
    siteId,
    day,
    visitorId,
    sessionId,
    referrer: pick(shape.referrers),
    utmSource: utm?.[0] ?? null,
    utmMedium: utm?.[1] ?? null,
    utmCampaign: utm?.[2] ?? null,
    country: geo?.[0] ?? null,
    region: geo?.[1] ?? null,
    city: geo?.[2] ?? null,
    browser: ua?.[0] ?? null,
    os: ua?.[1] ?? null,
    device: ua?.[2] ?? null,
  };
  const views = 1 + Math.floor(rand() * rand() * 5);
  const rows: StoredEvent[] = [];
  let ts = start;
  const entry = pick(shape.pages);
  const props = (i: number) => (shape.props ? shape.props[(Number(sessionId) + i) % shape.props.length]! : null);
  for (let i = 0; i < views; i++) {
    const page = i === 0 ? entry : pick(shape.pages);
    // The page's host goes on every event sent from it.
    const hostname = shape.hostnames ? shape.hostnames[(Number(sessionId) + i) % shape.hostnames.length]! : null;
    rows.push(event({ ...common, ts, name: 'pageview', page, hostname, entryPage: entry, sessionStart: i === 0, props: props(i) }));
    ts += 1000 + Math.floor(rand() * 120_000);
    const r = rand();
    if (r < 0.3) {
      const engagedMs = Math.floor(rand() * 40_000);
      rows.push(event({ ...common, ts, name: 'engage', page, hostname, entryPage: entry, engagedMs, scrollDepth: engagedMs % 101, ...vitalsAt(ts) }));
      ts += 500;
    } else if (r < 0.4) {
      // Revenue (from the instant, drawing nothing more from `rand`): none, EUR (most) or USD.
      const currency = REVENUE_CURRENCIES[ts % REVENUE_CURRENCIES.length]!;
      const revenue = currency ? { revenueMinor: ts % 100_000, revenueCurrency: currency } : {};
      rows.push(event({ ...common, ts, name: pick(shape.customEvents), page, hostname, entryPage: entry, props: props(i + 1), ...revenue }));
      ts += 500;
    } else if (r < 0.45) {
      rows.push(event({ ...common, ts, name: 'outbound', page, hostname, entryPage: entry, props: '{"url":"https://x.test"}' }));
      ts += 500;
    }
  }
  return rows;
}

/** Sessions spread over `days` local days starting at `firstDay`'s midnight `dayStart(day)`. */
export function dataset(options: {
  seed: number;
  siteId: string;
  days: readonly string[];
  dayStart: (day: string) => number;
  sessionsPerDay: number;
  visitorsPerDay: number;
  timeZone: string;
  shape?: SessionShape;
}): StoredEvent[] {
  const rand = seededRandom(options.seed);
  const rows: StoredEvent[] = [];
  for (const day of options.days) {
    const start = options.dayStart(day);
    for (let i = 0; i < options.sessionsPerDay; i++) {
      // Sessions start in the first 20 hours so that they end within their local day.
      const at = start + Math.floor(rand() * 20 * 3_600_000);
      const visitor = BigInt(Math.floor(rand() * options.visitorsPerDay)) + 1000n * BigInt(day.replaceAll('-', ''));
      rows.push(...session(rand, options.siteId, at, visitor, options.shape ?? SMALL_SHAPE, options.timeZone));
    }
  }
  return rows;
}
