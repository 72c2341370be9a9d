// Plausible figures past what the store's numbers hold, on every engine: the lines of a CSV whose daily
// sums would pass BIGINT (10 000 lines of 999 999 999 999 999 visitors on one day) are refused one by
// one with the reason once the file's sum would pass MAX_FILE_SUM, and the rest is imported; and a
// job whose write the engine refuses for a number out of range (an error writing again cannot mend)
// fails at once with the engine's reason, instead of running again every minute holding its slot.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManualClock } from '../../src/core/clock.js';
import { importPlausible, MAX_FILE_SUM } from '../../src/imports/plausible-import.js';
import { ImportService } from '../../src/imports/service.js';
import { sql } from '../../src/sql/sql.js';
import { IMPORTED_TABLES } from '../../src/stats/rollups/tables.js';
import { createRollupTables } from '../../src/stats/rollups/write.js';
import type { EventStore } from '../../src/storage/events/types.js';
import { openMetaStores } from '../../src/storage/meta/open.js';
import { EVENT_STORE_ADAPTERS } from '../helpers/event-stores.js';
import { HEADERS, zipOf } from '../helpers/plausible-export.js';

const NOW = Date.UTC(2025, 5, 20, 12);
const HUGE = 999_999_999_999_999;
const LINES = 10_000;

/** The visitors table of one day, each line with HUGE visitors: its sum passes BIGINT (2^63 - 1) at line 9 224. */
const hugeVisitors = () => [HEADERS.visitors, ...Array.from({ length: LINES }, () => `2025-05-01,${HUGE},1,0,1,0`)].join('\n') + '\n';

/** A statement each engine refuses for a number past its range (ClickHouse's integer sums wrap instead of failing: an array's length). */
const OUT_OF_RANGE: Record<string, ReturnType<typeof sql>> = {
  duckdb: sql`SELECT CAST(9223372036854775807 AS BIGINT) + CAST(1 AS BIGINT) AS s`,
  clickhouse: sql`SELECT length(range(toUInt64(10000000000))) AS s`,
};

for (const adapter of EVENT_STORE_ADAPTERS) {
  test(`numbers past the store's range: refused per line, or the job fails at once: ${adapter.name}`, async () => {
    const events = await adapter.open();
    const { meta, imports: jobs } = await openMetaStores({ sqlitePath: ':memory:' });
    const dir = await mkdtemp(join(tmpdir(), 'svc-out-of-range-'));
    try {
      await createRollupTables(events);
      const org = await meta.createOrg('o', 0);
      const site = await meta.createSite(org.id, { domain: 'example.com', name: 'e', timezone: 'UTC', retentionMonths: null, rawDays: 30, honorGpc: true }, 'isite', 0);
      // The table's CSV alone (zipped, its repeated lines would read as a ZIP bomb).
      const path = join(dir, 'visitors_20250501_20250501.csv');
      await writeFile(path, hugeVisitors());

      const report = await importPlausible(events, { siteId: site.id, importId: 'huge' }, path, 'visitors_20250501_20250501.csv');
      const kept = Math.floor(MAX_FILE_SUM / HUGE);
      assert.deepEqual([report.rows, report.skippedRows], [kept, LINES - kept]);
      assert.deepEqual(report.skippedLines[0], { file: 'visitors_20250501_20250501.csv', line: kept + 2, reason: `visitors takes the file's sum past ${MAX_FILE_SUM}, the largest svc keeps` });
      const [day] = await events.query<{ v: unknown }>(sql`SELECT sum(visitors) AS v FROM imported_daily WHERE site_id = ${site.id}`);
      assert.equal(Number(day!.v), kept * HUGE);

      // The engine's own refusal of a number out of range (a real statement's error) as the write's failure.
      const overflowing = Object.assign(Object.create(events) as EventStore, {
        replaceTogether: (replacements: Parameters<EventStore['replaceTogether']>[0]) =>
          IMPORTED_TABLES.every((table) => replacements.some((r) => r.table === table))
            ? events.query(OUT_OF_RANGE[adapter.name]!).then(() => {
                throw new Error(`no error from ${adapter.name}`);
              })
            : events.replaceTogether(replacements),
      });
      const warnings: string[] = [];
      const service = new ImportService({
        events: overflowing, jobs, clock: new ManualClock(NOW), dataDir: dir, runsJobs: false, warn: (obj, message) => warnings.push(`${message} ${JSON.stringify(obj)}`),
        getSite: async () => site, importReadLines: () => Promise.reject(new Error('no NDJSON here')), removeEvents: async () => {}, addAnnotations: async () => {},
      });
      const upload = await zipOf({ 'visitors_20250501_20250501.csv': [HEADERS.visitors, '2025-05-01,10,30,6,12,600'].join('\n') + '\n' });
      const { importId } = await service.upload(site, 'plausible', 'small.zip', (async function* () {
        yield upload;
      })());
      await service.runNow();
      const job = await jobs.getImportJob(importId);
      assert.equal(job?.status, 'failed', `not taken again: writing again writes the same numbers (${warnings.join('; ')})`);
      assert.match(job!.error!, /^the import's figures do not fit svc's numbers: /);
    } finally {
      await events.close();
      await meta.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
}
