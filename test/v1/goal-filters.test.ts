// Goal filters over HTTP (docs/api.md, "Goal filters"): what a request with `filter=goal:<goalId>`
// is refused for (another operator, no goal id, an unknown goal, no raw=clip, a kind that takes none)
// and how it is answered on /v1 and /app/v1 (the KPIs and rows it adds, the goals read listing the
// filter's goals, a segment's goal filter); the requests without one keep their answers.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ManualClock } from '../../src/core/clock.js';
import { AppClient, signedInUser } from '../helpers/app-client.js';
import { BROWSER_UA, createApiKey, createSite, importEvents, startTestServer, type SiteFixture, type TestServer } from '../helpers/server.js';

const NOW = Date.UTC(2026, 2, 20, 12, 0);

/** Three visitors of one day: one signs up twice on /pricing, one views /pricing and orders, one views / only. */
const LINES = [
  { ip: '10.0.0.1', u: '/pricing', country: 'FR' },
  { ip: '10.0.0.1', u: '/pricing', country: 'FR', e: 'signup' },
  { ip: '10.0.0.1', u: '/pricing', country: 'FR', e: 'signup' },
  { ip: '10.0.0.2', u: '/pricing', country: 'DE' },
  { ip: '10.0.0.2', u: '/pricing', country: 'DE', e: 'order', revenue: { amount: '12.50', currency: 'EUR' } },
  { ip: '10.0.0.3', u: '/', country: 'DE' },
].map((line, n) => ({ ts: Date.parse('2026-03-19T08:00:00Z') + n * 60_000, ua: BROWSER_UA, ...line }));

describe('goal filters', () => {
  let server: TestServer;
  let site: SiteFixture;
  let key: string;
  let member: AppClient;
  let signup: number;
  let pricing: number;
  let order: number;
  let refund: number;

  before(async () => {
    server = await startTestServer({ clock: new ManualClock(NOW), env: { SVC_API_RATE_LIMIT: '100000/60s', SVC_APP_RATE_LIMIT: '100000/60s' } });
    site = await createSite(server);
    key = await createApiKey(server, site.orgId);
    signup = (await server.admin('POST', `/sites/${site.siteId}/goals`, { name: 'Signup', kind: 'event', pattern: 'signup' })).body.goalId;
    pricing = (await server.admin('POST', `/sites/${site.siteId}/goals`, { name: 'Pricing', kind: 'page', pattern: '/pricing' })).body.goalId;
    order = (await server.admin('POST', `/sites/${site.siteId}/goals`, { name: 'Order', kind: 'event', pattern: 'order', currency: 'EUR' })).body.goalId;
    refund = (await server.admin('POST', `/sites/${site.siteId}/goals`, { name: 'Refund', kind: 'event', pattern: 'refund', currency: 'USD' })).body.goalId;
    const imported = await importEvents(server, site.siteId, LINES);
    assert.equal(imported.body.rejected, 0, JSON.stringify(imported.body.errors));
    member = (await signedInUser(server, 'viewer@example.com', [{ orgId: site.orgId, role: 'viewer' }])).client;
  });
  after(() => server.stop());

  const v1 = async (path: string) => {
    const res = await fetch(`${server.url}/v1/sites/${site.siteId}${path}`, { headers: { authorization: `Bearer ${key}` } });
    return { status: res.status, body: await res.json() };
  };
  const app = (path: string) => member.request('GET', `/app/v1/sites/${site.siteId}${path}`);

  test('refusals: each with INVALID_PARAMS and a message that says what to change', async () => {
    const cases: Array<[string, RegExp]> = [
      [`/stats?period=7d&raw=clip&filter=goal!:${signup}`, /filter goal takes is only/],
      [`/stats?period=7d&raw=clip&filter=goal~:${signup}`, /filter goal takes is only/],
      ['/stats?period=7d&raw=clip&filter=goal:Signup', /goal ids as the admin API gives them .*; got Signup/],
      [`/stats?period=7d&raw=clip&filter=goal:${signup}|`, /filter goal has an empty value/],
      ['/stats?period=7d&raw=clip&filter=goal:99999', /goal 99999, which is no goal of this site/],
      [`/stats?period=7d&filter=goal:${signup}`, /add raw=clip/],
      [`/breakdown?period=7d&dimension=page&filter=goal:${signup}`, /add raw=clip/],
      [`/timeseries?period=7d&filter=goal:${signup}`, /add raw=clip/],
      [`/journeys?period=7d&filter=goal:${signup}`, /stats, timeseries, breakdown and goals only/],
      ['/timeseries?period=7d&raw=clip&metric=conversionRate', /metric conversionRate needs a goal filter/],
      ['/breakdown?period=7d&raw=clip&dimension=goal', /unknown dimension/],
    ];
    for (const [path, message] of cases) {
      const res = await v1(path);
      assert.equal(res.status, 400, path);
      assert.equal(res.body.error.code, 'INVALID_PARAMS', path);
      assert.match(res.body.error.message, message, path);
    }
  });

  test("a segment's goal filter names goals of its site only: another site's goal or none is refused when saved", async () => {
    const other = await createSite(server);
    const foreign = (await server.admin('POST', `/sites/${other.siteId}/goals`, { name: 'Elsewhere', kind: 'event', pattern: 'elsewhere' })).body.goalId;
    for (const goalId of [foreign, 99999]) {
      const created = await server.admin('POST', `/sites/${site.siteId}/segments`, { name: 'Foreign', filters: [`goal:${signup}|${goalId}`] });
      assert.equal(created.status, 400, JSON.stringify(created.body));
      assert.match(created.body.error.message, new RegExp(`goal ${goalId}, which is no goal of this site`));
    }
    const own = await server.admin('POST', `/sites/${site.siteId}/segments`, { name: 'Own', filters: [`goal:${signup}`] });
    assert.equal(own.status, 201, JSON.stringify(own.body));
    const changed = await server.admin('PATCH', `/sites/${site.siteId}/segments/${own.body.id}`, { filters: [`goal:${foreign}`] });
    assert.equal(changed.status, 400, JSON.stringify(changed.body));
    assert.equal((await server.admin('DELETE', `/sites/${site.siteId}/segments/${own.body.id}`)).status, 204);
  });

  test('a goal filter is clipped to the raw window; a period wholly before it is refused, naming the goal filter', async () => {
    const clipped = await v1(`/stats?period=90d&raw=clip&filter=goal:${signup}`);
    assert.equal(clipped.status, 200, JSON.stringify(clipped.body));
    assert.deepEqual([clipped.body.period.from, clipped.body.stats.conversions.value], ['2026-02-19', 2]);
    const before = await v1(`/stats?from=2025-01-01&to=2025-01-31&raw=clip&filter=goal:${signup}`);
    assert.equal(before.body.error.code, 'RAW_WINDOW_EXCEEDED');
    assert.match(before.body.error.message, /a goal filter reads single events/);
  });

  test('stats, breakdown and timeseries under a goal filter: converters, completions and conversion rates', async () => {
    const stats = await v1(`/stats?period=7d&raw=clip&filter=goal:${signup}`);
    assert.equal(stats.status, 200, JSON.stringify(stats.body));
    assert.deepEqual([stats.body.stats.visitors.value, stats.body.stats.conversions.value, stats.body.stats.conversionRate.value], [1, 2, 0.3333]);
    assert.equal('revenue' in stats.body.stats, false, 'no revenue goal filtered');
    // Either goal: two converters among three visitors, four completions (two signups, two views of /pricing).
    const both = await v1(`/stats?period=7d&raw=clip&filter=goal:${signup}|${pricing}`);
    assert.deepEqual([both.body.stats.visitors.value, both.body.stats.conversions.value, both.body.stats.conversionRate.value], [2, 4, 0.6667]);
    // A revenue goal adds its revenue; revenue goals of two currencies add none that sums them.
    const orders = await v1(`/stats?period=7d&raw=clip&filter=goal:${order}`);
    assert.deepEqual(orders.body.stats.revenue, { currency: 'EUR', total: 12.5, average: 12.5, otherCurrency: 0 });
    assert.equal((await v1(`/stats?period=7d&raw=clip&filter=goal:${order}|${refund}`)).body.stats.revenue, null);
    const countries = await v1(`/breakdown?period=7d&raw=clip&dimension=country&filter=goal:${pricing}`);
    assert.deepEqual(
      countries.body.rows.map((r: Record<string, unknown>) => [r.key, r.visitors, r.conversions, r.conversionRate]),
      [
        ['DE', 1, 1, 0.5],
        ['FR', 1, 1, 1],
      ],
    );
    const series = await v1(`/timeseries?period=7d&raw=clip&metric=conversionRate&filter=goal:${signup}`);
    assert.equal(series.status, 200, JSON.stringify(series.body));
    assert.deepEqual(series.body.points.map((p: { value: number | null }) => p.value), [null, null, null, null, null, 0.3333, null]);
    // Hourly conversions under a goal filter (a one-day period).
    const hourly = await v1(`/timeseries?period=yesterday&raw=clip&metric=conversions&filter=goal:${signup}`);
    assert.equal(hourly.status, 200, JSON.stringify(hourly.body));
    assert.equal(hourly.body.points.reduce((sum: number, p: { value: number | null }) => sum + (p.value ?? 0), 0), 2);
  });

  test('the requests without a goal filter keep their answers: no conversionRate, no row conversions', async () => {
    const stats = await v1('/stats?period=7d');
    assert.deepEqual(Object.keys(stats.body.stats), ['visitors', 'pageviews', 'sessions', 'bounceRate', 'avgDuration', 'conversions']);
    const breakdown = await v1('/breakdown?period=7d&raw=clip&dimension=country');
    assert.equal(breakdown.status, 200, JSON.stringify(breakdown.body));
    const rows = breakdown.body.rows;
    assert.deepEqual(Object.keys(rows[0]), ['key', 'visitors', 'views', 'pct']);
  });

  test("/app/v1's goals under a goal filter list its goals, counted under the other filters; a segment's goal filter likewise", async () => {
    const plain = await app('/goals?period=7d&filter=country:FR');
    const filtered = await app(`/goals?period=7d&filter=country:FR&filter=goal:${signup}`);
    assert.equal(filtered.status, 200, filtered.text);
    assert.deepEqual(filtered.body.goals, plain.body.goals.filter((g: { goalId: number }) => g.goalId === signup));
    const segment = await server.admin('POST', `/sites/${site.siteId}/segments`, { name: 'Pricing viewers', filters: [`goal:${pricing}`] });
    assert.equal(segment.status, 201, JSON.stringify(segment.body));
    const bySegment = await app(`/goals?period=7d&segment=${segment.body.id}`);
    assert.deepEqual(bySegment.body.goals.map((g: { goalId: number }) => g.goalId), [pricing]);
    const stats = await app(`/stats?period=7d&raw=clip&segment=${segment.body.id}`);
    assert.deepEqual([stats.body.stats.visitors.value, stats.body.stats.conversionRate.value], [2, 0.6667]);
  });
});
