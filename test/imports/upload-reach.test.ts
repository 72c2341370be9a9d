// The process that receives an upload and the worker that runs its job, each with a data folder of
// its own and only the metadata database shared (the scale-out profile): the upload travels in the
// database, the worker runs it from its own copy, and when the job ends neither folder nor the
// database keeps any of it. A worker that stopped mid-job leaves the stored upload to the next one;
// deleting an import removes its stored upload; a job whose upload was never stored whole fails.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { UPLOAD_NOT_WHOLE } from '../../src/imports/service.js';
import { UploadNotStored, type ImportJobStore } from '../../src/storage/meta/import-types.js';
import { importTestStores } from '../helpers/import-service.js';
import { plausibleExport, zipOf } from '../helpers/plausible-export.js';

const DAYS = ['2025-03-01', '2025-03-02'];

async function stored(jobs: ImportJobStore, id: string): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  try {
    for await (const chunk of jobs.readUpload(id)) chunks.push(chunk);
  } catch (err) {
    if (err instanceof UploadNotStored) return null;
    throw err;
  }
  return Buffer.concat(chunks);
}

const filesOf = (dataDir: string) => readdirSync(join(dataDir, 'imports'));

test('an upload travels to the worker through the metadata database, with no folder shared, and goes when its job ends', async () => {
  const { jobs, site, dir: root, service, close } = await importTestStores('upload-reach');
  try {
    const processOn = (name: string) => service({ dataDir: join(root, name) });
    const api = processOn('api');
    const zip = await zipOf(plausibleExport(DAYS));
    const upload = async () => (await api.upload(site, 'plausible', 'export.zip', (async function* () { yield zip; })())).importId;

    // Received: the upload is in the database, the api's folder keeps nothing.
    const first = await upload();
    assert.ok((await stored(jobs, first))?.equals(zip), 'stored byte for byte');
    assert.deepEqual(filesOf(join(root, 'api')), []);
    // A worker on a folder of its own runs it; then nothing of the upload is left anywhere.
    await processOn('worker').runNow();
    const done = await jobs.getImportJob(first);
    assert.equal(done?.status, 'done', done?.error ?? '');
    assert.equal(JSON.parse(done!.report!).rows, DAYS.length * 21);
    assert.equal(await stored(jobs, first), null, 'the stored upload went with the job');
    assert.deepEqual(filesOf(join(root, 'worker')), [], "the worker's copy went too");

    // A worker that took a job and stopped (its lease lapses): the next worker, on another folder, runs it from the database.
    const second = await upload();
    assert.equal((await jobs.claimImportJob('a stopped worker', Date.now(), Date.now()))?.id, second);
    await processOn('worker-2').runNow();
    assert.equal((await jobs.getImportJob(second))?.status, 'done');
    assert.equal(await stored(jobs, second), null);
    assert.equal(await jobs.sweepUploads(Number.MAX_SAFE_INTEGER), 0, 'no chunk of any upload is left');

    // Deleting an import that waits removes its stored upload.
    const third = await upload();
    await api.remove(site, third);
    assert.equal(await stored(jobs, third), null);
    assert.equal(await jobs.sweepUploads(Number.MAX_SAFE_INTEGER), 0);

    // A job whose upload was never stored whole (its receiving process stopped): failed once, with the reason.
    await jobs.createImportJob({ id: 'imp_half', siteId: site.id, source: 'plausible', createdAt: Date.now(), uploadFile: 'imp_half.upload', fileName: 'export.zip' });
    const worker = processOn('worker-3');
    await worker.runNow();
    const half = await jobs.getImportJob('imp_half');
    assert.deepEqual([half?.status, half?.error], ['failed', UPLOAD_NOT_WHOLE]);
    await worker.runNow();
    assert.equal((await jobs.getImportJob('imp_half'))?.status, 'failed', 'not taken again');
    assert.deepEqual(filesOf(join(root, 'worker-3')), []);
  } finally {
    await close();
  }
});
