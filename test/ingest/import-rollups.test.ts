// An import into days already rolled up: the days are marked pending before its events are
// committed (a process that stops between the commit and the rewrite leaves them to the next
// rollup run), and a rewrite that fails after the commit is answered IMPORT_ROLLUPS_PENDING,
// the events stored, never a plain 500 that would invite sending them again.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ManualClock } from '../../src/core/clock.js';
import { MetricsRegistry } from '../../src/core/metrics.js';
import { GeoDatabases } from '../../src/ingest/geo.js';
import { Ingestor } from '../../src/ingest/ingestor.js';
import { DuckDbEventStore } from '../../src/storage/events/duckdb.js';
import { createRollupTables, markImportedDays, rollupSite } from '../../src/storage/events/rollups.js';
import { openSqliteMetaStore } from '../../src/storage/meta/sqlite.js';
import { BROWSER_UA, createApiKey, createSite, importEvents, startTestServer } from '../helpers/server.js';

const NOW = Date.UTC(2026, 5, 15, 12, 0);
// Older than the raw window: only rollups answer for it.
const OLD_DAY = '2026-04-20';
const OLD = Date.parse(`${OLD_DAY}T10:00:00Z`);

/** One pageview each from `count` visitors, starting with visitor `first`. */
const visitors = (first: number, count: number) =>
  Array.from({ length: count }, (_, i) => ({ ts: OLD + (first + i) * 60_000, ua: BROWSER_UA, ip: `203.0.113.${first + i + 1}`, u: '/docs' }));

test('the rolled-up days of an import are marked pending before its events are committed', async () => {
  const clock = new ManualClock(NOW);
  const meta = await openSqliteMetaStore(':memory:');
  const events = await DuckDbEventStore.open({ path: ':memory:' });
  try {
    await createRollupTables(events);
    const deps = { events, meta };
    const org = await meta.createOrg('o', 0);
    const site = await meta.createSite(org.id, { domain: 'pending.example', name: 'p', timezone: 'UTC', retentionMonths: null, honorGpc: true }, 'PendingSite', 0);
    // The service's wiring of the first step only: as if the process stopped right after the commit.
    const ingest = new Ingestor({ clock, meta, events, geo: GeoDatabases.fromConfig(undefined), metrics: new MetricsRegistry(), collectRateLimit: { count: 100, windowMs: 10_000 } });
    ingest.onImportCommitting((s, days) => markImportedDays(deps, s.id, days));
    const body = (lines: Array<Record<string, unknown>>) => [lines.map((l) => JSON.stringify(l)).join('\n')];
    const siteVisitors = async () => (await events.query<{ v: bigint }>('SELECT visitors AS v FROM site_daily WHERE site_id = ? AND day = ?', [site.id, OLD_DAY]))[0]?.v;

    assert.equal((await ingest.importLines(site, body(visitors(0, 3)))).accepted, 3);
    assert.deepEqual(await events.query('SELECT count(*) AS n FROM rollup_pending'), [{ n: 0n }], 'a day not rolled up yet is not pending');
    await rollupSite(deps, site, clock.now());
    assert.equal(await siteVisitors(), 3n);

    assert.equal((await ingest.importLines(site, body(visitors(3, 2)))).accepted, 2);
    assert.deepEqual(await events.query("SELECT CAST(day AS VARCHAR) AS day FROM rollup_pending WHERE site_id = ?", [site.id]), [{ day: OLD_DAY }]);
    assert.equal(await siteVisitors(), 3n, 'stale until the next run');
    await rollupSite(deps, site, clock.now());
    assert.equal(await siteVisitors(), 5n, 'the next run rewrites the day');
    assert.deepEqual(await events.query('SELECT count(*) AS n FROM rollup_pending'), [{ n: 0n }]);
  } finally {
    await events.close();
    await meta.close();
  }
});

test('rollups that fail after the commit: IMPORT_ROLLUPS_PENDING, the events stored, the rollup task completes them', async () => {
  const server = await startTestServer({ clock: new ManualClock(NOW) });
  try {
    const site = await createSite(server, { timezone: 'UTC' });
    const key = await createApiKey(server, site.orgId);
    const visitorsOnOldDay = async () => {
      const res = await fetch(`${server.url}/v1/sites/${site.siteId}/stats?from=${OLD_DAY}&to=${OLD_DAY}`, { headers: { authorization: `Bearer ${key}` } });
      return ((await res.json()) as { stats: { visitors: { value: number } } }).stats.visitors.value;
    };
    assert.equal((await importEvents(server, site.siteId, visitors(0, 3))).status, 200);
    assert.equal(await visitorsOnOldDay(), 3);

    // A real failure of the rewrite: one of its tables is gone.
    await server.ctx.events.exec('ALTER TABLE dim_daily RENAME TO dim_daily_away');
    const failed = await importEvents(server, site.siteId, visitors(3, 2));
    assert.equal(failed.status, 500);
    const { error } = failed.body as unknown as { error: { code: string; message: string } };
    assert.equal(error.code, 'IMPORT_ROLLUPS_PENDING');
    assert.match(error.message, /^the 2 accepted events are stored, but rolling up their days failed \(.+\): the rollup task completes them .*do not send this import again$/);
    assert.equal((await server.storedEvents(site.siteId)).length, 5);

    await server.ctx.events.exec('ALTER TABLE dim_daily_away RENAME TO dim_daily');
    assert.deepEqual((await server.admin('POST', '/maintenance/run', { tasks: ['rollup'] })).body, { ran: ['rollup'] });
    assert.equal(await visitorsOnOldDay(), 5);
  } finally {
    await server.stop();
  }
});
