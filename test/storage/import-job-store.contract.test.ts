// The ImportJobStore contract on every metadata engine: jobs listed newest first with their upload's
// name as written, one claimer per job, a lease that runs out lets another take it, progress and the
// end only from the holder, release back to the queue, deletion, a job created under its holder's lease.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openMetaStores } from '../../src/storage/meta/open.js';
import { META_DATABASES } from '../helpers/meta-adapters.js';

for (const kind of META_DATABASES) test(`ImportJobStore contract: ${kind.name}`, async () => {
  const database = await kind.create();
  const stores = await openMetaStores(database.location);
  try {
    const jobs = stores.imports;
    const job = (id: string, createdAt: number) => ({ id, siteId: 's', source: 'plausible' as const, createdAt, uploadFile: `${id}.upload`, fileName: `${id}.zip` });
    await jobs.createImportJob(job('a', 1));
    await jobs.createImportJob(job('b', 2));
    await jobs.createImportJob({ ...job('c', 3), siteId: 't' });
    assert.deepEqual((await jobs.listImportJobs('s')).map((j) => [j.id, j.status, j.progress, j.uploadFile]), [['b', 'queued', 0, 'b.upload'], ['a', 'queued', 0, 'a.upload']]);

    // Two claimers at once: each job goes to one of them, the oldest first.
    const [x, y] = await Promise.all([jobs.claimImportJob('x', 10, 1_000), jobs.claimImportJob('y', 10, 1_000)]);
    assert.deepEqual([x?.id, y?.id].sort(), ['a', 'b']);
    const mine = x!.id === 'a' ? 'x' : 'y';
    assert.equal(await jobs.reportImportProgress('a', mine, 0.5, 2_000), true);
    assert.equal(await jobs.reportImportProgress('a', 'someone else', 0.9, 2_000), false);
    assert.equal((await jobs.getImportJob('a'))?.progress, 0.5);
    const other = mine === 'x' ? 'y' : 'x';
    assert.equal(await jobs.reportImportProgress('b', other, 0.1, 3_000), true);
    // Before its lease runs out nobody else takes it; after, the next claimer does.
    assert.equal((await jobs.claimImportJob('z', 1_500, 9_000))?.id, 'c');
    assert.equal(await jobs.claimImportJob('z', 1_999, 9_000), undefined);
    assert.equal((await jobs.claimImportJob('z', 2_000, 9_000))?.id, 'a');
    assert.equal(await jobs.finishImportJob('a', mine, { status: 'done', report: '{}', error: null }), false, 'the first holder lost it');
    assert.equal(await jobs.finishImportJob('a', 'z', { status: 'done', report: '{"rows":1}', error: null }), true);
    const done = await jobs.getImportJob('a');
    assert.deepEqual([done?.status, done?.progress, done?.report], ['done', 1, '{"rows":1}']);
    // Released by a stopping worker: queued again, from the start.
    await jobs.releaseImportJob('b', other);
    assert.deepEqual([(await jobs.getImportJob('b'))?.status, (await jobs.getImportJob('b'))?.progress], ['queued', 0]);
    assert.equal(await jobs.finishImportJob('c', 'z', { status: 'failed', report: null, error: 'bad file' }), true);
    assert.deepEqual([(await jobs.getImportJob('c'))?.status, (await jobs.getImportJob('c'))?.error], ['failed', 'bad file']);
    await jobs.deleteImportJob('b');
    assert.deepEqual((await jobs.listImportJobs('s')).map((j) => j.id), ['a']);
    // Created running under its holder's lease (a job its process runs at once): nobody else takes it before the lease runs out.
    await jobs.createImportJob({ ...job('d', 4), uploadFile: '' }, { holder: 'h', leaseUntil: 5_000 });
    assert.deepEqual([(await jobs.getImportJob('d'))?.status, (await jobs.getImportJob('d'))?.uploadFile], ['running', '']);
    assert.equal(await jobs.claimImportJob('z', 4_999, 9_000), undefined);
    assert.equal(await jobs.reportImportProgress('d', 'h', 0.5, 6_000), true);
    assert.equal((await jobs.claimImportJob('z', 6_000, 9_000))?.id, 'd');
  } finally {
    await stores.meta.close();
    await database.dispose();
  }
});
