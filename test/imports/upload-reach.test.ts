// The process that receives an upload and the worker that runs its job, each with its own data
// folder: the job names its file within the imports folder, so a worker sharing that folder (a
// link, as a shared volume) runs it; a worker that does not see the file fails the job once, with
// the reason, and leaves it failed; a row of an older version, holding an absolute path, still runs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { importTestStores } from '../helpers/import-service.js';
import { plausibleExport, zipOf } from '../helpers/plausible-export.js';

const DAYS = ['2025-03-01', '2025-03-02'];

test("a job runs from the worker's own imports folder, and fails with the reason when its upload is not there", async () => {
  const { jobs, site, dir: root, service, close } = await importTestStores('upload-reach');
  try {
    const warnings: string[] = [];
    // One process of a role on a data folder of its own, the stores shared as in the scale-out profile.
    const processOn = (dataDir: string) => service({ dataDir, warn: (_obj, message) => warnings.push(message) });
    const apiDir = join(root, 'api');
    const api = processOn(apiDir);
    const zip = await zipOf(plausibleExport(DAYS));
    const upload = async () => (await api.upload(site, 'plausible', 'export.zip', (async function* () { yield zip; })())).importId;

    // A worker that does not share the api's imports folder: failed once, with the reason.
    const first = await upload();
    assert.equal((await jobs.getImportJob(first))?.uploadFile, `${first}.upload`, 'the job names its file within the imports folder');
    const alone = processOn(join(root, 'alone'));
    await alone.runNow();
    const failed = await jobs.getImportJob(first);
    assert.equal(failed?.status, 'failed');
    assert.equal(failed?.error, `the uploaded file is not reachable from the worker: imports/${first}.upload of its data folder cannot be read (ENOENT); the api and the worker need one shared SVC_DATA_DIR/imports (docs/scale-out.md#volumes)`);
    assert.deepEqual(warnings, ['an import job failed: its upload is not in the imports folder of this process']);
    await alone.runNow();
    assert.equal((await jobs.getImportJob(first))?.status, 'failed', 'not taken again');
    // The api still finds it: deleting the failed import removes its file.
    await api.remove(site, first);
    assert.deepEqual(readdirSync(join(apiDir, 'imports')), []);

    // A worker whose imports folder is the api's (a shared volume): done, the file gone.
    const second = await upload();
    const workerDir = join(root, 'worker');
    mkdirSync(workerDir);
    symlinkSync(join(apiDir, 'imports'), join(workerDir, 'imports'));
    await processOn(workerDir).runNow();
    const done = await jobs.getImportJob(second);
    assert.equal(done?.status, 'done', done?.error ?? '');
    assert.equal(JSON.parse(done!.report!).rows, DAYS.length * 21);
    assert.deepEqual(readdirSync(join(apiDir, 'imports')), []);

    // A row of an older version holds the absolute path of its file: read as it is.
    const legacyFile = join(root, 'older-version.upload');
    writeFileSync(legacyFile, zip);
    await jobs.createImportJob({ id: 'imp_older', siteId: site.id, source: 'plausible', createdAt: Date.now(), uploadFile: legacyFile, fileName: 'export.zip' });
    await processOn(workerDir).runNow();
    assert.equal((await jobs.getImportJob('imp_older'))?.status, 'done');
    assert.equal(existsSync(legacyFile), false, 'its file goes once it is done');
  } finally {
    await close();
  }
});
