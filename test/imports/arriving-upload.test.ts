// Raw-event uploads read as they arrive (ImportService.receiveWhileImporting): on a process that
// runs jobs, an Umami upload's job is running and its lines are read before the body ends; an
// upload is stored in the metadata database only once whole, and an upload that fails (cut, over
// the limit, not the format) leaves no job, nothing stored and no file; a job whose upload never
// arrived whole (its process stopped) fails, saying so; uploads sent at once run one at a time; and a
// reading waiting for bytes reports each quiet while, so that its job keeps its lease. The
// importer here only collects the lines: the end-to-end tests read them back (umami.test.ts), and
// the last test here cuts an upload through a real server.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { request } from 'node:http';
import { join } from 'node:path';
import { open } from 'node:fs/promises';
import { ApiError } from '../../src/core/errors.js';
import { UPLOAD_NOT_WHOLE } from '../../src/imports/service.js';
import { UploadNotStored } from '../../src/storage/meta/import-types.js';
import { openArrivingCsv, UploadArrival } from '../../src/imports/upload-arrival.js';
import type { ImportLineFields } from '../../src/ingest/import.js';
import { importTestStores } from '../helpers/import-service.js';
import { createApiKey, createSite, startTestServer } from '../helpers/server.js';
import { UMAMI_HEADER, umamiCsv, umamiLine } from '../helpers/umami-export.js';

const DAY = '2025-04-10';

/** `count` pageviews of one visitor, a second apart from 10:00 on DAY, as lines of Umami's export. */
function rows(count: number, from = 0): string {
  let text = '';
  for (let i = from; i < from + count; i++) {
    const row: Record<string, string> = { session_id: 's-1', visit_id: 'v-1', hostname: 'arriving.test', browser: 'chrome', os: 'Mac OS', url_path: `/p${i}`, event_type: '1', created_at: `${DAY} 10:${String(Math.floor(i / 60)).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}.000` };
    text += umamiLine(UMAMI_HEADER.map((c) => row[c] ?? ''));
  }
  return text;
}

/** A promise and the function that settles it. */
function gate(): { opened: Promise<void>; open: () => void } {
  let open = () => {};
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

async function until(condition: () => boolean | Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`never: ${what}`);
}

/** An importer that takes every line a reading gives, and what it saw. */
function collectingImporter() {
  const seen = { lines: [] as ImportLineFields[], failure: null as unknown };
  const importReadLines = async (_site: unknown, read: () => AsyncIterable<ImportLineFields[]>) => {
    try {
      for await (const batch of read()) seen.lines.push(...batch);
    } catch (err) {
      seen.failure = err;
      throw err;
    }
    return { accepted: seen.lines.length, rejected: 0, errors: [] };
  };
  return { seen, importReadLines };
}

test('an Umami upload is read as it arrives: its job runs and its lines are read before the body ends', async () => {
  const { jobs, site, dir: dataDir, service: serviceOn, close } = await importTestStores('arriving');
  try {
    const { seen, importReadLines } = collectingImporter();
    const service = serviceOn({ dataDir, runsJobs: true, importReadLines });
    const rest = gate();
    async function* body(): AsyncGenerator<Buffer> {
      yield Buffer.from(umamiCsv([]) + rows(2000));
      await rest.opened;
      yield Buffer.from(rows(1000, 2000));
    }
    const uploaded = service.upload(site, 'umami', 'export.csv', body());
    await until(() => seen.lines.length === 2000, 'the first 2 000 lines read while the body is open');
    const [running] = await jobs.listImportJobs(site.id);
    assert.equal(running?.status, 'running');
    await assert.rejects(jobs.readUpload(running.id).next(), UploadNotStored, 'nothing stored before the upload is whole');
    rest.open();
    const { importId } = await uploaded;
    assert.equal(importId, running.id);
    await service.drain();
    const job = await jobs.getImportJob(importId);
    assert.equal(job?.status, 'done', job?.error ?? undefined);
    assert.equal(JSON.parse(job!.report!).rows, 3000);
    assert.deepEqual(seen.lines.map((l) => l.u).slice(1998, 2002), ['https://arriving.test/p1998', 'https://arriving.test/p1999', 'https://arriving.test/p2000', 'https://arriving.test/p2001']);
    assert.deepEqual(readdirSync(join(dataDir, 'imports')), [], 'the upload goes with its job');
    await assert.rejects(jobs.readUpload(importId).next(), UploadNotStored, 'its stored copy too');
    assert.equal(await jobs.sweepUploads(Number.MAX_SAFE_INTEGER), 0);
  } finally {
    await close();
  }
});

test('two uploads sent at once run one after the other: a process runs one import at a time', async () => {
  const { jobs, site, dir: dataDir, service: serviceOn, close } = await importTestStores('arriving-turns');
  try {
    let active = 0;
    let most = 0;
    const importReadLines = async (_site: unknown, read: () => AsyncIterable<ImportLineFields[]>) => {
      active += 1;
      most = Math.max(most, active);
      let lines = 0;
      for await (const batch of read()) lines += batch.length;
      await new Promise((resolve) => setTimeout(resolve, 200));
      active -= 1;
      return { accepted: lines, rejected: 0, errors: [] };
    };
    const service = serviceOn({ dataDir, runsJobs: true, importReadLines });
    const body = () => (async function* () { yield Buffer.from(umamiCsv([]) + rows(500)); })();
    const uploads = await Promise.all([1, 2, 3].map(() => service.upload(site, 'umami', 'export.csv', body())));
    await service.drain();
    assert.equal(most, 1, 'never two imports at once');
    for (const { importId } of uploads) assert.equal((await jobs.getImportJob(importId))?.status, 'done');
  } finally {
    await close();
  }
});

test('an upload that fails while its job reads it (cut, over the limit, not the format) leaves no job and no file', async () => {
  const { jobs, site, dir: dataDir, service: serviceOn, close } = await importTestStores('arriving-cut');
  try {
    const { seen, importReadLines } = collectingImporter();
    const service = serviceOn({ dataDir, runsJobs: true, importReadLines, maxBytes: 256 * 1024 });
    const cases: Array<{ what: string; body: () => AsyncGenerator<Buffer>; refused: (err: unknown) => boolean }> = [
      {
        what: 'the client goes away',
        body: async function* () {
          yield Buffer.from(umamiCsv([]) + rows(500));
          await new Promise((resolve) => setTimeout(resolve, 50));
          throw new Error('the client went away');
        },
        refused: (err) => err instanceof Error && err.message === 'the client went away',
      },
      {
        what: 'the body passes the limit',
        body: async function* () {
          yield Buffer.from(umamiCsv([]));
          for (let i = 0; ; i += 500) yield Buffer.from(rows(500, i));
        },
        refused: (err) => err instanceof ApiError && err.code === 'PAYLOAD_TOO_LARGE',
      },
      {
        what: 'the header is not Umami’s',
        body: async function* () {
          yield Buffer.from('a,b,c\n1,2,3\n');
        },
        refused: (err) => err instanceof ApiError && err.code === 'INVALID_IMPORT' && /no column/.test(err.message),
      },
    ];
    for (const { what, body, refused } of cases) {
      seen.failure = null;
      await assert.rejects(service.upload(site, 'umami', 'export.csv', body()), refused, what);
      await service.drain();
      assert.deepEqual(await jobs.listImportJobs(site.id), [], `${what}: no job`);
      assert.deepEqual(readdirSync(join(dataDir, 'imports')), [], `${what}: no file`);
      assert.equal(await jobs.sweepUploads(Number.MAX_SAFE_INTEGER), 0, `${what}: nothing stored`);
    }
    assert.ok(seen.failure !== null, 'the reading of a cut upload fails, so that its import stores nothing');
  } finally {
    await close();
  }
});

test('a job whose upload never arrived whole (its process stopped) fails, saying so, and leaves no file', async () => {
  const { jobs, site, dir: dataDir, service: serviceOn, close } = await importTestStores('arriving-stopped');
  try {
    // What a process that stopped mid-upload leaves: its job under a lease that lapsed, no upload stored.
    await jobs.createImportJob({ id: 'imp_half', siteId: site.id, source: 'umami', createdAt: 0, uploadFile: 'imp_half.upload', fileName: 'export.csv' }, { holder: 'stopped', leaseUntil: 0 });
    const { seen, importReadLines } = collectingImporter();
    await serviceOn({ dataDir, runsJobs: true, importReadLines }).runNow();
    const job = await jobs.getImportJob('imp_half');
    assert.deepEqual([job?.status, job?.error], ['failed', UPLOAD_NOT_WHOLE]);
    assert.deepEqual(seen.lines, [], 'nothing of half an upload is read');
    assert.deepEqual(readdirSync(join(dataDir, 'imports')), []);
  } finally {
    await close();
  }
});

test('a reading that waits for an upload reports each quiet while (its job renews its lease), and ends with the upload', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-arrival-'));
  try {
    const path = join(dir, 'upload');
    const arrival = new UploadArrival(20);
    const writer = UploadArrival.writer(await open(path, 'wx'), arrival);
    const reports: number[] = [];
    const write = (text: string) => new Promise<void>((resolve, reject) => writer.write(Buffer.from(text), (err) => (err ? reject(err) : resolve())));
    await write('a,b\n1,');
    const bytes = await openArrivingCsv(path, arrival, (n) => reports.push(n));
    const chunks: Buffer[] = [];
    const reading = (async () => {
      for await (const chunk of bytes) chunks.push(chunk);
    })();
    await until(() => reports.filter((n) => n === 0).length >= 3, 'three reports while no byte comes');
    await write('2\n');
    await new Promise<void>((resolve) => writer.end(resolve));
    arrival.ended('whole');
    await reading;
    assert.equal(Buffer.concat(chunks).toString(), 'a,b\n1,2\n');
    assert.equal(reports.reduce((a, b) => a + b, 0), 8, "every byte read is reported");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('an Umami upload cut through a real server leaves no job, no events and no file', async () => {
  const server = await startTestServer();
  try {
    const site = await createSite(server);
    const key = await createApiKey(server, site.orgId);
    const head = Buffer.from(umamiCsv([]) + rows(2000));
    await new Promise<void>((resolve) => {
      const req = request(`${server.url}/admin/v1/sites/${site.siteId}/imports?source=umami&name=export.csv`, {
        method: 'POST',
        headers: { authorization: `Bearer ${server.adminToken}`, 'content-type': 'text/csv', 'content-length': String(head.length * 4) },
      });
      req.on('error', () => resolve());
      req.on('response', () => resolve());
      req.write(head);
      // Cut once its job has read some of it.
      until(async () => (await server.admin('GET', `/sites/${site.siteId}/imports`)).body.imports[0]?.progress > 0, 'the job reading the upload')
        .then(() => req.destroy())
        .catch(() => req.destroy());
    });
    await until(async () => (await server.admin('GET', `/sites/${site.siteId}/imports`)).body.imports.length === 0, 'the job gone');
    await until(() => readdirSync(join(server.dataDir, 'imports')).length === 0, 'the upload gone');
    const res = await fetch(`${server.url}/v1/sites/${site.siteId}/stats?from=${DAY}&to=${DAY}`, { headers: { authorization: `Bearer ${key}` } });
    assert.equal(((await res.json()) as any).stats.visitors.value, 0);
  } finally {
    await server.stop();
  }
});
