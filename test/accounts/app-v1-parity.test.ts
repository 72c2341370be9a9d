// The dashboard's statistics mount answers as the read API does (docs/accounts.md, "Reading figures"):
// for every statistics endpoint and a table of parameters (periods, filters, comparisons, journeys, days with
// and without imported aggregates, errors), a signed-in member's /app/v1 answer has the status,
// content type, `Svc-Imported` and body bytes of a key's /v1 answer. What the dashboard alone learns
// (the day goals and funnel versions are counted since) comes in a header of its own.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ManualClock } from '../../src/core/clock.js';
import { addDays } from '../../src/core/localtime.js';
import { COUNTED_SINCE_HEADER, funnelKey, goalKey, IMPORTED_HEADER, parseCountedSince } from '../../src/core/answer-headers.js';
import { AppClient, signedInUser } from '../helpers/app-client.js';
import { uploadPlausibleExport } from '../helpers/plausible-export.js';
import { BROWSER_UA, createApiKey, createSite, importEvents, startTestServer, type SiteFixture, type TestServer } from '../helpers/server.js';

const NOW = Date.UTC(2026, 2, 20, 12, 0);
const TODAY = '2026-03-20';
/** Days of a Plausible export, before the collected ones: 60 to 51 days ago. */
const IMPORTED_DAYS = Array.from({ length: 10 }, (_, i) => addDays(TODAY, -60 + i));
const at = (day: string, time: string) => Date.parse(`${day}T${time}Z`);

/** Each of the 40 days before today a visitor from Google reads / then /pricing and signs up; one more now. */
function collected() {
  const out: Array<Record<string, unknown>> = [];
  for (let i = 1; i <= 40; i++) {
    const day = addDays(TODAY, -i);
    const ip = `198.51.100.${i}`;
    out.push({ ts: at(day, '08:00:00'), ua: BROWSER_UA, ip, u: '/', country: i % 3 === 0 ? 'FR' : 'DE', r: 'https://www.google.com/' });
    out.push({ ts: at(day, '08:01:00'), ua: BROWSER_UA, ip, u: '/pricing' });
    out.push({ ts: at(day, '08:02:00'), ua: BROWSER_UA, ip, u: '/pricing', e: 'signup', p: { plan: i % 2 === 0 ? 'pro' : 'free' } });
    out.push({ ts: at(day, '08:03:00'), ua: BROWSER_UA, ip, u: 'https://docs.example/pricing', e: 'engage', p: { t: 4000, d: 60, lcp: 1000 + 37 * i, cls: i % 4, inp: 80 + i } });
  }
  out.push({ ts: NOW - 120_000, ua: BROWSER_UA, ip: '192.0.2.10', u: '/docs', country: 'FR' });
  return out;
}

describe('/app/v1 answers as /v1', () => {
  const clock = new ManualClock(NOW);
  let server: TestServer;
  let site: SiteFixture;
  let foreign: SiteFixture;
  let key: string;
  let member: AppClient;
  let goalIds: number[];
  let funnelId: number;
  let segmentId: number;

  before(async () => {
    server = await startTestServer({ clock, env: { SVC_API_RATE_LIMIT: '100000/60s', SVC_APP_RATE_LIMIT: '100000/60s' } });
    site = await createSite(server);
    foreign = await createSite(server);
    key = await createApiKey(server, site.orgId);
    const imported = await importEvents(server, site.siteId, collected());
    assert.equal(imported.body.rejected, 0, JSON.stringify(imported.body.errors));
    await uploadPlausibleExport(server, site.siteId, IMPORTED_DAYS);
    // Made after the days above were rolled up: counted since the first raw day kept.
    goalIds = [
      (await server.admin('POST', `/sites/${site.siteId}/goals`, { name: 'Signup', kind: 'event', pattern: 'signup' })).body.goalId,
      (await server.admin('POST', `/sites/${site.siteId}/goals`, { name: 'Pricing', kind: 'page', pattern: '/pricing' })).body.goalId,
    ];
    const funnel = await server.admin('POST', `/sites/${site.siteId}/funnels`, { name: 'Buy', windowMinutes: 30, steps: [{ kind: 'page', pattern: '/' }, { kind: 'page', pattern: '/pricing' }] });
    funnelId = funnel.body.id;
    await server.admin('PUT', `/sites/${site.siteId}/funnels/${funnelId}/steps`, { steps: [{ kind: 'page', pattern: '/' }, { kind: 'event', pattern: 'signup' }] });
    segmentId = (await server.admin('POST', `/sites/${site.siteId}/segments`, { name: 'Pricing', filters: ['page:/pricing'] })).body.id;
    await server.admin('POST', `/sites/${site.siteId}/annotations`, { date: addDays(TODAY, -3), text: 'Launch' });
    await server.admin('POST', '/maintenance/run', { tasks: ['rollup'] });
    member = (await signedInUser(server, 'viewer@example.com', [{ orgId: site.orgId, role: 'viewer' }])).client;
  });
  after(() => server.stop());

  const v1 = async (path: string) => {
    const res = await fetch(`${server.url}/v1${path}`, { headers: { authorization: `Bearer ${key}` } });
    return { status: res.status, headers: res.headers, text: await res.text() };
  };

  test('every statistics endpoint, for every case of the table, answers the same bytes on both mounts', async () => {
    const importedDays = `from=${IMPORTED_DAYS[0]}&to=${IMPORTED_DAYS.at(-1)}`;
    const cases: Record<string, string[]> = {
      stats: [
        'period=30d',
        'period=90d',
        'period=today',
        importedDays,
        'period=90d&comparison=previous',
        'period=90d&comparison=year',
        'period=7d&comparison=off',
        'period=month&elapsed=true',
        'period=90d&filter=page:/pricing',
        'period=7d&filter=page:/pricing&filter=country:DE',
        'period=90d&filter=page:/pricing&filter=country:DE',
        'period=nope',
        `period=90d&segment=${segmentId}`,
        `period=7d&segment=${segmentId}&filter=country:DE`,
        `period=7d&segment=${segmentId}&filter=page:/`,
        'period=7d&segment=999',
      ],
      timeseries: [
        'period=30d',
        'period=90d&metric=pageviews&compare=true',
        'period=90d&compare=true&comparison=year',
        'period=today&compare=true',
        `from=${IMPORTED_DAYS[2]}&to=${IMPORTED_DAYS[3]}&grain=hour`,
        'period=year&metric=bounceRate&filter=country:DE',
      ],
      breakdown: [
        'period=30d&dimension=page',
        'period=90d&dimension=page&include=scrollDepth',
        'period=90d&dimension=page&include=vitals,scrollDepth',
        'period=7d&dimension=page&include=vitals',
        'period=30d&dimension=hostname',
        'period=7d&dimension=page&filter=hostname~:docs',
        'period=year&dimension=source&include=bounceRate,avgDuration&raw=clip',
        'period=30d&dimension=page&filter=country:DE&include=avgDuration',
        `${importedDays}&dimension=referrer`,
        'period=90d&dimension=country&limit=1&offset=1',
        'period=7d&dimension=page&filter=country:DE',
        'period=30d&dimension=prop.plan&search=pr',
        'period=90d&dimension=country&filter=page:/pricing',
        'period=30d',
        `period=30d&dimension=country&segment=${segmentId}`,
      ],
      annotations: ['period=30d', 'period=all', 'period=nope'],
      journeys: [
        'period=30d',
        'period=7d&page=/&steps=2',
        'period=30d&page=/pricing&direction=previous&filter=country:DE&limit=1',
        'period=90d&raw=clip&filter=country~:d',
        'period=90d',
        'period=30d&steps=9',
      ],
      goals: ['period=30d', 'period=90d', importedDays, 'period=7d&comparison=year', 'period=year'],
      funnels: [''],
      [`funnels/${funnelId}`]: ['period=30d', 'period=90d', 'period=30d&version=1', 'period=30d&version=99', 'period=nope'],
      'funnels/999': ['period=30d'],
      realtime: [''],
    };
    const saidImported = new Set<string | null>();
    for (const [endpoint, queries] of Object.entries(cases)) {
      for (const query of queries) {
        for (const siteId of [site.siteId, foreign.siteId, 'nosuchsite']) {
          const path = `/sites/${siteId}/${endpoint}${query ? `?${query}` : ''}`;
          const [app, api] = [await member.request('GET', `/app/v1${path}`), await v1(path)];
          assert.equal(app.status, api.status, path);
          assert.equal(app.headers.get('content-type'), api.headers.get('content-type'), path);
          assert.equal(app.headers.get(IMPORTED_HEADER), api.headers.get(IMPORTED_HEADER), path);
          assert.equal(app.text, api.text, path);
          if (siteId === site.siteId) saidImported.add(api.headers.get(IMPORTED_HEADER));
          else assert.equal(api.status, 404, path);
        }
      }
    }
    // The table reads imported days, reads that leave them out, and periods without any.
    assert.deepEqual([...saidImported].sort(), ['excluded', 'included', 'none', null]);
    const goals = JSON.parse((await v1(`/sites/${site.siteId}/goals?period=90d`)).text);
    assert.ok(goals.goals.every((g: { conversions: number }) => g.conversions > 0), 'the goals have figures');
  });

  test("the dashboard's goals and funnel answers say from which day each is counted in their header; /v1's do not", async () => {
    const goals = await member.request('GET', `/app/v1/sites/${site.siteId}/goals?period=90d`);
    const days = parseCountedSince(goals.headers.get(COUNTED_SINCE_HEADER));
    const since = days.get(goalKey(goalIds[0]!));
    assert.match(since ?? '', /^\d{4}-\d{2}-\d{2}$/);
    assert.ok(since! > goals.body.period.from, 'the imported days before it miss the goal');
    assert.deepEqual([...days.keys()], goalIds.map(goalKey));
    const funnel = await member.request('GET', `/app/v1/sites/${site.siteId}/funnels/${funnelId}?period=90d&version=1`);
    assert.deepEqual([...parseCountedSince(funnel.headers.get(COUNTED_SINCE_HEADER))], [[funnelKey(funnelId, 1), since]]);
    for (const path of [`/sites/${site.siteId}/goals?period=90d`, `/sites/${site.siteId}/funnels/${funnelId}?period=90d`]) {
      assert.equal((await v1(path)).headers.get(COUNTED_SINCE_HEADER), null, path);
    }
    assert.equal((await member.request('GET', `/app/v1/sites/${site.siteId}/stats?period=90d`)).headers.get(COUNTED_SINCE_HEADER), null, 'goals and funnel answers only');
  });
});
