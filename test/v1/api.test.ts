// The read API end to end: a real listening server, fixtures imported through the admin API,
// table-driven checks of every endpoint, parameter, error code and header of SPEC.md.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ManualClock } from '../../src/core/clock.js';
import { DIMENSIONS } from '../../src/core/dimensions.js';
import { PRESETS } from '../../src/core/period.js';
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
});
