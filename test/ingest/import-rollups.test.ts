// An import into days already rolled up: the days are marked pending before its events are
// committed, under the site's rollup lock (a process that stops between the commit and the rewrite
// leaves them to the next rollup run, and no run comes in between), and a rewrite that fails after
// the commit is answered IMPORT_ROLLUPS_PENDING, the events stored, never a plain 500 that would
// invite sending them again.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ManualClock } from '../../src/core/clock.js';
import { PrometheusRegistry } from '../../src/core/prometheus.js';
import { GeoDatabases } from '../../src/ingest/geo.js';
import { Ingestor } from '../../src/ingest/ingestor.js';
import { openCounters } from '../../src/storage/counters/open.js';
import { DuckDbEventStore } from '../../src/storage/events/duckdb.js';
import { rollupKey } from '../../src/stats/rollups/key.js';
import { createRollupTables } from '../../src/stats/rollups/write.js';
import { rollupSite } from '../../src/stats/rollups/run.js';
import { commitImport } from '../../src/stats/rollups/imports.js';
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { sql } from '../../src/sql/sql.js';
import { openSqliteMetaStore } from '../../src/storage/meta/sqlite.js';
import { BROWSER_UA, createApiKey, createSite, importEvents, startTestServer } from '../helpers/server.js';
import { loadConfig } from '../../src/config.js';

const NOW = Date.UTC(2026, 5, 15, 12, 0);
// Older than the raw window: only rollups answer for it.
const OLD_DAY = '2026-04-20';
const OLD = Date.parse(`${OLD_DAY}T10:00:00Z`);

/** One pageview each from `count` visitors, starting with visitor `first`. */
const visitors = (first: number, count: number) =>
  Array.from({ length: count }, (_, i) => ({ ts: OLD + (first + i) * 60_000, ua: BROWSER_UA, ip: `203.0.113.${first + i + 1}`, u: '/docs' }));

test('the rolled-up days of an import are marked pending before its events are committed, under the rollup lock', async () => {
  const clock = new ManualClock(NOW);
  const meta = await openSqliteMetaStore(':memory:');
  const events = await DuckDbEventStore.open({ path: ':memory:' });
  try {
    await createRollupTables(events);
    const deps = { events, meta };
    const org = await meta.createOrg('o', 0);
    const site = await meta.createSite(org.id, { domain: 'pending.example', name: 'p', timezone: 'UTC', retentionMonths: null, rawDays: 30, honorGpc: true }, 'PendingSite', 0);
    const stored = async () => (await events.query<{ n: bigint }>(sql`SELECT count(*) AS n FROM events WHERE site_id = ${site.id}`))[0]!.n;
    const pending = async () => (await meta.listRollupPending(rollupKey(events, site.id))).length;
    // The service's commit, and no rewrite after it: as if the process stopped right after the commit.
    // At the commit, what is pending and stored is noted, and a rollup run is asked for: it must
    // wait for the commit (the lock), or it could clear the mark before the events are there.
    const seen: string[] = [];
    let run: Promise<void> | undefined;
    const ingest = new Ingestor({ clock, meta, events, geo: GeoDatabases.fromConfig(undefined), metrics: new PrometheusRegistry(), collectRateLimit: { count: 100, windowMs: 10_000 }, counters: await openCounters(undefined, { sessionCacheBytes: loadConfig({}).sessionCacheBytes }) });
    ingest.imports.wrapImportCommit((s, days, commit) =>
      commitImport(deps, s.id, days, async () => {
        seen.push(`pending ${await pending()}, stored ${await stored()}`);
        run = rollupSite(deps, site, clock.now()).then(() => void seen.push('rollup run'));
        // Time enough for the run to finish, were it not waiting for the lock.
        await Promise.race([run, new Promise((resolve) => setTimeout(resolve, 300))]);
        await commit();
        seen.push('committed');
      }),
    );
    const body = (lines: Array<Record<string, unknown>>) => [lines.map((l) => JSON.stringify(l)).join('\n')];
    const siteVisitors = async () => (await events.query<{ v: bigint }>(sql`SELECT visitors AS v FROM site_daily WHERE site_id = ${site.id} AND day = CAST(${OLD_DAY} AS DATE)`))[0]?.v;

    assert.equal((await ingest.imports.importLines(site, body(visitors(0, 3)))).accepted, 3);
    await run;
    assert.deepEqual(seen, ['pending 0, stored 0', 'committed', 'rollup run'], 'a day not rolled up yet is not marked');
    assert.equal(await siteVisitors(), 3n);

    seen.length = 0;
    assert.equal((await ingest.imports.importLines(site, body(visitors(3, 2)))).accepted, 2);
    await run;
    assert.deepEqual(seen, ['pending 1, stored 3', 'committed', 'rollup run'], 'marked before the commit; the run waits for it');
    assert.equal(await siteVisitors(), 5n, 'the run after the commit rewrote the day');
    assert.equal(await pending(), 0);
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

    // A real failure of the rewrite: a table it reads the site's definitions from is gone.
    // Renamed through a connection of its own to the service's metadata file.
    const rename = (from: string, to: string) => {
      const db = new Database(join(server.dataDir, 'meta.sqlite'));
      try {
        db.exec(`ALTER TABLE ${from} RENAME TO ${to}`);
      } finally {
        db.close();
      }
    };
    rename('funnels', 'funnels_away');
    const failed = await importEvents(server, site.siteId, visitors(3, 2));
    assert.equal(failed.status, 500);
    const { error } = failed.body as unknown as { error: { code: string; message: string } };
    assert.equal(error.code, 'IMPORT_ROLLUPS_PENDING');
    assert.match(error.message, /^the 2 accepted events are stored, but rolling up their days failed \(.+\): the rollup task completes them .*do not send this import again$/);
    assert.equal((await server.storedEvents(site.siteId)).length, 5);

    rename('funnels_away', 'funnels');

    // A failure before the commit (the marking cannot read the watermark) stores nothing.
    rename('rollup_state', 'rollup_state_away');
    const refused = await importEvents(server, site.siteId, visitors(5, 2));
    assert.equal(refused.status, 500);
    assert.equal((refused.body as unknown as { error: { code: string } }).error.code, 'INTERNAL');
    assert.equal((await server.storedEvents(site.siteId)).length, 5);
    rename('rollup_state_away', 'rollup_state');

    assert.deepEqual((await server.admin('POST', '/maintenance/run', { tasks: ['rollup'] })).body, { ran: ['rollup'] });
    assert.equal(await visitorsOnOldDay(), 5);
  } finally {
    await server.stop();
  }
});
