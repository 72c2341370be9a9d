// Conversions under filters (docs/api.md, "Conversions under filters"): with `raw=clip`, `/v1/stats`'s Conversions
// and `/app/v1`'s goals read with `filter` are checked against a plain model of a small fixture
// (every visitor's events written out, the filters and goals applied by hand), over rolled-up and
// raw days; `/v1/goals` still refuses filters, the raw window applies to the goals read and
// `raw=clip` clips it.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ManualClock } from '../../src/core/clock.js';
import { addDays } from '../../src/core/localtime.js';
import { COUNTED_SINCE_HEADER, RAW_WINDOW_HEADER } from '../../src/core/answer-headers.js';
import { seededRandom } from '../../src/core/seeded-random.js';
import { AppClient, signedInUser } from '../helpers/app-client.js';
import { BROWSER_UA, createApiKey, createSite, importEvents, startTestServer, type SiteFixture, type TestServer } from '../helpers/server.js';

const NOW = Date.UTC(2026, 2, 20, 12, 0);
const TODAY = '2026-03-20';

/** One visitor's day: one session, every event carrying its country (the referrer on its first). */
interface Visit {
  day: string;
  ip: string;
  country: string;
  referrer: string | null;
  events: Array<{ name: string; page: string; plan?: string }>;
}

/** 45 days of visits, drawn from a seed: pageviews of / and /pricing, signups on either page. */
function visits(): Visit[] {
  const random = seededRandom(51);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)]!;
  const out: Visit[] = [];
  for (let i = 0; i <= 45; i++) {
    const day = addDays(TODAY, -i);
    for (let j = 0; j < 1 + Math.floor(random() * 6); j++) {
      const events: Visit['events'] = [{ name: 'pageview', page: '/' }];
      if (random() < 0.6) events.push({ name: 'pageview', page: '/pricing' });
      for (let k = Math.floor(random() * 3); k > 0; k--) events.push({ name: 'signup', page: pick(['/', '/pricing']), plan: pick(['pro', 'free']) });
      out.push({ day, ip: `10.${i}.${j}.1`, country: pick(['FR', 'DE']), referrer: random() < 0.5 ? 'https://www.google.com/' : null, events });
    }
  }
  return out;
}

function importLines(all: readonly Visit[]) {
  return all.flatMap((v) =>
    v.events.map((e, n) => ({
      // Today's visits before NOW, the others in the morning.
      ts: Date.parse(`${v.day}T0${v.day === TODAY ? 9 : 8}:00:00Z`) + n * 60_000,
      ua: BROWSER_UA,
      ip: v.ip,
      u: e.page,
      country: v.country,
      ...(n === 0 && v.referrer ? { r: v.referrer } : {}),
      ...(e.name === 'pageview' ? {} : { e: e.name, p: { plan: e.plan } }),
    })),
  );
}

type ModelFilter = (v: Visit, e: Visit['events'][number]) => boolean;
/** The filters as docs/api.md defines them: a session dimension keeps every event of the session, page, event and prop.<key> the matching events. */
const FILTERS: Record<string, ModelFilter> = {
  'country:FR': (v) => v.country === 'FR',
  'referrer:(none)': (v) => v.referrer === null,
  'page:/pricing': (_, e) => e.page === '/pricing',
  'event:signup': (_, e) => e.name === 'signup',
  'prop.plan:pro': (_, e) => e.plan === 'pro',
};
const GOALS = [
  { name: 'Signup', kind: 'event', pattern: 'signup', matches: (e: Visit['events'][number]) => e.name === 'signup' },
  { name: 'Pricing', kind: 'page', pattern: '/pricing', matches: (e: Visit['events'][number]) => e.name === 'pageview' && e.page === '/pricing' },
] as const;

/** Per goal, conversions and unique conversions (distinct visitors a day, summed over days), and the visitors, over the days under the filters. */
function model(all: readonly Visit[], from: string, to: string, filters: readonly string[]) {
  const kept = all
    .filter((v) => v.day >= from && v.day <= to)
    .map((v) => ({ v, events: v.events.filter((e) => filters.every((f) => FILTERS[f]!(v, e))) }))
    .filter((k) => k.events.length > 0);
  const goals = GOALS.map((g) => {
    const converting = kept.map((k) => k.events.filter(g.matches).length).filter((n) => n > 0);
    return { conversions: converting.reduce((a, n) => a + n, 0), uniqueConversions: converting.length };
  });
  return { visitors: kept.length, goals };
}

describe('conversions under filters', () => {
  let server: TestServer;
  let site: SiteFixture;
  let key: string;
  let member: AppClient;
  const all = visits();

  before(async () => {
    server = await startTestServer({ clock: new ManualClock(NOW), env: { SVC_API_RATE_LIMIT: '100000/60s', SVC_APP_RATE_LIMIT: '100000/60s' } });
    site = await createSite(server);
    key = await createApiKey(server, site.orgId);
    for (const g of GOALS) assert.equal((await server.admin('POST', `/sites/${site.siteId}/goals`, { name: g.name, kind: g.kind, pattern: g.pattern })).status, 201);
    const imported = await importEvents(server, site.siteId, importLines(all));
    assert.equal(imported.body.rejected, 0, JSON.stringify(imported.body.errors));
    await server.admin('POST', '/maintenance/run', { tasks: ['rollup'] });
    member = (await signedInUser(server, 'viewer@example.com', [{ orgId: site.orgId, role: 'viewer' }])).client;
  });
  after(() => server.stop());

  const v1 = async (path: string) => {
    const res = await fetch(`${server.url}/v1/sites/${site.siteId}${path}`, { headers: { authorization: `Bearer ${key}` } });
    return { status: res.status, headers: res.headers, body: await res.json() };
  };
  const app = (path: string) => member.request('GET', `/app/v1/sites/${site.siteId}${path}`);
  const query = (filters: readonly string[], rest: string) => [rest, ...filters.map((f) => `filter=${encodeURIComponent(f)}`)].join('&');

  const cases: Array<readonly string[]> = [[], ...Object.keys(FILTERS).map((f) => [f]), ['country:FR', 'page:/pricing'], ['referrer:(none)', 'event:signup'], ['country:FR', 'prop.plan:pro']];

  test('the stats Conversions KPI and the goals read count what the model counts, period and compared period', async () => {
    let counted = 0;
    for (const filters of cases) {
      // With raw=clip (the dashboard's request); without it, the base API's: null under filters.
      const stats = await v1(`/stats?${query(filters, 'period=7d&raw=clip')}`);
      assert.equal(stats.status, 200, JSON.stringify(stats.body));
      if (filters.length > 0) assert.deepEqual((await v1(`/stats?${query(filters, 'period=7d')}`)).body.stats.conversions, { value: null, prev: null, deltaPct: 0 });
      const { from, to } = stats.body.period;
      const now = model(all, from, to, filters);
      const days = 1 + (Date.parse(to) - Date.parse(from)) / 86_400_000;
      const before = model(all, addDays(from, -days), addDays(from, -1), filters);
      const sum = (m: ReturnType<typeof model>) => m.goals.reduce((a, g) => a + g.conversions, 0);
      const label = filters.join(' ') || 'no filter';
      assert.equal(stats.body.stats.conversions.value, sum(now), label);
      assert.equal(stats.body.stats.conversions.prev, sum(before), label);
      assert.equal(stats.body.stats.visitors.value, now.visitors, label);
      counted += sum(now);

      const goals = await app(`/goals?${query(filters, 'period=7d')}`);
      assert.equal(goals.status, 200, `${label}: ${goals.text}`);
      assert.deepEqual(
        goals.body.goals.map((g: Record<string, number>) => [g.conversions, g.uniqueConversions, g.conversionRate]),
        now.goals.map((g) => [g.conversions, g.uniqueConversions, now.visitors > 0 ? Math.round((g.uniqueConversions / now.visitors) * 10_000) / 10_000 : 0]),
        label,
      );
    }
    assert.ok(counted > 50, 'the fixture converts');
  });

  test('/v1/goals still refuses filter and raw=clip; /app/v1 answers both mounts alike without them', async () => {
    assert.equal((await v1('/goals?period=7d&filter=country:FR')).status, 400);
    assert.equal((await v1('/goals?period=7d&raw=clip')).status, 400);
    const [plain, own] = [await v1('/goals?period=7d'), await app('/goals?period=7d')];
    assert.deepEqual(own.body, plain.body);
  });

  test('the raw window: the filtered goals read past it is refused, or clipped with raw=clip; stats count conversions only inside it', async () => {
    const refused = await app('/goals?period=90d&filter=country:FR');
    assert.equal(refused.status, 400);
    assert.equal(refused.body.error.code, 'RAW_WINDOW_EXCEEDED');
    assert.match(refused.body.error.message, /conversions under a filter/);
    const clipped = await app('/goals?period=90d&filter=country:FR&raw=clip');
    assert.equal(clipped.status, 200);
    const windowStart = addDays(TODAY, -29);
    assert.deepEqual(clipped.body.period, { from: windowStart, to: TODAY });
    assert.equal(clipped.headers.get(RAW_WINDOW_HEADER), `clipped; from=${addDays(TODAY, -89)}`);
    const m = model(all, windowStart, TODAY, ['country:FR']);
    assert.deepEqual(
      clipped.body.goals.map((g: Record<string, number>) => g.conversions),
      m.goals.map((g) => g.conversions),
    );
    // One filter over 90 days: the traffic from rollups over the whole period, the conversions from raw
    // events of the days inside the window, uncompared, and the header says from which day (on both mounts).
    for (const long of [await v1('/stats?period=90d&filter=country:FR&raw=clip'), await app('/stats?period=90d&filter=country:FR&raw=clip')]) {
      assert.equal(long.status, 200);
      assert.equal(long.body.period.from, addDays(TODAY, -89));
      assert.equal(long.body.stats.visitors.value, model(all, addDays(TODAY, -89), TODAY, ['country:FR']).visitors);
      const inWindow = m.goals.reduce((a, g) => a + g.conversions, 0);
      assert.deepEqual(long.body.stats.conversions, { value: inWindow, prev: null, deltaPct: null });
      assert.equal(long.headers.get(COUNTED_SINCE_HEADER), `conversions=${windowStart}`);
      assert.equal(long.headers.get(RAW_WINDOW_HEADER), null, 'the read itself is not clipped');
    }
    assert.equal((await v1('/stats?period=30d&filter=country:FR&raw=clip')).headers.get(COUNTED_SINCE_HEADER), null, 'a period inside the window: counted whole');
    // 30 days inside the window, compared with 30 days outside it: counted, with no change.
    const month = await v1('/stats?period=30d&filter=country:FR&raw=clip');
    const { from, to } = month.body.period;
    const counted = model(all, from, to, ['country:FR']).goals.reduce((a, g) => a + g.conversions, 0);
    assert.deepEqual(month.body.stats.conversions, { value: counted, prev: null, deltaPct: null });
  });

  test('a timeseries of conversions under a filter counts each day as the model does', async () => {
    const series = await v1('/timeseries?period=7d&metric=conversions&filter=country:FR&raw=clip');
    assert.equal(series.status, 200, JSON.stringify(series.body));
    // The base API's request (no raw=clip): conversions do not take filters.
    assert.equal((await v1('/timeseries?period=7d&metric=conversions&filter=country:FR')).body.error.code, 'METRIC_NOT_FILTERABLE');
    for (const point of series.body.points) {
      const day = new Date(point.t).toISOString().slice(0, 10);
      const expected = model(all, day, day, ['country:FR']).goals.reduce((a, g) => a + g.conversions, 0);
      assert.equal(point.value, expected, day);
    }
  });
});
