// An upload past the size limit that does not announce its length (a chunked body): refused as soon
// as its count passes the limit, its partial file removed, no job queued, the site's figures as
// they were.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApiError } from '../../src/core/errors.js';
import { systemClock } from '../../src/core/clock.js';
import { ImportService } from '../../src/imports/service.js';
import { createRollupTables } from '../../src/stats/rollups/job.js';
import { DuckDbEventStore } from '../../src/storage/events/duckdb.js';
import { openMetaStores } from '../../src/storage/meta/open.js';
import { plausibleExport, zipOf } from '../helpers/plausible-export.js';

test('a chunked upload over the limit is refused as it passes it, and leaves nothing', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-upload-limit-'));
  const events = await DuckDbEventStore.open({ path: ':memory:' });
  const { meta, imports: jobs } = await openMetaStores({ sqlitePath: ':memory:' });
  try {
    await createRollupTables(events);
    const org = await meta.createOrg('o', 0);
    const site = await meta.createSite(org.id, { domain: 'limit.test', name: 'l', timezone: 'UTC', retentionMonths: null, rawDays: 30, honorGpc: true }, 'limitsite', 0);
    const service = new ImportService({
      events, jobs, clock: systemClock, dataDir, runsJobs: true, maxBytes: 64 * 1024, warn: () => {},
      getSite: (id) => meta.getSite(id), importLines: () => Promise.reject(new Error('not used')),
    });
    let sent = 0;
    async function* endless(): AsyncGenerator<Buffer> {
      for (;;) {
        sent += 16 * 1024;
        yield Buffer.alloc(16 * 1024, 0x41);
      }
    }
    await assert.rejects(service.upload(site, 'plausible', 'huge.zip', endless()), (err: unknown) => err instanceof ApiError && err.code === 'PAYLOAD_TOO_LARGE' && /at most 65536 bytes/.test(err.message));
    assert.ok(sent <= 96 * 1024, `read ${sent} bytes of an endless body`);
    assert.deepEqual(readdirSync(join(dataDir, 'imports')), []);
    assert.deepEqual(await jobs.listImportJobs(site.id), []);
    // Under the limit, the same service takes a file.
    const small = await zipOf(plausibleExport(['2025-01-01']));
    const { importId } = await service.upload(site, 'plausible', 'small.zip', (async function* () { yield small; })());
    await service.runNow();
    assert.equal((await jobs.getImportJob(importId))?.status, 'done');
  } finally {
    await events.close();
    await meta.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
