// Raw-event imports (Umami's, GoatCounter's) kept apart, on both engines: importing the same file
// again replaces the first import's events on its days (the reads equal one import's), and deleting
// an import removes its events and rewrites the rollups, session rows and paths of their days (the
// reads equal the site's without it), while events collected on the same day stay as they were;
// also once the day has left the raw window, whose raw events the retention task keeps for it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ManualClock } from '../../src/core/clock.js';
import { browserHeaders, createApiKey, createSite, startTestServer, BROWSER_UA, type TestServer } from '../helpers/server.js';
import { freshDatabaseUrl } from '../../support/clickhouse.js';
import { finishedImport, uploadImport } from '../helpers/import-jobs.js';
import { umamiCsv, type UmamiRow } from '../helpers/umami-export.js';

const DAY = '2025-04-10';
/** Two days after DAY: DAY is closed and rolled up, so reads of it come from its rollups. */
const NOW = Date.UTC(2025, 3, 12, 12);
/** DAY out of the raw window (30 days). */
const LATER = Date.UTC(2025, 5, 12, 12);

function umamiRows(domain: string): UmamiRow[] {
  const chrome = { session_id: 's-1', visit_id: 'v-1', hostname: domain, browser: 'chrome', os: 'Mac OS', device: 'desktop', country: 'FR', event_type: '1' };
  const iphone = { session_id: 's-2', visit_id: 'v-2', hostname: domain, browser: 'ios', os: 'iOS', device: 'mobile', country: 'DE', event_type: '1' };
  return [
    { ...chrome, url_path: '/', referrer_domain: 'google.com', created_at: `${DAY} 10:00:00` },
    { ...chrome, url_path: '/pricing', created_at: `${DAY} 10:02:00` },
    { ...chrome, url_path: '/pricing', event_type: '2', event_name: 'Signup', created_at: `${DAY} 10:03:00` },
    { ...iphone, url_path: '/blog', created_at: `${DAY} 11:00:00` },
  ];
}

const GOATCOUNTER = [
  '"2,Path",Title,Event,UserAgent,Browser,System,Session,Bot,Referrer,Referrer scheme,Screen size,Location,FirstVisit,Date',
  `/docs,Docs,false,${JSON.stringify(BROWSER_UA)},Chrome 124,Windows 10,sess-a,0,,,"1920,1080,1",US,true,${DAY}T12:00:00Z`,
  `/docs/start,Start,false,${JSON.stringify(BROWSER_UA)},Chrome 124,Windows 10,sess-a,0,,,"1920,1080,1",US,false,${DAY}T12:01:00Z`,
  `/,Home,false,,Firefox 121,Linux,sess-b,0,,,"390,844,3",GB,true,${DAY}T13:00:00Z`,
].join('\n') + '\n';

for (const engine of ['duckdb', 'clickhouse'] as const) {
  test(`the same raw-event export imported again replaces the first import, and a deleted import leaves no figure: ${engine}`, async () => {
    const env: Record<string, string> = { SVC_API_RATE_LIMIT: '1000/60s' };
    if (engine === 'clickhouse') env.SVC_CLICKHOUSE_URL = await freshDatabaseUrl();
    const clock = new ManualClock(Date.UTC(2025, 3, 10, 15));
    const server = await startTestServer({ clock, env });
    try {
      await replacesAndDeletes(server, clock);
    } finally {
      await server.stop();
    }
  });
}

async function replacesAndDeletes(server: TestServer, clock: ManualClock): Promise<void> {
  const site = await createSite(server);
  // A visitor collected live on DAY, before any import.
  for (const u of ['/', '/live']) assert.equal(await server.collect({ s: site.siteId, u }, browserHeaders(site.domain)), 202);
  await server.flush();
  clock.set(NOW);
  assert.equal((await server.admin('POST', '/maintenance/run', { tasks: ['rollup'] })).status, 200);

  const key = await createApiKey(server, site.orgId);
  const read = async (path: string) => {
    const res = await fetch(`${server.url}/v1/sites/${site.siteId}/${path}&from=${DAY}&to=${DAY}&comparison=off`, { headers: { authorization: `Bearer ${key}` } });
    const body = (await res.json()) as any;
    assert.equal(res.status, 200, JSON.stringify(body));
    return body;
  };
  const figures = async (journeys = true) => {
    const { stats } = await read('stats?');
    const rows = async (dimension: string) => (await read(`breakdown?dimension=${dimension}`)).rows.map((r: { key: string; visitors: number }) => `${r.key}:${r.visitors}`).sort();
    return {
      stats: [stats.visitors.value, stats.sessions.value, stats.pageviews.value, stats.bounceRate.value],
      pages: await rows('page'),
      countries: await rows('country'),
      events: await rows('event'),
      ...(journeys ? { journeys: (await read('journeys?steps=2')).totalSessions } : {}),
    };
  };
  const ended = async (source: 'umami' | 'goatcounter', body: string) => {
    const created = await uploadImport(server, site.siteId, body, `source=${source}&name=${source}.csv`, { authorization: `Bearer ${server.adminToken}`, 'content-type': 'text/csv' });
    assert.equal(created.status, 202, JSON.stringify(created.body));
    return finishedImport(server, site.siteId, created.body.importId);
  };
  const imported = async (source: 'umami' | 'goatcounter', body: string) => {
    const job = await ended(source, body);
    assert.equal(job.status, 'done', job.error);
    return job.importId as string;
  };
  const remove = async (importId: string) => assert.equal((await server.admin('DELETE', `/sites/${site.siteId}/imports/${importId}`)).status, 204);
  const importsOf = async () => {
    const rows = await server.storedEvents(site.siteId);
    return rows.map((r) => r.import_id ?? 'live').sort();
  };

  const live = await figures();
  assert.deepEqual(live.stats, [1, 1, 2, 0]);

  const umamiFile = umamiCsv(umamiRows(site.domain));
  const firstUmami = await imported('umami', umamiFile);
  const withUmami = await figures();
  assert.deepEqual(withUmami.stats, [3, 3, 5, 0.3333]);
  const secondUmami = await imported('umami', umamiFile);
  assert.deepEqual(await figures(), withUmami, 'the same file imported again counts once');
  assert.deepEqual(await importsOf(), [...Array(4).fill(secondUmami), 'live', 'live'].sort(), 'the first import\'s events are replaced by the second\'s');

  // A replacement whose removal of the earlier events fails: the job fails and takes its own events away.
  const { events } = server.ctx;
  const replaceRows = events.replaceRows;
  events.replaceRows = (table, scope, rows) => (scope.where?.import_id === secondUmami ? Promise.reject(new Error('the connection was lost')) : replaceRows.call(events, table, scope, rows));
  try {
    assert.equal((await ended('umami', umamiFile)).status, 'failed');
  } finally {
    events.replaceRows = replaceRows;
  }
  assert.deepEqual(await figures(), withUmami);
  assert.deepEqual(await importsOf(), [...Array(4).fill(secondUmami), 'live', 'live'].sort());

  const firstGoat = await imported('goatcounter', GOATCOUNTER);
  const withBoth = await figures();
  assert.deepEqual(withBoth.stats, [5, 5, 8, 0.4], "another source's import adds to the day");
  const secondGoat = await imported('goatcounter', GOATCOUNTER);
  assert.deepEqual(await figures(), withBoth);

  await remove(secondGoat);
  assert.deepEqual(await figures(), withUmami, 'the deleted import leaves no figure');
  await remove(firstGoat);

  // Out of the raw window, DAY reads its rollups; its raw events stay while an import's lie on it.
  clock.set(LATER);
  const maintenance = async () => assert.equal((await server.admin('POST', '/maintenance/run', { tasks: ['rollup', 'retention'] })).status, 200);
  await maintenance();
  /** Figures but journeys, which read raw events only (inside the raw window). */
  const outsideWindow = ({ journeys: _journeys, ...rest }: typeof live) => rest;
  assert.deepEqual(await figures(false), outsideWindow(withUmami));
  assert.deepEqual(await importsOf(), [...Array(4).fill(secondUmami), 'live', 'live'].sort());
  await remove(secondUmami);
  assert.deepEqual(await figures(false), outsideWindow(live), 'the live visitor stays as collected');
  assert.deepEqual(await importsOf(), ['live', 'live']);
  await maintenance();
  assert.deepEqual(await importsOf(), [], 'no import holds the day: its raw events go');
  await remove(firstUmami);
  assert.deepEqual(await figures(false), outsideWindow(live));
}
