// The comparison parameters over HTTP: the default answers stay those of the previous period; a
// year earlier, no comparison and the elapsed part answer alike on /v1 and /app/v1.
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
 * A visitor with two pageviews each morning of the 40 days before today and of the 41 days up to
 * today's date a year earlier; one more each afternoon.
 */
function lines() {
  const out: Array<Record<string, unknown>> = [];
  for (const shift of [0, 365]) {
    for (let i = shift === 0 ? 1 : 0; i <= 40; i++) {
      const day = addDays(TODAY, -i - shift);
      const ip = `198.51.100.${(i % 200) + 1}`;
      out.push({ ts: at(day, '08:00:00'), ua: BROWSER_UA, ip, u: '/' });
      out.push({ ts: at(day, '08:01:00'), ua: BROWSER_UA, ip, u: '/pricing' });
      out.push({ ts: at(day, '15:00:00'), ua: BROWSER_UA, ip: `203.0.113.${(i % 200) + 1}`, u: '/docs' });
    }
  }
  out.push({ ts: at(TODAY, '09:00:00'), ua: BROWSER_UA, ip: '192.0.2.10', u: '/' });
  return out;
}

type Kpi = { value: number | null; prev: number | null; deltaPct: number };

describe('comparison parameters', () => {
  const clock = new ManualClock(NOW);
  let server: TestServer;
  let site: SiteFixture;
  let key: string;
  let member: AppClient;

  before(async () => {
    server = await startTestServer({ clock, env: { SVC_API_RATE_LIMIT: '100000/60s', SVC_APP_RATE_LIMIT: '100000/60s' } });
    site = await createSite(server);
    key = await createApiKey(server, site.orgId);
    const imported = await importEvents(server, site.siteId, lines());
    assert.equal(imported.body.rejected, 0);
    await server.admin('POST', '/maintenance/run', { tasks: ['rollup'] });
    member = (await signedInUser(server, 'viewer@example.com', [{ orgId: site.orgId, role: 'viewer' }])).client;
  });
  after(() => server.stop());

  /** The same path on both mounts: equal bytes, and the parsed /v1 answer. */
  const read = (path: string) => readOnBothMounts(server, site.siteId, key, member, path);
  const stats = async (query: string) => (await read(`/stats?${query}`)).body.stats as Record<string, Kpi>;

  test('the default is the previous period, whole: comparison=previous and elapsed=false change no byte', async () => {
    for (const period of ['today', '7d', 'month', 'year']) {
      const plain = await read(`/stats?period=${period}`);
      assert.deepEqual((await read(`/stats?period=${period}&comparison=previous&elapsed=false`)).body, plain.body, period);
      assert.deepEqual((await read(`/timeseries?period=${period}&compare=true&comparison=previous`)).body, (await read(`/timeseries?period=${period}&compare=true`)).body, period);
    }
    const week = await stats('period=7d');
    const before = await stats(`from=${addDays(TODAY, -13)}&to=${addDays(TODAY, -7)}`);
    assert.equal(week.pageviews!.prev, before.pageviews!.value);
  });

  test('comparison=year: the same days a year earlier, for KPIs and the compared series', async () => {
    const week = await stats('period=7d&comparison=year');
    const yearBefore = await stats(`from=${addDays(TODAY, -6 - 365)}&to=${addDays(TODAY, -365)}`);
    for (const metric of ['visitors', 'pageviews', 'sessions', 'bounceRate'] as const) assert.equal(week[metric]!.prev, yearBefore[metric]!.value, metric);
    assert.equal(week.pageviews!.prev, 7 * 3);
    const series = (await read('/timeseries?period=7d&compare=true&comparison=year&metric=pageviews')).body;
    assert.equal(series.prev[0].t, Date.parse(`${addDays(TODAY, -6 - 365)}T00:00:00Z`));
    assert.deepEqual(
      series.prev.map((p: { value: number }) => p.value),
      [3, 3, 3, 3, 3, 3, 3],
    );
  });

  test('comparison=off: no previous value, and compare=true with it is refused', async () => {
    for (const kpi of Object.values(await stats('period=7d&comparison=off&elapsed=true'))) {
      assert.equal(kpi.prev, null);
      assert.equal(kpi.deltaPct, 0);
    }
    const refused = await read('/timeseries?period=7d&compare=true&comparison=off');
    assert.equal(refused.status, 400);
    assert.equal(refused.body.error.code, 'INVALID_PARAMS');
    assert.equal((await read('/timeseries?period=7d&comparison=off')).body.prev, undefined);
    assert.equal((await read('/stats?comparison=later')).body.error.code, 'INVALID_PARAMS');
    assert.equal((await read('/stats?elapsed=1')).body.error.code, 'INVALID_PARAMS');
  });

  test('elapsed=true: today at noon against yesterday up to noon, from raw events; a year back in proportion', async () => {
    const whole = await stats('period=today');
    const elapsed = await stats('period=today&elapsed=true');
    assert.equal(whole.pageviews!.prev, 3);
    assert.equal(elapsed.pageviews!.prev, 2, 'the afternoon pageview of yesterday is after the cut');
    assert.equal(elapsed.visitors!.prev, 1);
    assert.equal(elapsed.pageviews!.value, 1);
    assert.equal(elapsed.pageviews!.deltaPct, -50);
    // the same day a year earlier is a rollup only: its 3 pageviews count for half the day
    assert.equal((await stats('period=today&elapsed=true&comparison=year')).pageviews!.prev, Math.round(3 * 0.5));
    // a period that is over is compared whole
    assert.deepEqual(await stats('period=yesterday&elapsed=true'), await stats('period=yesterday'));
  });
});
