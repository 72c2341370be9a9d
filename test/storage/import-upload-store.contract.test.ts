// The ImportJobStore's uploads on every metadata engine: an upload stored in chunks of 1 MiB comes
// back byte for byte, a chunk at a time; one cut while it was stored leaves nothing; a job that ends
// or is deleted takes its upload with it; the sweep removes uploads of no pending job once stale,
// and leaves those of queued or running jobs and those still being written.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { Clock } from '../../src/core/clock.js';
import { openMetaStores } from '../../src/storage/meta/open.js';
import { UPLOAD_CHUNK_BYTES, UploadNotStored, type ImportJobStore } from '../../src/storage/meta/import-types.js';
import { META_DATABASES } from '../helpers/meta-adapters.js';

async function* pieces(bytes: Buffer, size: number, failAt = Infinity): AsyncGenerator<Buffer> {
  for (let at = 0; at < bytes.length; at += size) {
    if (at >= failAt) throw new Error('the client went away');
    yield bytes.subarray(at, at + size);
  }
}

async function readAll(jobs: ImportJobStore, id: string): Promise<Buffer[]> {
  const chunks: Buffer[] = [];
  for await (const chunk of jobs.readUpload(id)) chunks.push(chunk);
  return chunks;
}

const notStored = (err: unknown) => err instanceof UploadNotStored;
/** A clock stopped at `ms`. */
const at = (ms: number): Clock => ({ now: () => ms });

for (const kind of META_DATABASES) test(`ImportJobStore uploads contract: ${kind.name}`, async () => {
  const database = await kind.create();
  const stores = await openMetaStores(database.location);
  try {
    const jobs = stores.imports;
    const job = (id: string) => ({ id, siteId: 's', source: 'umami' as const, createdAt: 1, uploadFile: `${id}.upload`, fileName: `${id}.csv` });
    const bytes = randomBytes(2.5 * UPLOAD_CHUNK_BYTES);

    // Stored from pieces of any size, read back in chunks of 1 MiB, the last one shorter.
    assert.equal(await jobs.storeUpload('a', pieces(bytes, 300_001), at(1_000)), bytes.length);
    await jobs.createImportJob(job('a'));
    const chunks = await readAll(jobs, 'a');
    assert.deepEqual(chunks.map((c) => c.length), [UPLOAD_CHUNK_BYTES, UPLOAD_CHUNK_BYTES, UPLOAD_CHUNK_BYTES / 2]);
    assert.ok(Buffer.concat(chunks).equals(bytes));
    // Read twice (a job taken again after its worker stopped): the same bytes.
    assert.ok(Buffer.concat(await readAll(jobs, 'a')).equals(bytes));
    await assert.rejects(readAll(jobs, 'unknown'), notStored);

    // Cut while it was stored: nothing of it stays, not even for the sweep to find.
    await assert.rejects(jobs.storeUpload('cut', pieces(bytes, 65_536, 2 * UPLOAD_CHUNK_BYTES), at(1_000)), /went away/);
    await assert.rejects(readAll(jobs, 'cut'), notStored);
    assert.equal(await jobs.sweepUploads(Number.MAX_SAFE_INTEGER), 0, 'no chunk of the cut upload is left');

    // A job that ends takes its upload with it; one that another holder tries to end keeps it.
    const [claimed] = [await jobs.claimImportJob('w', 10, 1_000)];
    assert.equal(claimed?.id, 'a');
    assert.equal(await jobs.finishImportJob('a', 'someone else', { status: 'done', report: '{}', error: null }), false);
    assert.equal((await readAll(jobs, 'a')).length, 3);
    assert.equal(await jobs.finishImportJob('a', 'w', { status: 'done', report: '{}', error: null }), true);
    await assert.rejects(readAll(jobs, 'a'), notStored);

    // A deleted job takes its upload with it too, and a reading under way fails rather than ending short.
    await jobs.storeUpload('b', pieces(bytes, UPLOAD_CHUNK_BYTES), at(1_000));
    await jobs.createImportJob(job('b'));
    const reading = jobs.readUpload('b');
    assert.equal((await reading.next()).value?.length, UPLOAD_CHUNK_BYTES);
    await jobs.deleteImportJob('b');
    await assert.rejects(reading.next(), notStored);
    await assert.rejects(readAll(jobs, 'b'), notStored);
    assert.equal(await jobs.sweepUploads(Number.MAX_SAFE_INTEGER), 0);

    // The sweep: an upload of no job (its process stopped before the job was made) goes once stale;
    // a queued job's stays however old; one stored after its job ended goes.
    await jobs.storeUpload('orphan', pieces(bytes, UPLOAD_CHUNK_BYTES), at(1_000));
    await jobs.storeUpload('queued', pieces(bytes, UPLOAD_CHUNK_BYTES), at(1_000));
    await jobs.createImportJob(job('queued'));
    await jobs.storeUpload('late', pieces(bytes, UPLOAD_CHUNK_BYTES), at(5_000));
    await jobs.createImportJob(job('late'), { holder: 'h', leaseUntil: 9_000 });
    await jobs.finishImportJob('late', 'h', { status: 'failed', report: null, error: 'cut' });
    await jobs.storeUpload('late', pieces(bytes, UPLOAD_CHUNK_BYTES), at(5_000));
    assert.equal(await jobs.sweepUploads(1_000), 0, 'nothing written before 1 000');
    assert.equal(await jobs.sweepUploads(1_001), 4, "the orphan's three chunks and its mark");
    await assert.rejects(readAll(jobs, 'orphan'), notStored);
    assert.ok(Buffer.concat(await readAll(jobs, 'queued')).equals(bytes));
    assert.equal(await jobs.sweepUploads(5_001), 4, "the ended job's upload");
    assert.ok(Buffer.concat(await readAll(jobs, 'queued')).equals(bytes));
    // An empty upload is one mark and no chunk: swept once no job waits for it.
    assert.equal(await jobs.storeUpload('empty', pieces(Buffer.alloc(0), 1), at(1_000)), 0);
    assert.deepEqual(await readAll(jobs, 'empty'), []);
    assert.equal(await jobs.sweepUploads(1_001), 1);
    // Each chunk is dated as it is written: an upload arriving slowly (a chunk every 400 s here) is
    // not stale while its last chunk is recent, however long ago its first came.
    let ms = 0;
    await jobs.storeUpload('slow', pieces(bytes, UPLOAD_CHUNK_BYTES), { now: () => (ms += 400_000) });
    assert.equal(await jobs.sweepUploads(1_000_000), 0, 'the last chunk came at 1 200 s');
    assert.ok(Buffer.concat(await readAll(jobs, 'slow')).equals(bytes));
  } finally {
    await stores.meta.close();
    await database.dispose();
  }
});
