// A GA4 import whose write into the store fails half-way, on every engine: the process that holds
// its key runs it again (Google read anew) once the wait for a failed write is over, which mends the
// site's figures, instead of failing with the earlier import's days half replaced.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { systemClock } from '../../src/core/clock.js';
import { readServiceAccountKey } from '../../src/imports/ga4/key.js';
import { ImportService } from '../../src/imports/service.js';
import { IMPORTED_TABLES } from '../../src/stats/rollups/tables.js';
import { createRollupTables } from '../../src/stats/rollups/write.js';
import { sql } from '../../src/sql/sql.js';
import type { EventStore } from '../../src/storage/events/types.js';
import { openMetaStores } from '../../src/storage/meta/open.js';
import { EVENT_STORE_ADAPTERS } from '../helpers/event-stores.js';
import { ga4Property, startGa4Fixture } from '../helpers/ga4-property.js';

// Two months, so that ClickHouse swaps two partitions of each table.
const DAYS = ['2025-04-29', '2025-04-30', '2025-05-01', '2025-05-02'];

type Replacements = Parameters<EventStore['replaceTogether']>[0];

for (const adapter of EVENT_STORE_ADAPTERS) test(`a GA4 import whose write fails half-way runs again in its process: ${adapter.name}`, async () => {
  const fixture = await startGa4Fixture({ '1': ga4Property(DAYS), '2': ga4Property(DAYS, () => 3) });
  const events = await adapter.open();
  const { meta, imports: jobs } = await openMetaStores({ sqlitePath: ':memory:' });
  try {
    await createRollupTables(events);
    const org = await meta.createOrg('o', 0);
    const site = await meta.createSite(org.id, { domain: 'example.com', name: 'e', timezone: 'UTC', retentionMonths: null, rawDays: 30, honorGpc: true }, 'gsite', 0);
    let failures = 0;
    const halfWritten = Object.assign(Object.create(events) as EventStore, {
      replaceTogether(replacements: Replacements) {
        if (!IMPORTED_TABLES.every((table) => replacements.some((r) => r.table === table)) || failures === 0) return events.replaceTogether(replacements);
        failures--;
        return events.replaceTogether(replacements.slice(0, 1)).then(() => Promise.reject(new Error('the connection was lost')));
      },
    });
    const warnings: string[] = [];
    const service = new ImportService({
      events: halfWritten, jobs, clock: systemClock, dataDir: '/nonexistent', runsJobs: false, warn: (_obj, message) => warnings.push(message),
      getSite: async () => site, importReadLines: () => Promise.reject(new Error('no NDJSON here')), removeEvents: async () => {}, addAnnotations: async () => {},
      ga4: { tokenUrl: fixture.google.tokenUrl, dataUrl: fixture.google.dataUrl, ...fixture.server.ga4 }, writeRetryMs: 50,
    });
    const visitors = async () => (await events.query<{ n: number }>(sql`SELECT CAST(sum(visitors) AS INTEGER) AS n FROM imported_daily WHERE site_id = ${site.id}`))[0]?.n;
    const run = async (property: string) => {
      const { importId } = await service.importGa4(site, { property, key: readServiceAccountKey(fixture.keyFile), from: DAYS[0]!, to: DAYS.at(-1)! });
      await service.drain();
      return (await jobs.getImportJob(importId))!;
    };
    assert.equal((await run('1')).status, 'done');
    assert.equal(await visitors(), 40);
    const reportsBefore = fixture.google.reports.length;
    failures = 1;
    const job = await run('2');
    assert.deepEqual([job.status, job.error], ['done', null], 'not failed: the earlier figures were already half replaced');
    assert.deepEqual(warnings, ['an import job is taken again in a minute: its write failed']);
    assert.equal(fixture.google.reports.length - reportsBefore, 2 * reportsBefore, 'the property read again, as the first import read its twin');
    assert.equal(await visitors(), 120);
  } finally {
    await events.close();
    await meta.close();
    await fixture.google.stop();
  }
});
