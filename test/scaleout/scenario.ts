// One HTTP scenario that a profile must answer exactly like another: admin calls (orgs, sites in three
// time zones, API keys, goals (one requiring a property value), a funnel with two versions), events collected through /api/e at fixed
// instants of the service's clock and imported through the admin API, rollups built by the
// maintenance endpoint, then every /v1 endpoint read over a table of periods, metrics, dimensions
// (custom properties among them) and filters. The answers are keyed by request and have the ids the services draw themselves
// (site ids) replaced by the site's name, so that two profiles' answers compare with deepEqual.
import assert from 'node:assert/strict';
import type { ManualClock } from '../../src/core/clock.js';
import { DIMENSIONS, PRESETS } from '../../src/core/vocabulary.js';
import { sql } from '../../src/sql/sql.js';
import { BROWSER_UA, createApiKey, createRelayKey, importEvents, type TestServer } from '../helpers/server.js';

/** The instant of every read: Friday 2026-03-20, 12:00 UTC. */
export const NOW = Date.UTC(2026, 2, 20, 12, 0);
const DAY = 86_400_000;
const MIN = 60_000;
/** Days before NOW's day that are collected through /api/e (the rest, back to IMPORT_DAYS, is imported). */
const COLLECT_DAYS = 3;
const IMPORT_DAYS = 100;

const USER_AGENTS = [
  BROWSER_UA,
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15',
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36',
];
interface Place {
  country?: string;
  region?: string;
  city?: string;
}
const PLACES: readonly Place[] = [
  { country: 'FR', region: 'Île-de-France', city: 'Paris' },
  { country: 'US', region: 'California', city: 'San Francisco' },
  { country: 'DE', region: 'Berlin', city: 'Berlin' },
  { country: 'NP', region: 'Bagmati', city: 'Kathmandu' },
  {},
];
const REFERRERS = ['', '', 'https://www.google.com/search?q=x', 'https://news.ycombinator.com/item?id=1', 'https://t.co/abc', 'https://duckduckgo.com/'];
const ENTRIES = ['/', '/?utm_source=newsletter&utm_medium=email&utm_campaign=spring', '/blog/a', '/docs/start', '/pricing?utm_source=(none)'];
const PAGES = ['/', '/pricing', '/blog/a', '/blog/b', '/docs/start', '/docs/api', '/signup'];
const EVENTS = ['signup', 'download', 'outbound', 'trial'];

/** A fixed sequence of pseudo-random numbers (mulberry32): both profiles get the same traffic. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Hit {
  ts: number;
  ua: string;
  ip: string;
  place: Place;
  url: string;
  referrer: string;
  width: number;
  event?: string;
  props?: Record<string, unknown>;
}

/** The visits of one site-day: each visitor's hits, a few minutes apart, some ending in a custom event or engagement. */
function visitsOf(next: () => number, dayStart: number, visitors: number, ipBase: number): Hit[] {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!;
  const hits: Hit[] = [];
  for (let v = 0; v < visitors; v++) {
    const visitor = {
      ua: pick(USER_AGENTS),
      ip: `198.51.${ipBase}.${1 + Math.floor(next() * 60)}`,
      place: pick(PLACES),
      width: pick([390, 800, 1400, 1920]),
    };
    let ts = dayStart + Math.floor(next() * (DAY - 2 * 3_600_000));
    const pages = 1 + Math.floor(next() * 4);
    for (let p = 0; p < pages; p++) {
      const url = p === 0 ? pick(ENTRIES) : pick(PAGES);
      hits.push({ ...visitor, ts, url, referrer: p === 0 ? pick(REFERRERS) : '' });
      const roll = next();
      if (roll < 0.15) hits.push({ ...visitor, ts: ts + 20_000, url, referrer: '', event: pick(EVENTS), props: { plan: pick(['pro', 'free', 'say "hi" ü']), url: 'https://example.org/file.pdf' } });
      else if (roll < 0.4) hits.push({ ...visitor, ts: ts + 30_000, url, referrer: '', event: 'engage', props: { t: Math.floor(next() * 60_000), d: Math.floor(next() * 100) } });
      ts += Math.floor(next() * 20 * MIN) + MIN;
    }
  }
  return hits.sort((a, b) => a.ts - b.ts);
}

function importLine(hit: Hit): Record<string, unknown> {
  return {
    ts: hit.ts,
    ua: hit.ua,
    ip: hit.ip,
    u: hit.url,
    ...(hit.referrer ? { r: hit.referrer } : {}),
    w: hit.width,
    ...(hit.event ? { e: hit.event, p: hit.props } : {}),
    ...hit.place,
  };
}

interface ScenarioSite {
  name: string;
  timezone: string;
  siteId: string;
  domain: string;
  key: string;
  funnelId?: number;
}

async function setUpSites(server: TestServer): Promise<ScenarioSite[]> {
  const sites: ScenarioSite[] = [];
  for (const [name, timezone] of [['utc', 'UTC'], ['new-york', 'America/New_York'], ['kathmandu', 'Asia/Kathmandu']] as const) {
    const org = await server.admin('POST', '/orgs', { name });
    const domain = `${name}.scenario.example`;
    const site = await server.admin('POST', `/orgs/${org.body.id}/sites`, { domain, name, timezone });
    assert.equal(site.status, 201, JSON.stringify(site.body));
    sites.push({ name, timezone, siteId: site.body.id, domain, key: await createApiKey(server, org.body.id) });
  }
  const main = sites[0]!;
  const goals = [
    { name: 'Pricing', kind: 'page', pattern: '/pricing' },
    { name: 'Docs', kind: 'page', pattern: '/docs/*' },
    { name: 'Signup', kind: 'event', pattern: 'signup' },
    { name: 'Pro signup', kind: 'event', pattern: 'signup', props: { plan: 'pro' } },
  ];
  for (const g of goals) {
    const created = await server.admin('POST', `/sites/${main.siteId}/goals`, g);
    assert.equal(created.status, 201, JSON.stringify(created.body));
  }
  const funnel = await server.admin('POST', `/sites/${main.siteId}/funnels`, {
    name: 'Buy',
    windowMinutes: 30,
    steps: [{ kind: 'page', pattern: '/' }, { kind: 'page', pattern: '/pricing' }, { kind: 'event', pattern: 'signup' }],
  });
  assert.equal(funnel.status, 201, JSON.stringify(funnel.body));
  main.funnelId = funnel.body.id;
  const v2 = await server.admin('PUT', `/sites/${main.siteId}/funnels/${funnel.body.id}/steps`, {
    steps: [{ kind: 'page', pattern: '/**' }, { kind: 'page', pattern: '/pricing' }],
  });
  assert.equal(v2.status, 200, JSON.stringify(v2.body));
  return sites;
}

/** Days before NOW's UTC day imported, oldest first; the COLLECT_DAYS before it and NOW's day are collected. */
async function importHistory(server: TestServer, sites: readonly ScenarioSite[]): Promise<void> {
  const today = NOW - (NOW % DAY);
  for (const [i, site] of sites.entries()) {
    const next = random(1000 + i);
    const hits: Hit[] = [];
    for (let d = IMPORT_DAYS; d > COLLECT_DAYS; d--) hits.push(...visitsOf(next, today - d * DAY, 8 + Math.floor(next() * 8), 10 + i));
    const report = await importEvents(server, site.siteId, hits.map(importLine));
    assert.equal(report.status, 200);
    assert.equal(report.body.rejected, 0, JSON.stringify(report.body.errors.slice(0, 5)));
  }
}

/** The collected days, every hit sent at its instant on the service's clock, through a relay key that gives the client's address and place. */
async function collectRecent(server: TestServer, clock: ManualClock, sites: readonly ScenarioSite[]): Promise<void> {
  const relayKey = await createRelayKey(server);
  const today = NOW - (NOW % DAY);
  const hits: Array<Hit & { site: ScenarioSite }> = [];
  for (const [i, site] of sites.entries()) {
    const next = random(2000 + i);
    for (let d = COLLECT_DAYS; d >= 0; d--) {
      for (const hit of visitsOf(next, today - d * DAY, 6 + Math.floor(next() * 6), 20 + i)) {
        if (hit.ts < NOW - 20_000) hits.push({ ...hit, site });
      }
    }
  }
  hits.sort((a, b) => a.ts - b.ts);
  // Three hits in the last minutes, for the realtime view.
  for (const [k, url] of ['/', '/pricing', '/blog/a'].entries()) {
    hits.push({ ts: NOW - (3 - k) * 50_000, ua: BROWSER_UA, ip: `192.0.2.${k + 1}`, place: PLACES[k]!, url, referrer: 'https://t.co/x', width: 1400, site: sites[0]! });
  }
  for (const hit of hits) {
    clock.set(hit.ts);
    const place = hit.place;
    const headers: Record<string, string> = {
      origin: `https://${hit.site.domain}`,
      'user-agent': hit.ua,
      'x-svc-relay-key': relayKey,
      'x-svc-client-ip': hit.ip,
      ...(place.country ? { 'x-svc-client-country': place.country, 'x-svc-client-region': place.region!, 'x-svc-client-city': place.city! } : {}),
    };
    const body = { s: hit.site.siteId, u: `https://${hit.site.domain}${hit.url}`, r: hit.referrer || undefined, w: hit.width, e: hit.event, p: hit.props };
    assert.equal(await server.collect(body, headers), 202);
    // Each hit leaves the steps before the next is sent, so both profiles see the same order.
    await server.ctx.ingest.settle();
  }
  clock.set(NOW);
  await server.flush();
}

const PERIODS = [
  ...PRESETS.map((p) => `period=${p}`),
  'from=2026-03-08&to=2026-03-08', // New York's spring-forward day (23 hours)
  'from=2026-03-01&to=2026-03-15',
  'from=2025-12-01&to=2026-03-20',
  'from=2025-01-01&to=2026-03-20', // longer than a year: monthly grain, before the first event
];
/** The periods read with a breakdown of every dimension (the others, of a few). */
const BROAD_PERIODS = ['period=today', 'period=30d', 'period=year', 'from=2026-03-08&to=2026-03-08'];
const FILTERS = [
  '',
  '&filter=country:FR',
  '&filter=page:/pricing',
  '&filter=event:signup',
  '&filter=utm_source:(none)',
  '&filter=browser:Firefox&filter=device:desktop',
  '&filter=referrer:news.ycombinator.com',
  '&filter=prop.plan:pro',
  `&filter=${encodeURIComponent('prop.plan:say "hi" ü')}`,
  '&filter=prop.plan:(none)',
];
/** The custom properties of the traffic, read as breakdowns over the broad periods. */
const PROPERTIES = ['prop.plan', 'prop.url'];
const METRICS = ['visitors', 'pageviews', 'sessions', 'bounceRate', 'avgDuration', 'conversions'];

/** Every read of the table for one site: path (relative to the site) → what to read. */
function readsOf(site: ScenarioSite): string[] {
  const reads = ['/realtime', '/funnels'];
  for (const period of PERIODS) {
    for (const filter of FILTERS) reads.push(`/stats?${period}${filter}`);
    for (const metric of METRICS) reads.push(`/timeseries?${period}&metric=${metric}${metric === 'visitors' ? '&compare=true' : ''}`);
    reads.push(`/timeseries?${period}&metric=pageviews&filter=country:DE`);
    for (const dimension of BROAD_PERIODS.includes(period) ? [...DIMENSIONS, ...PROPERTIES] : ['page', 'exit', 'referrer', 'country']) reads.push(`/breakdown?${period}&dimension=${dimension}&limit=5`);
    reads.push(`/breakdown?${period}&dimension=prop.plan&filter=prop.plan:pro`, `/breakdown?${period}&dimension=page&filter=prop.plan:free`);
    reads.push(`/breakdown?${period}&dimension=page&limit=3&offset=2&search=BLOG`, `/breakdown?${period}&dimension=page&filter=country:US`);
    reads.push(`/breakdown?${period}&dimension=entry&filter=browser:Safari`);
    reads.push(`/goals?${period}`);
    if (site.funnelId !== undefined) reads.push(`/funnels/${site.funnelId}?${period}`, `/funnels/${site.funnelId}?${period}&version=1`);
  }
  return reads;
}

export interface ScenarioAnswers {
  /** `site name + path` → `{status, body}` with site ids replaced by site names. */
  answers: Map<string, unknown>;
  /** Events the service stored, per site name (a sanity check that both profiles stored the same traffic). */
  stored: Record<string, number>;
}

/** Runs the whole scenario against a fresh service whose clock the caller hands over, and returns every answer. */
export async function runScenario(server: TestServer, clock: ManualClock): Promise<ScenarioAnswers> {
  clock.set(NOW);
  const sites = await setUpSites(server);
  // The history is imported as the collected days begin: an import rolls up the days before its
  // clock, and collected days rolled up before their events came would read otherwise from rollups
  // than from raw events (no service sees events arrive for days it has rolled up).
  clock.set(NOW - (NOW % DAY) - COLLECT_DAYS * DAY);
  await importHistory(server, sites);
  await collectRecent(server, clock, sites);
  assert.deepEqual((await server.admin('POST', '/maintenance/run', { tasks: ['rollup'] })).body, { ran: ['rollup'] });

  const anonymous = (text: string) => sites.reduce((t, s) => t.split(s.siteId).join(`<${s.name}>`), text);
  const answers = new Map<string, unknown>();
  const read = async (name: string, path: string, key: string) => {
    const res = await fetch(server.url + path, { headers: { authorization: `Bearer ${key}` } });
    answers.set(`${name} ${anonymous(path)}`, { status: res.status, body: JSON.parse(anonymous(await res.text())) });
  };
  const stored: Record<string, number> = {};
  for (const site of sites) {
    await read(site.name, '/v1/sites', site.key);
    for (const path of readsOf(site)) await read(site.name, `/v1/sites/${site.siteId}${path}`, site.key);
    const [row] = await server.ctx.events.query<{ n: unknown }>(sql`SELECT count(*) AS n FROM events WHERE site_id = ${site.siteId}`);
    stored[site.name] = Number(row!.n);
  }
  return { answers, stored };
}
