// Revenue and scroll depth through the service: the collection endpoint's bad-revenue table (the
// event kept, the revenue left out, the outcome saying so), revenue goals through the admin API,
// the goals answer's revenue, import lines' revenue and sd, and breakdown include=scrollDepth.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { BROWSER_UA, browserHeaders, importEvents, startReadFixture, type SiteFixture, type TestServer } from '../helpers/server.js';

const NOW = Date.UTC(2026, 4, 12, 12, 0);
const TODAY = '2026-05-12';

describe('revenue and scroll depth through the service', () => {
  let server: TestServer;
  let site: SiteFixture;
  let key: string;

  before(async () => {
    ({ server, site, key } = await startReadFixture(NOW));
  });
  after(() => server.stop());

  const get = async (path: string) => {
    const res = await fetch(`${server.url}/v1/sites/${site.siteId}${path}`, { headers: { authorization: `Bearer ${key}` } });
    return { status: res.status, text: await res.text() };
  };

  test('bad revenue is left out and the event kept, with the outcome accepted_without_revenue', async () => {
    const cases: Array<[string, unknown, [number, string] | null]> = [
      ['a number', { amount: 19.99, currency: 'EUR' }, [1999, 'EUR']],
      ['a decimal string', { amount: '0.5', currency: 'usd' }, [50, 'USD']],
      ['a whole amount', { amount: 7, currency: 'Gbp' }, [700, 'GBP']],
      ['zero', { amount: '0', currency: 'EUR' }, [0, 'EUR']],
      ['the largest amount', { amount: '999999999999.99', currency: 'EUR' }, [99_999_999_999_999, 'EUR']],
      ['three decimals', { amount: 1.005, currency: 'EUR' }, null],
      ['0.1 + 0.2 as a float', { amount: 0.1 + 0.2, currency: 'EUR' }, null],
      ['negative', { amount: -1, currency: 'EUR' }, null],
      ['negative text', { amount: '-1', currency: 'EUR' }, null],
      ['an exponent', { amount: 1e21, currency: 'EUR' }, null],
      ['exponent text', { amount: '1e3', currency: 'EUR' }, null],
      ['too large', { amount: '1000000000000', currency: 'EUR' }, null],
      ['empty text', { amount: '', currency: 'EUR' }, null],
      ['a trailing dot', { amount: '5.', currency: 'EUR' }, null],
      ['spaces', { amount: ' 5', currency: 'EUR' }, null],
      ['no amount', { currency: 'EUR' }, null],
      ['a boolean amount', { amount: true, currency: 'EUR' }, null],
      ['a two-letter currency', { amount: 1, currency: 'EU' }, null],
      ['a four-letter currency', { amount: 1, currency: 'EURO' }, null],
      ['a currency with a digit', { amount: 1, currency: 'E1R' }, null],
      ['a non-ASCII currency', { amount: 1, currency: 'ÉUR' }, null],
      ['no currency', { amount: 1 }, null],
      ['not an object', 'EUR 5', null],
      ['an array', [5, 'EUR'], null],
    ];
    for (const [i, [, v]] of cases.entries()) {
      const status = await server.collect({ s: site.siteId, u: `/case/${i}`, e: 'purchase', v }, browserHeaders(site.domain));
      assert.equal(status, 202);
    }
    // Revenue on a built-in event is left out too; null is no revenue at all.
    await server.collect({ s: site.siteId, u: '/builtin', e: 'outbound', p: { url: 'https://x.test' }, v: { amount: 1, currency: 'EUR' } }, browserHeaders(site.domain));
    await server.collect({ s: site.siteId, u: '/none', e: 'purchase', v: null }, browserHeaders(site.domain));
    await server.flush();
    const stored = await server.storedEvents(site.siteId);
    for (const [i, [label, , expected]] of cases.entries()) {
      const row = stored.find((e) => e.page === `/case/${i}`);
      assert.ok(row, `${label}: the event is kept`);
      assert.deepEqual(row.revenue_minor === null ? null : [Number(row.revenue_minor), row.revenue_currency], expected, label);
    }
    assert.equal(stored.find((e) => e.page === '/builtin')?.revenue_minor, null);

    const recent = await server.admin('GET', `/sites/${site.siteId}/recent-events?after=0`);
    const outcomes = new Map<string, string>(recent.body.events.map((e: { path: string; outcome: string }) => [e.path, e.outcome]));
    for (const [i, [label, , expected]] of cases.entries()) {
      assert.equal(outcomes.get(`/case/${i}`), expected ? 'accepted' : 'accepted_without_revenue', label);
    }
    assert.equal(outcomes.get('/builtin'), 'accepted_without_revenue');
    assert.equal(outcomes.get('/none'), 'accepted');
  });

  test('revenue goals: created with a currency, listed with it, answered with their revenue exact to the cent', async () => {
    const bad: Array<[unknown, string]> = [
      [{ name: 'r', kind: 'event', pattern: 'order', currency: 'eur' }, 'lower case'],
      [{ name: 'r', kind: 'event', pattern: 'order', currency: 'EURO' }, 'four letters'],
      [{ name: 'r', kind: 'event', pattern: 'order', currency: 5 }, 'a number'],
      [{ name: 'r', kind: 'page', pattern: '/order', currency: 'EUR' }, 'a page goal'],
    ];
    for (const [body, label] of bad) {
      const res = await server.admin('POST', `/sites/${site.siteId}/goals`, body);
      assert.equal(res.status, 400, label);
      assert.equal(res.body.error.code, 'INVALID_PARAMS', label);
    }
    const created = await server.admin('POST', `/sites/${site.siteId}/goals`, { name: 'Orders', kind: 'event', pattern: 'order', currency: 'EUR' });
    assert.equal(created.status, 201);
    assert.deepEqual(created.body, { goalId: created.body.goalId, name: 'Orders', kind: 'event', pattern: 'order', currency: 'EUR' });
    const plain = await server.admin('POST', `/sites/${site.siteId}/goals`, { name: 'Signups', kind: 'event', pattern: 'signup' });
    assert.deepEqual(Object.keys(plain.body), ['goalId', 'name', 'kind', 'pattern'], 'a goal without currency answers as before');
    const listed = await server.admin('GET', `/sites/${site.siteId}/goals`);
    assert.deepEqual(listed.body.goals.map((g: { currency?: string }) => g.currency ?? null), ['EUR', null]);
    assert.equal(listed.body.goals.find((g: { name: string }) => g.name === 'Orders').currency, 'EUR');
    assert.equal('currency' in listed.body.goals.find((g: { name: string }) => g.name === 'Signups'), false);

    const report = await importEvents(server, site.siteId, [
      ...['0.1', '0.2', 0.7, '19.99'].map((amount, i) => ({ ts: NOW - 3_600_000 + i, ua: BROWSER_UA, ip: `203.0.113.${i + 1}`, u: '/shop', e: 'order', revenue: { amount, currency: 'EUR' } })),
      { ts: NOW - 3_500_000, ua: BROWSER_UA, ip: '203.0.113.9', u: '/shop', e: 'order', revenue: { amount: 5, currency: 'USD' } },
      { ts: NOW - 3_400_000, ua: BROWSER_UA, ip: '203.0.113.9', u: '/shop', e: 'order', revenue: { amount: 0.001, currency: 'EUR' } },
      { ts: NOW - 3_300_000, ua: BROWSER_UA, ip: '203.0.113.9', u: '/shop', e: 'signup' },
    ]);
    assert.equal(report.body.accepted, 7, JSON.stringify(report.body));
    const res = await get(`/goals?from=${TODAY}&to=${TODAY}`);
    assert.equal(res.status, 200);
    const goals = JSON.parse(res.text).goals as Array<Record<string, unknown>>;
    const orders = goals.find((g) => g.name === 'Orders')!;
    assert.equal(orders.conversions, 6);
    // 0.10 + 0.20 + 0.70 + 19.99 = 20.99 over 4: 5.2475 → 5.25; the USD order counted apart, the bad amount's left out.
    assert.ok(res.text.includes('"revenue":{"currency":"EUR","total":20.99,"average":5.25,"otherCurrency":1}'), res.text);
    assert.equal('revenue' in goals.find((g) => g.name === 'Signups')!, false, 'a goal without currency answers as before');
  });

  test('scroll depth: import lines take sd on engage events; page breakdowns include it on request only', async () => {
    const v = (n: number) => ({ ua: BROWSER_UA, ip: `198.51.100.${n}` });
    const report = await importEvents(server, site.siteId, [
      { ...v(1), ts: NOW - 7_200_000, u: '/long' },
      { ...v(1), ts: NOW - 7_190_000, u: '/long', e: 'engage', p: { t: 5000 }, sd: 80 },
      { ...v(2), ts: NOW - 7_100_000, u: '/long' },
      { ...v(2), ts: NOW - 7_090_000, u: '/long', e: 'engage', p: { t: 5000, d: 10 }, sd: 45 },
      { ...v(3), ts: NOW - 7_000_000, u: '/quiet' },
      { ...v(3), ts: NOW - 6_990_000, u: '/long', sd: 50 },
      { ...v(3), ts: NOW - 6_980_000, u: '/long', e: 'engage', p: { t: 5000 }, sd: 101 },
    ]);
    assert.equal(report.body.accepted, 5, JSON.stringify(report.body));
    assert.deepEqual(report.body.errors.map((e) => e.line), [6, 7]);

    const plain = await get(`/breakdown?dimension=page&from=${TODAY}&to=${TODAY}`);
    assert.ok(!plain.text.includes('scrollDepth'), plain.text);
    const withDepth = await get(`/breakdown?dimension=page&include=scrollDepth&from=${TODAY}&to=${TODAY}`);
    assert.equal(withDepth.status, 200);
    const rows = JSON.parse(withDepth.text).rows as Array<{ key: string; scrollDepth: number | null }>;
    const depth = Object.fromEntries(rows.map((r) => [r.key, r.scrollDepth]));
    assert.equal(depth['/long'], 63, '(80 + 45) / 2 = 62.5, rounded half up');
    assert.equal(depth['/quiet'], null);
    // The rows are the plain ones plus scrollDepth.
    assert.deepEqual(
      rows.map(({ scrollDepth: _, ...rest }) => rest),
      JSON.parse(plain.text).rows,
    );

    // A row's visit duration is its stats figure under the key's filter (test/stats/breakdown-include.test.ts checks every source).
    const durations = await get(`/breakdown?dimension=country&include=bounceRate,avgDuration,scrollDepth&from=${TODAY}&to=${TODAY}`);
    assert.equal(durations.status, 400, 'scrollDepth stays a page breakdown\'s');
    const byCountry = await get(`/breakdown?dimension=country&include=avgDuration,bounceRate&from=${TODAY}&to=${TODAY}`);
    assert.equal(byCountry.status, 200, byCountry.text);
    for (const row of JSON.parse(byCountry.text).rows as Array<{ key: string; bounceRate: number | null; avgDuration: number | null }>) {
      const stats = JSON.parse((await get(`/stats?filter=country:${encodeURIComponent(row.key)}&from=${TODAY}&to=${TODAY}`)).text).stats;
      assert.deepEqual([row.bounceRate, row.avgDuration], [stats.bounceRate.value, stats.avgDuration.value], row.key);
    }
    for (const query of ['include=scrollDepth&dimension=country', 'include=bogus&dimension=page', 'include=scrollDepth&dimension=page&filter=country:FR', 'include=&dimension=page', 'include=bounceRate,visitors&dimension=page']) {
      const res = await get(`/breakdown?${query}`);
      assert.equal(res.status, 400, query);
      assert.equal(JSON.parse(res.text).error.code, 'INVALID_PARAMS', query);
    }
  });
});
