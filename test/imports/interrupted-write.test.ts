// A replacing import whose write into the store fails, on every engine: the imported tables
// change together or not at all (a failure while their rows are built), and a write that fails
// half-way (ClickHouse's swaps, one month after another) leaves the job to be taken again from its
// stored upload, which mends the site's figures, instead of failing with the earlier import's days half gone.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManualClock } from '../../src/core/clock.js';
import { type RawParams } from '../../src/core/query.js';
import { importPlausible, WriteInterrupted } from '../../src/imports/plausible-import.js';
import { ImportService } from '../../src/imports/service.js';
import { sql } from '../../src/sql/sql.js';
import { planRead, readSourceOf } from '../../src/stats/entry.js';
import { computeBreakdown } from '../../src/stats/read/breakdown.js';
import { computeStats } from '../../src/stats/read/stats.js';
import { IMPORTED_TABLES } from '../../src/stats/rollups/tables.js';
import { createRollupTables } from '../../src/stats/rollups/write.js';
import type { EventStore } from '../../src/storage/events/types.js';
import { openMetaStores } from '../../src/storage/meta/open.js';
import { EVENT_STORE_ADAPTERS } from '../helpers/event-stores.js';
import { plausibleExport, zipOf } from '../helpers/plausible-export.js';

const NOW = Date.UTC(2025, 5, 20, 12);
// Two months, so that ClickHouse swaps two partitions of each table.
const DAYS = ['2025-04-29', '2025-04-30', '2025-05-01', '2025-05-02'];

type Replacements = Parameters<EventStore['replaceTogether']>[0];

/** The store, but for the writes of an import's figures (the imported tables together) that `fail` decides to break. */
function breakable(events: EventStore, fail: (replacements: Replacements) => Promise<void> | null): EventStore {
  return Object.assign(Object.create(events) as EventStore, {
    replaceTogether: (replacements: Replacements) => (IMPORTED_TABLES.every((table) => replacements.some((r) => r.table === table)) ? fail(replacements) : null) ?? events.replaceTogether(replacements),
  });
}

for (const adapter of EVENT_STORE_ADAPTERS) test(`a replacing import that fails to write leaves the earlier figures, or is written again: ${adapter.name}`, async () => {
  const events = await adapter.open();
  const { meta, imports: jobs } = await openMetaStores({ sqlitePath: ':memory:' });
  const dir = await mkdtemp(join(tmpdir(), 'svc-interrupted-'));
  try {
    await createRollupTables(events);
    const org = await meta.createOrg('o', 0);
    const site = await meta.createSite(org.id, { domain: 'example.com', name: 'e', timezone: 'UTC', retentionMonths: null, rawDays: 30, honorGpc: true }, 'isite', 0);
    const planned = async (kind: 'stats' | 'breakdown', params: RawParams) => {
      return (await planRead(readSourceOf(events, meta), { kind, params: { comparison: 'off', from: DAYS[0], to: DAYS.at(-1), ...params }, site, now: NOW })).q;
    };
    const figures = async () => ({
      stats: await computeStats(events, await planned('stats', {}), []),
      pages: (await computeBreakdown(events, await planned('breakdown', { dimension: 'page' }))).rows,
      monthly: await events.query(sql`SELECT count(*) AS n FROM imported_dim_monthly WHERE site_id = ${site.id}`),
    });
    const file = async (name: string, scale: number) => {
      const path = join(dir, name);
      await writeFile(path, await zipOf(plausibleExport(DAYS, () => scale)));
      return path;
    };
    await importPlausible(events, { siteId: site.id, importId: 'first' }, await file('first.zip', 1), 'first.zip');
    const first = await figures();
    assert.equal(first.stats.visitors.value, 40);

    // A failure while the new rows are built (the last table's rows cannot be read): nothing changes.
    const broken = breakable(events, (replacements) =>
      events.replaceTogether(replacements.map((r, i) => (i === replacements.length - 1 ? { ...r, rows: sql`SELECT no_such_column FROM imported_daily` } : r))),
    );
    await assert.rejects(importPlausible(broken, { siteId: site.id, importId: 'second' }, await file('second.zip', 2), 'second.zip'), WriteInterrupted);
    assert.deepEqual(await figures(), first, 'the earlier import stays whole');

    // A failure half-way: the job runs again a minute later instead of failing, and ends written.
    let failures = 1;
    const halfWritten = breakable(events, (replacements) => {
      if (failures === 0) return null;
      failures--;
      return events.replaceTogether(replacements.slice(0, 1)).then(() => Promise.reject(new Error('the connection was lost')));
    });
    const clock = new ManualClock(NOW);
    const warnings: string[] = [];
    const service = new ImportService({
      events: halfWritten, jobs, clock, dataDir: dir, runsJobs: false, warn: (_obj, message) => warnings.push(message),
      getSite: async () => site, importReadLines: () => Promise.reject(new Error('no NDJSON here')), removeEvents: async () => {}, addAnnotations: async () => {},
    });
    const third = await zipOf(plausibleExport(DAYS, () => 3));
    const { importId } = await service.upload(site, 'plausible', 'third.zip', (async function* () {
      yield third;
    })());
    await service.runNow();
    let job = await jobs.getImportJob(importId);
    assert.equal(job?.status, 'running', 'not failed: the earlier figures are already half replaced');
    assert.deepEqual(warnings, ['an import job is taken again in a minute: its write failed']);
    assert.equal((await readdir(join(dir, 'imports'))).length, 0, "the worker's copy goes");
    let stored = 0;
    for await (const chunk of jobs.readUpload(importId)) stored += chunk.length;
    assert.equal(stored, third.length, 'its stored upload stays for the next run');
    clock.advance(30_000);
    await service.runNow();
    assert.equal((await jobs.getImportJob(importId))?.status, 'running', 'not before its minute');
    clock.advance(31_000);
    await service.runNow();
    job = await jobs.getImportJob(importId);
    assert.equal(job?.status, 'done', job?.error ?? '');
    const written = await figures();
    assert.equal(written.stats.visitors.value, 120);
    assert.deepEqual(written.pages.map((r) => [r.key, r.visitors]), first.pages.map((r) => [r.key, r.visitors * 3]));
    assert.deepEqual(written.monthly, first.monthly);
  } finally {
    await events.close();
    await meta.close();
    await rm(dir, { recursive: true, force: true });
  }
});
