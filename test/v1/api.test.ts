// The read API end to end: a real listening server, fixtures imported through the admin API,
// table-driven checks of every endpoint, parameter, error code and header of docs/api.md.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ManualClock } from '../../src/core/clock.js';
import { DIMENSIONS, PRESETS } from '../../src/core/vocabulary.js';
import { startTestServer, createSite, createApiKey, importEvents, BROWSER_UA, type TestServer, type SiteFixture } from '../helpers/server.js';

const NOW = Date.UTC(2026, 2, 20, 12, 0); // Friday 2026-03-20, 12:00 UTC
const TODAY = '2026-03-20';
const YESTERDAY = '2026-03-19';
const at = (day: string, time: string) => Date.parse(`${day}T${time}Z`);

const SAFARI_IOS = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';
const FIREFOX_LINUX = 'Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0';

/**
 * Yesterday, three visitors with known answers: visitors 3, pageviews 5, sessions 3, 1 bounce,
 * durations 120 s + 5 s + 1200 s, conversions 3 (two /pricing views and one signup).
 */
function yesterdayLines() {
  const paris = { country: 'FR', region: 'Île-de-France', city: 'Paris' };
  const sf = { country: 'US', region: 'California', city: 'San Francisco' };
  const v1 = { ua: BROWSER_UA, ip: '203.0.113.1', w: 1400, ...paris };
  const v2 = { ua: SAFARI_IOS, ip: '203.0.113.2', w: 390, ...sf };
  const v3 = { ua: FIREFOX_LINUX, ip: '203.0.113.3', w: 800 };
  return [
    { ...v1, ts: at(YESTERDAY, '09:00:00'), u: '/?utm_source=newsletter&utm_medium=email&utm_campaign=spring', r: 'https://www.google.com/search' },
    { ...v1, ts: at(YESTERDAY, '09:01:00'), u: '/pricing' },
    { ...v1, ts: at(YESTERDAY, '09:02:00'), u: '/pricing', e: 'signup' },
    { ...v2, ts: at(YESTERDAY, '10:00:00'), u: '/blog/a' },
    { ...v2, ts: at(YESTERDAY, '10:00:30'), u: '/blog/a', e: 'engage', p: { t: 5000, d: 40 } },
    { ...v3, ts: at(YESTERDAY, '11:00:00'), u: '/docs', r: 'https://news.ycombinator.com/item?id=1' },
    { ...v3, ts: at(YESTERDAY, '11:20:00'), u: '/pricing' },
  ];
}

/** Background traffic: two visitors a day over the 45 days before yesterday, and a few today. */
function backgroundLines() {
  const lines: Array<Record<string, unknown>> = [];
  for (let i = 2; i <= 45; i++) {
    const day = new Date(NOW - i * 86_400_000).toISOString().slice(0, 10);
    lines.push({ ts: at(day, '08:00:00'), ua: BROWSER_UA, ip: '198.51.100.7', u: '/', country: 'DE' });
    lines.push({ ts: at(day, '08:05:00'), ua: BROWSER_UA, ip: '198.51.100.7', u: '/blog/b' });
    lines.push({ ts: at(day, '15:00:00'), ua: SAFARI_IOS, ip: '198.51.100.8', u: '/pricing', country: 'DE', r: 'https://duckduckgo.com/' });
  }
  for (const [time, ip] of [['11:50:00', '192.0.2.10'], ['11:57:00', '192.0.2.11'], ['11:58:30', '192.0.2.10']] as const) {
    lines.push({ ts: at(TODAY, time), ua: BROWSER_UA, ip, u: time === '11:58:30' ? '/pricing' : '/', country: 'FR', r: 'https://t.co/x' });
  }
  return lines;
}

describe('/v1 read API', () => {
  let server: TestServer;
  let site: SiteFixture;
  let key: string;
  let otherKey: string;
  let other: SiteFixture;

  before(async () => {
    server = await startTestServer({ clock: new ManualClock(NOW), env: { SVC_API_RATE_LIMIT: '100000/60s' } });
    site = await createSite(server, { timezone: 'UTC' });
    key = await createApiKey(server, site.orgId);
    other = await createSite(server, { timezone: 'Europe/Paris' });
    otherKey = await createApiKey(server, other.orgId);
    const goals = [
      { name: 'Pricing', kind: 'page', pattern: '/pricing' },
      { name: 'Signup', kind: 'event', pattern: 'signup' },
    ];
    for (const g of goals) assert.equal((await server.admin('POST', `/sites/${site.siteId}/goals`, g)).status, 201);
    const funnel = await server.admin('POST', `/sites/${site.siteId}/funnels`, {
      name: 'Buy',
      windowMinutes: 30,
      steps: [{ kind: 'page', pattern: '/' }, { kind: 'page', pattern: '/pricing' }, { kind: 'event', pattern: 'signup' }],
    });
    assert.equal(funnel.status, 201);
    const v2 = await server.admin('PUT', `/sites/${site.siteId}/funnels/${funnel.body.id}/steps`, {
      steps: [{ kind: 'page', pattern: '/**' }, { kind: 'page', pattern: '/pricing' }],
    });
    assert.equal(v2.body.version, 2);
    const report = await importEvents(server, site.siteId, [...yesterdayLines(), ...backgroundLines()]);
    assert.equal(report.status, 200);
    assert.equal(report.body.rejected, 0, JSON.stringify(report.body.errors));
  });

  after(() => server.stop());

  const get = async (path: string, apiKey: string | null = key, method = 'GET') => {
    const res = await fetch(server.url + path, { method, headers: apiKey === null ? {} : { authorization: `Bearer ${apiKey}` } });
    const text = await res.text();
    return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
  };
  const sitePath = (rest: string) => `/v1/sites/${site.siteId}${rest}`;

  test('stats of a closed day, from rollups, with the previous day', async () => {
    const res = await get(sitePath(`/stats?from=${YESTERDAY}&to=${YESTERDAY}`));
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.period, { from: YESTERDAY, to: YESTERDAY, grain: 'hour', tz: 'UTC' });
    const s = res.body.stats;
    assert.deepEqual(s.visitors, { value: 3, prev: 2, deltaPct: 50 });
    assert.deepEqual(s.pageviews, { value: 5, prev: 3, deltaPct: 66.7 });
    assert.deepEqual(s.sessions, { value: 3, prev: 2, deltaPct: 50 });
    assert.equal(s.bounceRate.value, 0.3333);
    assert.equal(s.bounceRate.prev, 0.5);
    assert.equal(s.avgDuration.value, 441.7);
    assert.deepEqual(s.conversions, { value: 3, prev: 1, deltaPct: 200 });
  });

  test('conventions: JSON content type, no-store, no CORS, on answers and errors alike', async () => {
    for (const path of ['/v1/sites', sitePath('/stats?period=bogus'), '/v1/nope']) {
      const res = await fetch(server.url + path, { headers: { authorization: `Bearer ${key}`, origin: 'https://evil.example' } });
      assert.equal(res.headers.get('content-type'), 'application/json; charset=utf-8', path);
      assert.equal(res.headers.get('cache-control'), 'no-store', path);
      for (const [name] of res.headers as unknown as Iterable<[string, string]>) assert.ok(!name.startsWith('access-control-'), `${path}: ${name}`);
    }
  });

  test('authentication: one identical 401 for missing, malformed, unknown and revoked keys, before 404 and 405', async () => {
    const created = await server.admin('POST', `/orgs/${site.orgId}/keys`, { name: 'to revoke' });
    const revoked: string = created.body.key;
    assert.equal((await get('/v1/sites', revoked)).status, 200);
    assert.equal((await server.admin('POST', `/keys/${created.body.id}/revoke`)).status, 200);
    const cases: Array<[string, string | null, string, string]> = [
      ['missing', null, '/v1/sites', 'GET'],
      ['malformed', 'svc_short', '/v1/sites', 'GET'],
      ['wrong prefix', 'abc_' + 'A'.repeat(32), '/v1/sites', 'GET'],
      ['unknown', 'svc_' + 'Z'.repeat(32), '/v1/sites', 'GET'],
      ['revoked', revoked, '/v1/sites', 'GET'],
      ['before 404', null, '/v1/unknown/route', 'GET'],
      ['before 404 of a site', 'svc_' + 'Z'.repeat(32), '/v1/sites/nosuchsite/stats', 'GET'],
      ['before 405', null, '/v1/sites', 'POST'],
    ];
    const bodies = new Set<string>();
    for (const [label, apiKey, path, method] of cases) {
      const res = await get(path, apiKey, method);
      assert.equal(res.status, 401, label);
      assert.equal(res.body.error.code, 'UNAUTHORIZED', label);
      bodies.add(JSON.stringify(res.body));
    }
    assert.equal(bodies.size, 1);
    const lowercase = await fetch(server.url + '/v1/sites', { headers: { authorization: `bearer ${key}` } });
    assert.equal(lowercase.status, 200);
  });

  test('other methods answer 405 with allow: GET; unknown routes 404', async () => {
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS']) {
      const res = await fetch(server.url + sitePath('/stats'), { method, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: ['POST', 'PUT', 'PATCH'].includes(method) ? '{"x":1}' : undefined });
      assert.equal(res.status, 405, method);
      assert.equal(res.headers.get('allow'), 'GET', method);
      if (method !== 'HEAD') assert.equal(((await res.json()) as any).error.code, 'METHOD_NOT_ALLOWED', method);
    }
    for (const path of ['/v1', '/v1/nope', sitePath('/nope'), sitePath('/funnels/1/extra')]) {
      const res = await get(path);
      assert.equal(res.status, 404, path);
      assert.equal(res.body.error.code, 'NOT_FOUND', path);
    }
  });

  test('sites: the organisation\'s active sites only; archived and foreign sites are 404 everywhere', async () => {
    const archived = await server.admin('POST', `/orgs/${site.orgId}/sites`, { domain: `archived-${process.pid}.example`, name: 'Old', timezone: 'UTC' });
    assert.equal((await server.admin('PATCH', `/sites/${archived.body.id}`, { status: 'archived' })).status, 200);
    const list = await get('/v1/sites');
    assert.deepEqual(list.body, { sites: [{ id: site.siteId, domain: site.domain, name: list.body.sites[0].name, timezone: 'UTC', retentionMonths: null }] });
    const notFound = new Set<string>();
    for (const id of [archived.body.id, other.siteId, 'doesNotExist1']) {
      for (const rest of ['/stats', '/timeseries', '/breakdown?dimension=page', '/realtime', '/goals', '/funnels', '/funnels/1']) {
        const res = await get(`/v1/sites/${id}${rest}`);
        assert.equal(res.status, 404, `${id}${rest}`);
        notFound.add(JSON.stringify(res.body));
      }
    }
    assert.equal(notFound.size, 1, 'archived, foreign and unknown sites are indistinguishable');
    assert.equal((await get(`/v1/sites/${other.siteId}/stats`, otherKey)).status, 200);
  });

  test('every period preset resolves in the site zone', async () => {
    const expected: Record<string, [string, string]> = {
      today: [TODAY, TODAY],
      yesterday: [YESTERDAY, YESTERDAY],
      '7d': ['2026-03-14', TODAY],
      '30d': ['2026-02-19', TODAY],
      '90d': ['2025-12-21', TODAY],
      month: ['2026-03-01', TODAY],
      last_month: ['2026-02-01', '2026-02-28'],
      year: ['2026-01-01', TODAY],
      '12mo': ['2025-04-01', TODAY],
      all: ['2026-02-03', TODAY], // the first day of the background traffic
    };
    assert.deepEqual(Object.keys(expected).sort(), [...PRESETS].sort());
    for (const [preset, [from, to]] of Object.entries(expected)) {
      const res = await get(sitePath(`/stats?period=${preset}`));
      assert.equal(res.status, 200, preset);
      assert.deepEqual([res.body.period.from, res.body.period.to], [from, to], preset);
    }
    const byDefault = await get(sitePath('/stats'));
    assert.deepEqual([byDefault.body.period.from, byDefault.body.period.to], expected['30d']);
    // `all` takes the grain and the previous period of its days; a site without data reads today alone.
    const all = await get(sitePath('/timeseries?period=all&compare=true'));
    assert.deepEqual([all.body.grain, all.body.points.length, all.body.prev.length], ['day', 46, 46]);
    assert.equal((await get(sitePath('/timeseries?period=12mo'))).body.grain, 'week');
    const empty = await get(`/v1/sites/${other.siteId}/stats?period=all`, otherKey);
    assert.deepEqual([empty.status, empty.body.period.from, empty.body.period.to], [200, '2026-03-20', '2026-03-20']);
    for (const read of ['goals?', 'breakdown?dimension=page&']) {
      const res = await get(sitePath(`/${read}period=all`));
      assert.deepEqual([res.status, res.body.period.from], [200, '2026-02-03'], read);
    }
    const explicit = await get(sitePath(`/goals?period=7d&from=2026-01-05&to=2026-01-06`));
    assert.deepEqual(explicit.body.period, { from: '2026-01-05', to: '2026-01-06' }, 'from/to take priority');
  });

  test('each grain, with bucket counts and starts', async () => {
    const cases: Array<[string, string, number, (t: number) => boolean]> = [
      ['period=today', 'hour', 24, (t) => t % 3_600_000 === 0],
      [`from=${YESTERDAY}&to=${TODAY}`, 'hour', 48, (t) => t % 3_600_000 === 0],
      ['period=7d', 'day', 7, (t) => t % 86_400_000 === 0],
      ['from=2025-12-21&to=2026-03-20', 'day', 90, (t) => t % 86_400_000 === 0],
      ['from=2025-03-20&to=2026-03-20', 'week', 53, (t) => new Date(t).getUTCDay() === 1],
      ['from=2024-03-20&to=2026-03-20', 'month', 25, (t) => new Date(t).getUTCDate() === 1],
    ];
    for (const [params, grain, count, aligned] of cases) {
      const res = await get(sitePath(`/timeseries?${params}`));
      assert.equal(res.status, 200, params);
      assert.equal(res.body.grain, grain, params);
      assert.equal(res.body.period.grain, grain, params);
      assert.equal(res.body.tz, 'UTC');
      assert.equal(res.body.points.length, count, params);
      assert.ok(res.body.points.every((p: { t: number }) => aligned(p.t)), params);
      assert.equal(res.body.prev, undefined, 'prev only with compare=true');
    }
    const week = await get(sitePath('/timeseries?from=2025-03-20&to=2026-03-20'));
    assert.equal(week.body.points[0].t, Date.UTC(2025, 2, 17), 'the first week starts on its Monday, before the period');
  });

  test('timeseries values, nulls for the future and for rates without sessions, and comparison', async () => {
    const days = await get(sitePath(`/timeseries?from=2026-03-18&to=2026-03-22&compare=true`));
    assert.deepEqual(days.body.points.map((p: { value: number | null }) => p.value), [2, 3, 2, null, null]);
    assert.equal(days.body.prev.length, 5);
    assert.equal(days.body.prev[0].t, Date.UTC(2026, 2, 13));
    const bounce = await get(sitePath(`/timeseries?metric=bounceRate&from=2026-03-21&to=2026-03-23`));
    assert.deepEqual(bounce.body.points.map((p: { value: number | null }) => p.value), [null, null, null]);
    const hours = await get(sitePath(`/timeseries?metric=pageviews&period=yesterday`));
    const byHour = hours.body.points.map((p: { value: number | null }) => p.value);
    assert.deepEqual([byHour[8], byHour[9], byHour[10], byHour[11]], [0, 2, 1, 2]);
    const today = await get(sitePath(`/timeseries?metric=visitors&period=today`));
    assert.equal(today.body.points[11].value, 2);
    assert.equal(today.body.points[13].value, null, 'a future hour is null');
    for (const metric of ['visitors', 'pageviews', 'sessions', 'bounceRate', 'avgDuration', 'conversions']) {
      const res = await get(sitePath(`/timeseries?metric=${metric}&period=30d&compare=true`));
      assert.equal(res.status, 200, metric);
      assert.equal(res.body.points.length, 30);
      assert.equal(res.body.prev.length, 30);
    }
    const conv = await get(sitePath(`/timeseries?metric=conversions&from=${YESTERDAY}&to=2026-03-21`));
    assert.equal(conv.body.points[0].value, 3);
  });

  test('every error code of the catalogue', async () => {
    const cases: Array<[string, number, string]> = [
      ['/stats?period=century', 400, 'INVALID_PARAMS'],
      ['/stats?from=2026-03-01', 400, 'INVALID_PARAMS'],
      ['/stats?to=2026-03-01', 400, 'INVALID_PARAMS'],
      ['/stats?from=2026-02-30&to=2026-03-01', 400, 'INVALID_PARAMS'],
      ['/stats?period=7d&period=30d', 400, 'INVALID_PARAMS'],
      ['/stats?filter=planet:mars', 400, 'INVALID_PARAMS'],
      ['/stats?filter=page:', 400, 'INVALID_PARAMS'],
      ['/stats?filter=page', 400, 'INVALID_PARAMS'],
      ['/stats?filter=page:/a&filter=page:/b', 400, 'INVALID_PARAMS'],
      ['/breakdown', 400, 'INVALID_PARAMS'],
      ['/breakdown?dimension=planet', 400, 'INVALID_PARAMS'],
      ['/breakdown?dimension=page&limit=0', 400, 'INVALID_PARAMS'],
      ['/breakdown?dimension=page&limit=1001', 400, 'INVALID_PARAMS'],
      ['/breakdown?dimension=page&limit=ten', 400, 'INVALID_PARAMS'],
      ['/breakdown?dimension=page&offset=-1', 400, 'INVALID_PARAMS'],
      [`/breakdown?dimension=page&search=${'x'.repeat(257)}`, 400, 'INVALID_PARAMS'],
      ['/timeseries?metric=revenue', 400, 'INVALID_PARAMS'],
      ['/timeseries?compare=yes', 400, 'INVALID_PARAMS'],
      ['/goals?filter=page:/', 400, 'INVALID_PARAMS'],
      ['/funnels/1?version=latest', 400, 'INVALID_PARAMS'],
      ['/stats?from=2026-03-10&to=2026-03-01', 400, 'INVALID_PERIOD'],
      ['/stats?period=90d&filter=page:/&filter=country:FR', 400, 'RAW_WINDOW_EXCEEDED'],
      ['/breakdown?dimension=page&period=90d&filter=country:FR', 400, 'RAW_WINDOW_EXCEEDED'],
      ['/timeseries?metric=sessions&filter=country:FR', 400, 'METRIC_NOT_FILTERABLE'],
      ['/timeseries?metric=bounceRate&filter=page:/', 400, 'METRIC_NOT_FILTERABLE'],
      ['/timeseries?metric=conversions&filter=country:FR', 400, 'METRIC_NOT_FILTERABLE'],
      ['/timeseries?metric=conversions&period=today', 400, 'HOURLY_CONVERSIONS_UNSUPPORTED'],
      ['/funnels/999', 404, 'NOT_FOUND'],
      ['/funnels/abc', 404, 'NOT_FOUND'],
    ];
    for (const [rest, status, code] of cases) {
      const res = await get(sitePath(rest));
      assert.equal(res.status, status, rest);
      assert.equal(res.body.error.code, code, rest);
      assert.equal(typeof res.body.error.message, 'string');
    }
    // Within the raw window, two filters and a crossed breakdown are answered.
    assert.equal((await get(sitePath('/stats?period=30d&filter=page:/&filter=country:FR'))).status, 200);
    assert.equal((await get(sitePath('/breakdown?dimension=page&period=30d&filter=country:FR'))).status, 200);
    // raw=clip: the part of the period inside the raw window (2026-02-19 on), the day asked for in a
    // header, figures as a request of those days would read them, no change where the compared days lie outside.
    const window = { from: '2026-02-19', to: TODAY };
    for (const [rest, days] of [
      ['/stats?period=90d&filter=page:/&filter=country:DE', '/stats?from=2026-02-19&to=2026-03-20&filter=page:/&filter=country:DE&comparison=off'],
      ['/timeseries?period=90d&filter=page:/&filter=country:DE&compare=true', '/timeseries?from=2026-02-19&to=2026-03-20&filter=page:/&filter=country:DE'],
      ['/breakdown?dimension=page&period=90d&filter=country:DE', '/breakdown?dimension=page&from=2026-02-19&to=2026-03-20&filter=country:DE'],
    ] as const) {
      const clipped = await get(sitePath(`${rest}&raw=clip`));
      assert.equal(clipped.status, 200, rest);
      assert.equal(clipped.headers.get('svc-raw-window'), 'clipped; from=2025-12-21', rest);
      assert.deepEqual([clipped.body.period.from, clipped.body.period.to], [window.from, window.to], rest);
      assert.equal(clipped.body.period.grain, 'day', rest);
      // raw=clip on the days inside the window too: it changes nothing there (and counts conversions under filters).
      const plain = await get(sitePath(`${days}&raw=clip`));
      assert.equal(plain.headers.get('svc-raw-window'), null);
      if (rest.startsWith('/stats')) {
        for (const [metric, kpi] of Object.entries(clipped.body.stats as Record<string, { value: unknown; prev: unknown; deltaPct: unknown }>)) {
          assert.equal(kpi.value, plain.body.stats[metric].value, metric);
          if (kpi.value !== null) assert.deepEqual([kpi.prev, kpi.deltaPct], [null, null], `${metric}: the compared days lie outside the window`);
        }
        assert.ok(clipped.body.stats.visitors.value > 0);
      } else if (rest.startsWith('/timeseries')) {
        assert.deepEqual(clipped.body.points, plain.body.points);
        assert.equal(clipped.body.prev, undefined, 'no previous points outside the window');
      } else assert.deepEqual(clipped.body.rows, plain.body.rows);
    }
    // Inside the window nothing is clipped; before it entirely, refused as without raw=clip; other values refused.
    assert.equal((await get(sitePath('/stats?period=7d&filter=page:/&filter=country:DE&raw=clip'))).headers.get('svc-raw-window'), null);
    assert.equal((await get(sitePath('/stats?from=2026-01-01&to=2026-01-31&filter=page:/&filter=country:DE&raw=clip'))).body.error.code, 'RAW_WINDOW_EXCEEDED');
    assert.equal((await get(sitePath('/stats?period=90d&filter=page:/&filter=country:DE&raw=yes'))).body.error.code, 'INVALID_PARAMS');
    assert.equal((await get(sitePath('/goals?period=90d&raw=clip'))).body.error.code, 'INVALID_PARAMS');
    // In stats, a KPI that does not take the filter is null rather than an error.
    const filtered = await get(sitePath(`/stats?period=yesterday&filter=page:/pricing`));
    assert.deepEqual(filtered.body.stats.sessions, { value: null, prev: null, deltaPct: 0 });
    assert.deepEqual(filtered.body.stats.bounceRate, { value: null, prev: null, deltaPct: 0 });
    // Conversions are null under filters (base API); with raw=clip (the dashboard's reads) they take every filter:
    // the goal events on /pricing (two views and the signup sent from it).
    assert.deepEqual(filtered.body.stats.conversions, { value: null, prev: null, deltaPct: 0 });
    const analysed = await get(sitePath(`/stats?period=yesterday&filter=page:/pricing&raw=clip`));
    assert.deepEqual(analysed.body.stats.conversions, { value: 3, prev: 1, deltaPct: 200 });
    assert.equal(filtered.body.stats.pageviews.value, 2);
  });

  test('INVALID_TIMEZONE for a site whose zone became invalid, and INTERNAL without internals', async () => {
    const broken = await createSite(server, { timezone: 'UTC' });
    const brokenKey = await createApiKey(server, broken.orgId);
    await server.ctx.meta.updateSite(broken.siteId, { timezone: 'Mars/Olympus_Mons' });
    for (const rest of ['/stats', '/timeseries', '/breakdown?dimension=page', '/goals', '/realtime', '/funnels/1']) {
      const res = await get(`/v1/sites/${broken.siteId}${rest}`, brokenKey);
      assert.deepEqual([res.status, res.body.error.code], [400, 'INVALID_TIMEZONE'], rest);
    }
    const events = server.ctx.events;
    const query = events.query.bind(events);
    events.query = async () => {
      throw new Error('disk /var/secret/events.duckdb exploded');
    };
    try {
      const res = await get(sitePath('/stats'));
      assert.equal(res.status, 500);
      assert.equal(res.body.error.code, 'INTERNAL');
      assert.doesNotMatch(JSON.stringify(res.body), /secret|duckdb|exploded/);
    } finally {
      events.query = query;
    }
  });

  test('each of the 14 dimensions as breakdown and as filter agree', async () => {
    for (const dimension of DIMENSIONS) {
      for (const period of [`from=${YESTERDAY}&to=${YESTERDAY}`, 'period=30d']) {
        const res = await get(sitePath(`/breakdown?dimension=${dimension}&${period}`));
        assert.equal(res.status, 200, dimension);
        assert.equal(res.body.dimension, dimension);
        assert.ok(res.body.rows.length > 0, dimension);
        assert.equal(res.body.totalKeys, res.body.rows.length);
        if (dimension === 'event') assert.ok(res.body.rows.every((r: { key: string }) => r.key !== 'engage'));
        for (const row of res.body.rows) {
          const filter = encodeURIComponent(`${dimension}:${row.key}`);
          const stats = await get(sitePath(`/stats?${period}&filter=${filter}`));
          assert.equal(stats.status, 200, `${dimension}:${row.key}`);
          assert.equal(stats.body.stats.visitors.value, row.visitors, `${period} ${dimension}:${row.key} visitors`);
          if (dimension !== 'event') assert.equal(stats.body.stats.pageviews.value, row.views, `${dimension}:${row.key} views`);
          assert.equal(row.pct, Math.round((row.visitors / res.body.totalVisitors) * 1e4) / 1e4);
          const same = await get(sitePath(`/breakdown?dimension=${dimension}&${period}&filter=${filter}`));
          assert.deepEqual(same.body.rows.map((r: { key: string }) => r.key), [row.key]);
        }
      }
    }
    const yesterday = `from=${YESTERDAY}&to=${YESTERDAY}`;
    const exits = await get(sitePath(`/breakdown?dimension=exit&${yesterday}`));
    assert.deepEqual(
      exits.body.rows.map((r: { key: string; visitors: number }) => [r.key, r.visitors]),
      [['/pricing', 2], ['/blog/a', 1]],
    );
    const events = await get(sitePath(`/breakdown?dimension=event&${yesterday}`));
    assert.deepEqual(events.body.rows.map((r: { key: string; views: number }) => [r.key, r.views]), [['pageview', 5], ['signup', 1]]);
    const countries = await get(sitePath(`/breakdown?dimension=country&${yesterday}`));
    assert.ok(countries.body.rows.some((r: { key: string }) => r.key === '(none)'), 'absent values are (none)');
    const none = await get(sitePath(`/stats?${yesterday}&filter=country:(none)`));
    assert.equal(none.body.stats.visitors.value, 1);
    const signup = await get(sitePath(`/stats?${yesterday}&filter=event:signup`));
    assert.deepEqual([signup.body.stats.visitors.value, signup.body.stats.pageviews.value], [1, 0]);
    const session = await get(sitePath(`/stats?${yesterday}&filter=referrer:google.com`));
    assert.deepEqual([session.body.stats.visitors.value, session.body.stats.bounceRate.value, session.body.stats.avgDuration.value], [1, 0, 120]);
    const twoFilters = await get(sitePath(`/stats?${yesterday}&filter=page:/pricing&filter=country:FR`));
    assert.deepEqual([twoFilters.body.stats.visitors.value, twoFilters.body.stats.pageviews.value], [1, 1]);
    const valueWithColon = await get(sitePath(`/stats?${yesterday}&filter=${encodeURIComponent('page:/a:b')}`));
    assert.equal(valueWithColon.body.stats.visitors.value, 0, 'the value is everything after the first colon');
  });

  test('filters is not (!:) and contains (~:): (none) included or left out, text taken literally, their errors', async () => {
    const day = `from=${YESTERDAY}&to=${YESTERDAY}`;
    const visitors = async (filter: string) => {
      const res = await get(sitePath(`/stats?${day}&filter=${encodeURIComponent(filter)}`));
      assert.equal(res.status, 200, `${filter}: ${JSON.stringify(res.body)}`);
      return res.body.stats.visitors.value;
    };
    const cases: Array<[string, number]> = [
      ['referrer!:(none)', 2], // came from somewhere: Google and Hacker News
      ['referrer:(none)', 1],
      ['country!:FR', 2], // the visitor without a country included
      ['country~:r', 1], // FR; an absent country holds no text
      ['page~:BLOG', 1],
      ['page~:%', 0],
      ['page~:_', 0],
      ['page!:/pricing', 3],
      ['event~:sign', 1],
      ['utm_source~:LETTER', 1],
    ];
    for (const [filter, expected] of cases) assert.equal(await visitors(filter), expected, filter);
    const countries = await get(sitePath(`/breakdown?${day}&dimension=country&filter=country!:FR`));
    assert.deepEqual(countries.body.rows.map((r: { key: string }) => r.key).sort(), ['(none)', 'US']);
    const series = await get(sitePath(`/timeseries?${day}&filter=${encodeURIComponent('page~:blog')}&metric=pageviews`));
    assert.equal(series.body.points.reduce((sum: number, p: { value: number }) => sum + p.value, 0), 1);
    const refused: Array<[string, string, RegExp]> = [
      [`${day}&filter=page~:`, 'INVALID_PARAMS', /empty value/],
      [`${day}&filter=page~:${'x'.repeat(257)}`, 'INVALID_PARAMS', /at most 256 characters/],
      [`${day}&filter=page:/a&filter=page!:/b`, 'INVALID_PARAMS', /given twice/],
      [`${day}&filter=nope!:x`, 'INVALID_PARAMS', /unknown filter dimension/],
      ['period=90d&filter=referrer!:(none)', 'RAW_WINDOW_EXCEEDED', /is not\) or ~: \(contains\)/],
    ];
    for (const [query, code, message] of refused) {
      const res = await get(sitePath(`/stats?${query}`));
      assert.deepEqual([res.status, res.body.error.code], [400, code], query);
      assert.match(res.body.error.message, message, query);
    }
  });

  test('breakdown pagination, ordering and search', async () => {
    const all = await get(sitePath('/breakdown?dimension=page&period=30d'));
    const rows = all.body.rows as Array<{ key: string; visitors: number; views: number }>;
    for (let i = 1; i < rows.length; i++) {
      const [a, b] = [rows[i - 1]!, rows[i]!];
      assert.ok(a.visitors > b.visitors || (a.visitors === b.visitors && (a.views > b.views || (a.views === b.views && a.key < b.key))));
    }
    const page2 = await get(sitePath('/breakdown?dimension=page&period=30d&limit=2&offset=2'));
    assert.deepEqual(page2.body.rows, rows.slice(2, 4));
    assert.equal(page2.body.totalKeys, rows.length);
    const search = await get(sitePath('/breakdown?dimension=page&period=30d&search=BLOG'));
    assert.deepEqual(search.body.rows.map((r: { key: string }) => r.key).sort(), ['/blog/a', '/blog/b']);
    assert.equal(search.body.totalKeys, 2);
    assert.equal(search.body.totalVisitors, all.body.totalVisitors);
    const beyond = await get(sitePath('/breakdown?dimension=page&period=30d&offset=100'));
    assert.deepEqual(beyond.body.rows, []);
    assert.equal(beyond.body.totalKeys, rows.length, 'a page past the last key still counts the keys');
  });

  test('goals of both kinds with conversion rate and delta', async () => {
    const res = await get(sitePath(`/goals?from=${YESTERDAY}&to=${YESTERDAY}`));
    assert.deepEqual(res.body.period, { from: YESTERDAY, to: YESTERDAY });
    const [pricing, signup] = res.body.goals;
    assert.deepEqual(
      { ...pricing, goalId: 0 },
      { goalId: 0, name: 'Pricing', kind: 'page', pattern: '/pricing', conversions: 2, uniqueConversions: 2, conversionRate: 0.6667, delta: 100 },
    );
    assert.deepEqual(
      { ...signup, goalId: 0 },
      { goalId: 0, name: 'Signup', kind: 'event', pattern: 'signup', conversions: 1, uniqueConversions: 1, conversionRate: 0.3333, delta: null },
    );
    const none = await get(`/v1/sites/${other.siteId}/goals`, otherKey);
    assert.deepEqual(none.body.goals, []);
    const stats = await get(`/v1/sites/${other.siteId}/stats`, otherKey);
    assert.deepEqual(stats.body.stats.conversions, { value: null, prev: null, deltaPct: 0 });
  });

  test('funnels: list, current version, older version, previous period', async () => {
    const list = await get(sitePath('/funnels'));
    assert.equal(list.body.funnels.length, 1);
    const summary = list.body.funnels[0];
    assert.deepEqual({ ...summary, createdAt: 0 }, { id: summary.id, name: 'Buy', stepCount: 2, windowMinutes: 30, version: 2, createdAt: 0 });
    const current = await get(sitePath(`/funnels/${summary.id}?from=${YESTERDAY}&to=${YESTERDAY}`));
    assert.deepEqual(current.body.funnel, { id: summary.id, name: 'Buy', version: 2, windowMinutes: 30 });
    assert.deepEqual(current.body.steps, [
      { step: 1, visitors: 3, rateFromPrevious: null },
      { step: 2, visitors: 2, rateFromPrevious: 0.6667 },
    ]);
    assert.deepEqual([current.body.entered, current.body.completed, current.body.conversionRate], [3, 2, 0.6667]);
    // The day before, one visitor enters on /pricing itself (step 1 is /**) and never views it again.
    assert.deepEqual(current.body.previous, { entered: 2, completed: 0, conversionRate: 0 });
    assert.equal(current.body.delta, 100);
    const v1 = await get(sitePath(`/funnels/${summary.id}?version=1&from=${YESTERDAY}&to=${YESTERDAY}`));
    assert.equal(v1.body.funnel.version, 1);
    assert.deepEqual(v1.body.steps.map((s: { visitors: number }) => s.visitors), [1, 1, 1]);
    for (const version of ['0', '3', '-2', '99999999999']) {
      const fallback = await get(sitePath(`/funnels/${summary.id}?version=${version}`));
      assert.equal(fallback.body.funnel.version, 2, `version ${version} falls back to the current one`);
    }
  });

  test('realtime panel', async () => {
    const res = await get(sitePath('/realtime'));
    assert.equal(res.status, 200);
    const r = res.body;
    assert.equal(r.generatedAt, NOW);
    assert.equal(r.currentVisitors, 2);
    assert.equal(r.pageviewsPerMinute.length, 30);
    assert.equal(r.pageviewsPerMinute[29].t, NOW);
    assert.equal(r.pageviewsPerMinute.reduce((n: number, p: { value: number }) => n + p.value, 0), 3);
    assert.deepEqual(r.topPages.map((p: { key: string }) => p.key), ['/', '/pricing']);
    assert.deepEqual(r.topCountries, [{ key: 'FR', visitors: 2, views: 3 }]);
    assert.equal(r.feed.length, 3);
    assert.equal(r.feed[0].path, '/pricing');
    assert.equal(r.feed[0].event, 'pageview');
    assert.ok(r.feed[0].ts > r.feed[1].ts);
  });

  test('OpenAPI document is served without a key and describes every route', async () => {
    const res = await fetch(server.url + '/openapi.json');
    assert.equal(res.status, 200);
    const doc = (await res.json()) as any;
    assert.equal(doc.openapi, '3.1.0');
    for (const path of ['/v1/sites', '/v1/sites/{siteId}/stats', '/v1/sites/{siteId}/funnels/{funnelId}']) assert.ok(doc.paths[path], path);
  });
});
