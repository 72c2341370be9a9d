// An ImportService on real stores for the tests of import jobs: DuckDB and SQLite in memory, one
// site, and a temp folder for the data dirs of the processes the test plays.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { systemClock } from '../../src/core/clock.js';
import type { Site } from '../../src/entities/sites.js';
import { ImportService, type ImportServiceOptions } from '../../src/imports/service.js';
import { createRollupTables } from '../../src/stats/rollups/write.js';
import { DuckDbEventStore } from '../../src/storage/events/duckdb.js';
import type { ImportJobStore } from '../../src/storage/meta/import-types.js';
import { openMetaStores } from '../../src/storage/meta/open.js';

export interface ImportTestStores {
  jobs: ImportJobStore;
  site: Site;
  /** A temp folder, removed by close(). */
  dir: string;
  /** An ImportService on these stores (runs no job by itself: the test calls runNow()). */
  service(options: Pick<ImportServiceOptions, 'dataDir'> & Partial<ImportServiceOptions>): ImportService;
  close(): Promise<void>;
}

export async function importTestStores(name: string): Promise<ImportTestStores> {
  const dir = mkdtempSync(join(tmpdir(), `svc-${name}-`));
  const events = await DuckDbEventStore.open({ path: ':memory:' });
  const { meta, imports: jobs } = await openMetaStores({ sqlitePath: ':memory:' });
  await createRollupTables(events);
  const org = await meta.createOrg('o', 0);
  const site = await meta.createSite(org.id, { domain: `${name}.test`, name, timezone: 'UTC', retentionMonths: null, rawDays: 30, honorGpc: true }, name.replace(/\W/g, ''), 0);
  return {
    jobs,
    site,
    dir,
    service: (options) =>
      new ImportService({
        events, jobs, clock: systemClock, runsJobs: false, warn: () => {},
        getSite: (id) => meta.getSite(id), importReadLines: () => Promise.reject(new Error('not used')), removeEvents: async () => {},
        addAnnotations: async () => {},
        ...options,
      }),
    async close() {
      await events.close();
      await meta.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
