// An upload past the size limit that does not announce its length (a chunked body): refused as soon
// as its count passes the limit, its partial file removed, no job queued, the site's figures as
// they were.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ApiError } from '../../src/core/errors.js';
import { importTestStores } from '../helpers/import-service.js';
import { plausibleExport, zipOf } from '../helpers/plausible-export.js';

test('a chunked upload over the limit is refused as it passes it, and leaves nothing', async () => {
  const { jobs, site, dir: dataDir, service: serviceOn, close } = await importTestStores('upload-limit');
  try {
    const service = serviceOn({ dataDir, runsJobs: true, maxBytes: 64 * 1024 });
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
    await close();
  }
});
