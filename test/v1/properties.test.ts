// Custom properties over HTTP (docs/api.md, Custom properties): `breakdown?dimension=prop.<key>` and
// `filter=prop.<key>:<value>` on /v1 and /app/v1 alike, a year of them from rollups, and the refusals.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ManualClock } from '../../src/core/clock.js';
import { addDays } from '../../src/core/localtime.js';
import { AppClient, readOnBothMounts, signedInUser } from '../helpers/app-client.js';
import { BROWSER_UA, createApiKey, createSite, importEvents, startTestServer, type SiteFixture, type TestServer } from '../helpers/server.js';

const NOW = Date.UTC(2026, 2, 20, 12, 0);
const TODAY = '2026-03-20';
const at = (day: string, time: string) => Date.parse(`${day}T${time}Z`);

/**
 * Each of the 200 days before today, a pro signup (a visitor of its own) and a free one on the
 * even days; a pageview without props each day; the odd days' signups 300 days ago and more
 * are a year's worth the raw window no longer holds once rolled up.
 */
function lines() {
  const out: Array<Record<string, unknown>> = [];
  for (let i = 1; i <= 200; i++) {
    const day = addDays(TODAY, -i);
    out.push({ ts: at(day, '08:00:00'), ua: BROWSER_UA, ip: `198.51.100.${(i % 200) + 1}`, u: '/' });
    out.push({ ts: at(day, '08:01:00'), ua: BROWSER_UA, ip: `198.51.100.${(i % 200) + 1}`, u: '/', e: 'signup', p: { plan: 'pro', seats: 3 } });
    if (i % 2 === 0) out.push({ ts: at(day, '09:00:00'), ua: BROWSER_UA, ip: `203.0.113.${(i % 200) + 1}`, u: '/pricing', e: 'signup', p: { plan: 'free' } });
  }
  return out;
}

describe('custom properties over HTTP', () => {
  let server: TestServer;
  let site: SiteFixture;
  let key: string;
  let member: AppClient;

  before(async () => {
    server = await startTestServer({ clock: new ManualClock(NOW), env: { SVC_API_RATE_LIMIT: '100000/60s', SVC_APP_RATE_LIMIT: '100000/60s' } });
    site = await createSite(server, { timezone: 'UTC' });
    key = await createApiKey(server, site.orgId);
    const imported = await importEvents(server, site.siteId, lines());
    assert.equal(imported.body.rejected, 0, JSON.stringify(imported.body.errors));
    await server.admin('POST', '/maintenance/run', { tasks: ['rollup', 'retention'] });
    member = (await signedInUser(server, 'viewer@example.com', [{ orgId: site.orgId, role: 'viewer' }])).client;
  });
  after(() => server.stop());

  /** The same path on both mounts: equal bytes, and the parsed answer. */
  const read = (path: string) => readOnBothMounts(server, site.siteId, key, member, path);

  test('a property breakdown over a year, its raw events long gone, ranks the values of the events that carry the key, and (none) for those without it', async () => {
    const res = await read(`/breakdown?period=year&dimension=prop.plan`);
    assert.equal(res.status, 200);
    assert.equal(res.body.dimension, 'prop.plan');
    const visitors = (await read('/stats?period=year')).body.stats.visitors.value;
    const yearDays = (from: string) => Array.from({ length: 200 }, (_, i) => addDays(TODAY, -(i + 1))).filter((day) => day >= from).length;
    const first = `${TODAY.slice(0, 4)}-01-01`;
    const pro = yearDays(first);
    const free = Array.from({ length: 200 }, (_, i) => i + 1).filter((i) => i % 2 === 0 && addDays(TODAY, -i) >= first).length;
    assert.deepEqual(
      res.body.rows.map((r: { key: string; visitors: number; views: number }) => [r.key, r.visitors, r.views]),
      [['(none)', pro, pro], ['pro', pro, pro], ['free', free, free]], // (none): each day's pageview, by the pro signup's visitor
    );
    assert.equal(res.body.totalKeys, 3);
    assert.equal(res.body.totalVisitors, visitors);
    const numbers = await read(`/breakdown?from=${addDays(TODAY, -180)}&to=${addDays(TODAY, -1)}&dimension=prop.seats`);
    assert.deepEqual(numbers.body.rows.map((r: { key: string; views: number }) => [r.key, r.views]), [['(none)', 180 + 90], ['3', 180]], 'a number as its text');
    const searched = await read(`/breakdown?period=year&dimension=prop.plan&search=none&limit=1`);
    assert.deepEqual([searched.body.rows.map((r: { key: string }) => r.key), searched.body.totalKeys], [['(none)'], 1]);
  });

  test('a property filter keeps the events with the value on stats, timeseries and breakdowns, from rollups over any period', async () => {
    const from = addDays(TODAY, -120);
    const to = addDays(TODAY, -1);
    const stats = await read(`/stats?from=${from}&to=${to}&filter=prop.plan:free`);
    assert.equal(stats.status, 200);
    assert.equal(stats.body.stats.visitors.value, 60);
    assert.equal(stats.body.stats.pageviews.value, 0, 'the signups are not pageviews');
    assert.equal(stats.body.stats.bounceRate.value, null, 'a session figure cannot be cut by events');
    const series = await read(`/timeseries?from=${from}&to=${to}&filter=prop.plan:free`);
    assert.equal(series.status, 200);
    assert.equal(series.body.points.reduce((sum: number, p: { value: number }) => sum + p.value, 0), 60);
    const one = await read(`/breakdown?from=${from}&to=${to}&dimension=prop.plan&filter=prop.plan:pro`);
    assert.deepEqual(one.body.rows.map((r: { key: string }) => r.key), ['pro']);
    const recent = await read(`/breakdown?period=7d&dimension=page&filter=prop.plan:free`);
    assert.deepEqual(recent.body.rows.map((r: { key: string; visitors: number }) => [r.key, r.visitors]), [['/pricing', 3]], 'with another dimension: raw events');
  });

  test('(none) keeps the events without the key, from raw events inside the raw window', async () => {
    const week = await read(`/stats?period=7d&filter=prop.plan:(none)`);
    assert.equal(week.status, 200);
    assert.equal(week.body.stats.pageviews.value, 6);
    const rows = (await read(`/breakdown?period=7d&dimension=prop.plan`)).body.rows as Array<{ key: string; visitors: number }>;
    assert.equal(rows.find((r) => r.key === '(none)')?.visitors, week.body.stats.visitors.value, "the breakdown's (none) row (from rollups) counts the filter's visitors");
    const year = await read(`/stats?period=year&filter=prop.plan:(none)`);
    assert.equal(year.status, 400);
    assert.deepEqual(year.body.error, {
      code: 'RAW_WINDOW_EXCEEDED',
      message: 'a filter prop.<key>:(none) (the events without a property) needs a period within the last 30 days',
    });
  });

  test('refusals name the property key rules; a key containing ":" cannot be filtered', async () => {
    const cases: Array<[string, string]> = [
      ['/breakdown?dimension=prop.', 'dimension prop.<key> needs a property key of 1 to 64 characters'],
      [`/breakdown?dimension=prop.${'k'.repeat(65)}`, 'dimension prop.<key> needs a property key of 1 to 64 characters'],
      ['/stats?filter=prop.:pro', 'filter prop.<key>:<value> needs a property key of 1 to 64 characters before the first ":" (a key containing ":" cannot be filtered)'],
      ['/stats?filter=prop.plan:pro&filter=prop.plan:free', 'filter prop.plan is given twice'],
      ['/stats?filter=prop.plan:', 'filter prop.plan has an empty value'],
    ];
    for (const [path, message] of cases) {
      const res = await read(path);
      assert.equal(res.status, 400, path);
      assert.deepEqual(res.body.error, { code: 'INVALID_PARAMS', message }, path);
    }
    // A filter's key ends at the first ':': `prop.a:b:x` is the key `a` with the value `b:x`.
    const colon = await read(`/stats?period=7d&filter=${encodeURIComponent('prop.a:b:x')}`);
    assert.equal(colon.status, 200);
    assert.equal(colon.body.stats.visitors.value, 0);
  });

  test('an event goal may require property values: part of its identity, counted on /v1 goals, refused on page goals', async () => {
    const goals = `/sites/${site.siteId}/goals`;
    const pro = await server.admin('POST', goals, { name: 'Pro signup', kind: 'event', pattern: 'signup', props: { plan: 'pro', seats: '3' } });
    assert.equal(pro.status, 201);
    assert.deepEqual(pro.body, { goalId: pro.body.goalId, name: 'Pro signup', kind: 'event', pattern: 'signup', props: { plan: 'pro', seats: '3' } });
    const plain = await server.admin('POST', goals, { name: 'Signup', kind: 'event', pattern: 'signup' });
    assert.deepEqual(plain.body, { goalId: plain.body.goalId, name: 'Signup', kind: 'event', pattern: 'signup' }, 'a goal without props answers as it always has');
    const twin = await server.admin('POST', goals, { name: 'Again', kind: 'event', pattern: 'signup', props: { seats: '3', plan: 'pro' } });
    assert.equal(twin.status, 409);
    assert.equal(twin.body.error.code, 'CONFLICT');
    assert.equal((await server.admin('POST', goals, { name: 'Empty', kind: 'event', pattern: 'signup', props: {} })).status, 409, 'no props is the plain goal');
    const refusals: Array<[Record<string, unknown>, string, string]> = [
      [{ name: 'P', kind: 'page', pattern: '/', props: { plan: 'pro' } }, 'GOAL_PROPS_KIND_INVALID_PARAMS', 'props are required property values of an event goal; a page goal takes none'],
      [{ name: 'P', kind: 'event', pattern: 'signup', props: { plan: 3 } }, 'GOAL_PROPS_INVALID_PARAMS', 'props must be an object of at most 10 custom property keys (1 to 64 characters each) and string values (at most 500 characters)'],
      [{ name: 'P', kind: 'event', pattern: 'signup', props: ['plan'] }, 'GOAL_PROPS_INVALID_PARAMS', 'props must be an object of at most 10 custom property keys (1 to 64 characters each) and string values (at most 500 characters)'],
      [{ name: 'P', kind: 'event', pattern: 'signup', props: { ['k'.repeat(65)]: 'v' } }, 'GOAL_PROPS_INVALID_PARAMS', 'props must be an object of at most 10 custom property keys (1 to 64 characters each) and string values (at most 500 characters)'],
      [{ name: 'P', kind: 'event', pattern: 'signup', props: Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`k${i}`, 'v'])) }, 'GOAL_PROPS_INVALID_PARAMS', 'props must be an object of at most 10 custom property keys (1 to 64 characters each) and string values (at most 500 characters)'],
    ];
    for (const [body, reason, message] of refusals) {
      const res = await server.admin('POST', goals, body);
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.deepEqual(res.body.error, { code: 'INVALID_PARAMS', reason, message }, JSON.stringify(body));
    }
    const listed = await server.admin('GET', goals);
    assert.deepEqual(listed.body.goals.map((g: { name: string; props?: unknown }) => [g.name, g.props ?? null]), [['Pro signup', { plan: 'pro', seats: '3' }], ['Signup', null]]);
    await server.admin('POST', '/maintenance/run', { tasks: ['rollup'] });
    const from = addDays(TODAY, -10);
    const answer = await read(`/goals?from=${from}&to=${addDays(TODAY, -1)}`);
    assert.deepEqual(
      answer.body.goals.map((g: { name: string; props?: unknown; conversions: number }) => [g.name, g.props ?? null, g.conversions]),
      [['Pro signup', { plan: 'pro', seats: '3' }, 10], ['Signup', null, 15]],
    );
  });

  test("the dashboard's property keys: those the period's events carry, most events first, from rollups and raw events", async () => {
    const first = `${TODAY.slice(0, 4)}-01-01`;
    const days = Array.from({ length: 200 }, (_, i) => i + 1).filter((i) => addDays(TODAY, -i) >= first);
    const res = await member.request('GET', `/app/v1/sites/${site.siteId}/properties?period=year`);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body, {
      period: { from: first, to: TODAY },
      keys: [
        { key: 'plan', events: days.length + days.filter((i) => i % 2 === 0).length },
        { key: 'seats', events: days.length },
      ],
    });
    const week = await member.request('GET', `/app/v1/sites/${site.siteId}/properties?period=7d`);
    assert.deepEqual(week.body.keys, [{ key: 'plan', events: 9 }, { key: 'seats', events: 6 }], 'the last 7 days: raw events after the watermark, rollups before');
    const filtered = await member.request('GET', `/app/v1/sites/${site.siteId}/properties?period=7d&filter=prop.plan:pro`);
    assert.equal(filtered.status, 400);
    assert.equal((await fetch(`${server.url}/v1/sites/${site.siteId}/properties`, { headers: { authorization: `Bearer ${key}` } })).status, 404, 'not a route of the read API');
  });
});
