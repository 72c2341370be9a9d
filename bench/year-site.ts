// The site of bench/query and bench/dashboard: a year of traffic (pageviewsPerDay pageviews a day,
// realistic sessions, long-tail pages, referrers, countries, devices, utm campaigns, custom
// events, custom properties on 30 % of the pageviews and custom events), the last half hour of
// today for realtime, two goals, rollups done, single events kept 13 months. Events are appended
// to storage directly: the service is measured, not the loader.
import { addDays, localDay, startOfLocalDay } from '../src/core/localtime.js';
import type { RunningService } from '../src/server.js';
import type { StoredEvent } from '../src/storage/events/schema.js';
import { seededRandom } from '../src/core/seeded-random.js';
import { SUGGESTED_RAW_DAYS } from '../src/core/vocabulary.js';
import { session, type SessionShape } from '../support/datasets.js';

/**
 * The site's time zone (`BENCH_TZ`, default Europe/Paris). Today's traffic lies between local midnight
 * and half an hour ago, so the hour of a run shapes today: an hour after midnight it holds a day's
 * sessions in half an hour. A zone where the run's hour is in the afternoon keeps today's shape
 * whatever the machine's hour.
 */
export const TZ = process.env.BENCH_TZ ?? 'Europe/Paris';

/** Zipf-like sampling table: index i drawn with weight 1/(i+1). */
function longTail<T>(names: (i: number) => T, distinct: number, size: number, rand: () => number): T[] {
  const cumulative: number[] = [];
  let total = 0;
  for (let i = 0; i < distinct; i++) cumulative.push((total += 1 / (i + 1)));
  return Array.from({ length: size }, () => {
    const x = rand() * total;
    let lo = 0;
    let hi = distinct - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid]! < x) lo = mid + 1;
      else hi = mid;
    }
    return names(lo);
  });
}

function shape(rand: () => number): SessionShape {
  const countries: Array<[string, string, string]> = [
    ['US', 'California', 'San Francisco'], ['US', 'New York', 'New York'], ['FR', 'Île-de-France', 'Paris'], ['DE', 'Berlin', 'Berlin'],
    ['GB', 'England', 'London'], ['IN', 'Karnataka', 'Bengaluru'], ['BR', 'São Paulo', 'São Paulo'], ['JP', 'Tokyo', 'Tokyo'],
    ['CA', 'Ontario', 'Toronto'], ['NL', 'North Holland', 'Amsterdam'], ['ES', 'Madrid', 'Madrid'], ['AU', 'New South Wales', 'Sydney'],
  ];
  return {
    pages: longTail((i) => (i === 0 ? '/' : i < 50 ? `/docs/section-${i}` : `/blog/${2000 + (i % 25)}/post-${i}`), 8000, 50_000, rand),
    referrers: [null, null, null, ...longTail((i) => `ref${i}.example`, 400, 2000, rand), 'google.com', 'google.com', 'news.ycombinator.com'],
    countries: [...longTail((i) => countries[i]!, countries.length, 500, rand), null],
    browsers: [['Chrome', 'Windows', 'desktop'], ['Chrome', 'Android', 'mobile'], ['Safari', 'iOS', 'mobile'], ['Safari', 'macOS', 'desktop'], ['Firefox', 'Linux', 'desktop'], ['Edge', 'Windows', 'desktop'], ['Safari', 'iOS', 'tablet']],
    utm: [null, null, null, null, ['newsletter', 'email', 'weekly'], ['google', 'cpc', 'brand'], ['twitter', 'social', 'launch']],
    customEvents: ['signup', 'trial', 'download_pdf'],
    props: PROPS,
  };
}

const PLANS = ['free', 'pro', 'team', 'enterprise', 'trial'];
/**
 * Three in ten pageviews and custom events carry properties (taken in turn, no random draw): a
 * `plan` of five values, an `author` of 17 and, on some, a numeric `step`.
 */
const PROPS: Array<string | null> = Array.from({ length: 100 }, (_, i) =>
  i % 10 < 3 ? JSON.stringify({ plan: PLANS[i % PLANS.length], author: `author-${i % 17}`, ...(i % 3 === 0 ? { step: i % 7 } : {}) }) : null,
);

export interface YearSite {
  orgId: number;
  siteId: string;
  /** A read-API key of the site's organisation. */
  key: string;
  rows: number;
  pageviews: number;
  /** Milliseconds spent appending events, then computing rollups. */
  loadMs: number;
  rollupMs: number;
}

/** Loads the year into a fresh organisation and site of `service` through `admin` (the admin API). */
export async function loadYearSite(
  service: RunningService,
  admin: (method: string, path: string, body?: unknown) => Promise<any>,
  options: { pageviewsPerDay: number; days: number },
): Promise<YearSite> {
  const { ctx } = service;
  const { pageviewsPerDay, days } = options;
  const org = await admin('POST', '/orgs', { name: 'Bench' });
  // Single events kept 13 months (the `Keep single events` choice that holds a whole year, as a site
  // answering filters over its year keeps them), or every loaded day where more are loaded.
  const site = await admin('POST', `/orgs/${org.id}/sites`, { domain: 'bench.example', name: 'Bench', timezone: TZ, rawDays: Math.max(SUGGESTED_RAW_DAYS, days) });
  const key: string = (await admin('POST', `/orgs/${org.id}/keys`, { name: 'bench' })).key;

  const now = Date.now();
  const today = localDay(now, TZ);
  const rand = seededRandom(42);
  const traffic = shape(rand);
  const loadStart = performance.now();
  let pageviews = 0;
  let rows = 0;
  for (let n = days - 1; n >= 0; n--) {
    const day = addDays(today, -n);
    const start = startOfLocalDay(day, TZ);
    const span = n === 0 ? Math.max(60_000, now - start - 30 * 60_000) : 22 * 3_600_000;
    const batch: StoredEvent[] = [];
    let dayViews = 0;
    const visitors = Math.round(pageviewsPerDay / 3);
    while (dayViews < pageviewsPerDay) {
      const visitor = BigInt(Math.floor(rand() * visitors)) + 1_000_000n * BigInt(n);
      const events = session(rand, site.id, start + Math.floor(rand() * span), visitor, traffic, TZ);
      dayViews += events.filter((e) => e.name === 'pageview').length;
      batch.push(...events);
    }
    if (n === 0) {
      // Realtime: the last half hour of today.
      for (let i = 0; i < 300; i++) batch.push(...session(rand, site.id, now - Math.floor(rand() * 30 * 60_000), BigInt(9e15) + BigInt(i), traffic, TZ).filter((e) => e.ts <= now));
    }
    await ctx.events.append(batch);
    pageviews += dayViews;
    rows += batch.length;
  }
  const loaded = performance.now();
  // Goals are defined once the year is in, as an operator adding them later would: defining one
  // refreshes the site's rollups (the first time, the whole year), then the periodic task runs.
  await admin('POST', `/sites/${site.id}/goals`, { name: 'Signup', kind: 'event', pattern: 'signup' });
  await admin('POST', `/sites/${site.id}/goals`, { name: 'Docs', kind: 'page', pattern: '/docs/*' });
  await ctx.maintenance.run(now, ['rollup']);
  const rolled = performance.now();
  return { orgId: org.id, siteId: site.id, key, rows, pageviews, loadMs: loaded - loadStart, rollupMs: rolled - loaded };
}
