// Import jobs end to end through a real server: uploads queued and run, progress and reports
// listed, refusals answered at once with their reason, a body over the limit refused before it is
// read, deletion, the same routes for an organisation's admins and owners, and a job queued on a
// process without the worker role run by the next start on the same data.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request as httpRequest } from 'node:http';
import { MAX_IMPORT_BYTES } from '../../src/imports/service.js';
import { EXPORT_README } from '../../src/imports/export.js';
import { openZipEntry, readZipDirectory } from '../../src/imports/zip.js';
import { createApiKey, createSite, startTestServer, type TestServer } from '../helpers/server.js';
import { signedInUser } from '../helpers/app-client.js';
import { plausibleExport, zipOf } from '../helpers/plausible-export.js';
import { finishedImport, uploadImport } from '../helpers/import-jobs.js';

const DAYS = ['2025-06-01', '2025-06-02', '2025-06-03'];

/** The README.txt of an exported ZIP. */
const readmeOf = (zip: Uint8Array) => entryOf(zip, (name) => name === EXPORT_README);

/** The text of the first entry of an exported ZIP whose name `wanted` takes. */
async function entryOf(zip: Uint8Array, wanted: (name: string) => boolean): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-export-entry-'));
  try {
    const path = join(dir, 'export.zip');
    writeFileSync(path, zip);
    const entry = (await readZipDirectory(path)).find((e) => wanted(e.name));
    assert.ok(entry, 'the export holds the entry');
    const chunks: Buffer[] = [];
    for await (const chunk of await openZipEntry(path, entry)) chunks.push(Buffer.from(chunk));
    return Buffer.concat(chunks).toString('utf8');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('import jobs through the admin API: queued, run, listed, refused with a reason, deleted', async () => {
  const server = await startTestServer();
  try {
    const site = await createSite(server);
    const key = await createApiKey(server, site.orgId);
    const read = async (params: string, endpoint = 'stats') => {
      const res = await fetch(`${server.url}/v1/sites/${site.siteId}/${endpoint}?${params}`, { headers: { authorization: `Bearer ${key}` } });
      return { imported: res.headers.get('svc-imported'), body: (await res.json()) as any };
    };
    const zip = await zipOf({ ...plausibleExport(DAYS), 'README.txt': 'not a table' });
    const created = await uploadImport(server, site.siteId, zip);
    assert.equal(created.status, 202);
    assert.match(created.body.importId, /^imp_/);
    const job = await finishedImport(server, site.siteId, created.body.importId);
    assert.equal(job.status, 'done', job.error);
    assert.deepEqual([job.source, job.from, job.to, job.progress, job.rows, job.skippedRows, job.skippedDays, job.error], ['plausible', '2025-06-01', '2025-06-03', 1, 3 * 21, 0, [], null]);
    assert.deepEqual(job.files.find((f: { name: string }) => f.name === 'README.txt'), { name: 'README.txt', table: null, rows: 0, skippedRows: 0, missingColumns: [] });
    assert.equal(job.files.filter((f: { table: string | null }) => f.table !== null).length, 10);
    const stats = await read('from=2025-06-01&to=2025-06-03');
    assert.equal(stats.imported, 'included');
    assert.equal(stats.body.stats.visitors.value, 30);
    assert.equal((await read('from=2025-06-01&to=2025-06-02&grain=hour', 'timeseries')).imported, 'excluded', 'hours cannot be told from daily sums');
    assert.equal((await read('from=2025-06-01&to=2025-06-03&dimension=page&filter=country:FR', 'breakdown')).body.error.code, 'RAW_WINDOW_EXCEEDED');
    assert.equal((await read('from=2025-07-01&to=2025-07-03')).imported, 'none');
    assert.deepEqual(readdirSync(join(server.dataDir, 'imports')), [], 'the upload goes once the job is done');

    // Refused at once with the reason; nothing queued, the site's figures unchanged.
    const lines = 'date,visitors,pageviews,visits,visit_duration\n2025-06-04,1,2,1,5\n';
    const refusals: Array<[string, Uint8Array | string, string, RegExp]> = [
      ['missing column', lines, 'source=plausible&name=imported_visitors_20250604_20250604.csv', /imported_visitors_20250604_20250604\.csv: the visitors table has no column bounces/],
      ['path climbing out', await zipOf({ 'a/../../imported_visitors_20250604_20250604.csv': lines }), 'source=plausible', /climbs out of the archive/],
      ['ZIP bomb', await zipOf({ 'imported_visitors_20250604_20250604.csv': 'date,visitors,pageviews,bounces,visits,visit_duration\n' + '2025-06-04,1,1,1,1,1\n'.repeat(100_000) }), 'source=plausible', /a ZIP bomb/],
      ['unknown source', zip, 'source=matomo', /source must be one of plausible, goatcounter/],
      ['no source', zip, '', /source must be one of/],
    ];
    for (const [what, body, query, reason] of refusals) {
      const res = await uploadImport(server, site.siteId, body, query);
      assert.equal(res.status, 400, what);
      assert.equal(res.body.error.code, 'INVALID_IMPORT', what);
      assert.match(res.body.error.message, reason, what);
    }
    assert.equal((await server.admin('GET', `/sites/${site.siteId}/imports`)).body.imports.length, 1);
    assert.equal((await read('from=2025-06-01&to=2025-06-03')).body.stats.visitors.value, 30);

    // A body announced over the limit is refused before it is read.
    const over = await announcedBody(server, `/admin/v1/sites/${site.siteId}/imports?source=plausible`, MAX_IMPORT_BYTES + 1);
    assert.equal(over.status, 413);
    assert.match(over.body, /PAYLOAD_TOO_LARGE/);
    assert.deepEqual(readdirSync(join(server.dataDir, 'imports')), []);

    // Exported in Plausible's format (all of its data, or a period), and read back into another site.
    const exported = await fetch(`${server.url}/admin/v1/sites/${site.siteId}/export`, { headers: { authorization: `Bearer ${server.adminToken}` } });
    assert.equal(exported.status, 200);
    assert.equal(exported.headers.get('content-type'), 'application/zip');
    assert.match(exported.headers.get('content-disposition') ?? '', /^attachment; filename="svc-export-.*-2025-06-01-2025-06-03\.zip"$/);
    const exportedZip = new Uint8Array(await exported.arrayBuffer());
    assert.match(await readmeOf(exportedZip), /^svc export of .*\nFirst day held: 2025-06-01\nLast day held: 2025-06-03\nIt holds the site's rolled-up days and its imported days; no day of collected traffic is rolled up yet\./);
    // Browsers and systems as Plausible names them: the import's `Mobile Safari` and `Mac` are svc's
    // `Safari` and `macOS`, which go out as Plausible's `Safari` and `Mac`, never another alias.
    const names = async (table: string) => (await entryOf(exportedZip, (name) => name.startsWith(`imported_${table}_`))).split('\n').slice(1).filter(Boolean).map((l) => l.split(',')[1]);
    assert.deepEqual([...new Set(await names('browsers'))].sort(), ['Chrome', 'Safari']);
    assert.deepEqual([...new Set(await names('operating_systems'))].sort(), ['GNU/Linux', 'Mac']);
    const narrower = await fetch(`${server.url}/admin/v1/sites/${site.siteId}/export?from=2025-05-01&to=2025-06-02`, { headers: { authorization: `Bearer ${server.adminToken}` } });
    assert.match(await readmeOf(new Uint8Array(await narrower.arrayBuffer())), /\nFirst day held: 2025-06-01\nLast day held: 2025-06-02\n/, 'the days held, not the days asked');
    // The widest period asked reads only the months the site holds rows for: the same rows as the default export's.
    const widest = new Uint8Array(await (await fetch(`${server.url}/admin/v1/sites/${site.siteId}/export?from=2000-01-01&to=2100-12-31`, { headers: { authorization: `Bearer ${server.adminToken}` } })).arrayBuffer());
    for (const table of ['visitors', 'browsers', 'pages']) {
      assert.equal(await entryOf(widest, (name) => name.startsWith(`imported_${table}_20000101_21001231`)), await entryOf(exportedZip, (name) => name.startsWith(`imported_${table}_`)), table);
    }
    const none = await fetch(`${server.url}/admin/v1/sites/${site.siteId}/export?from=2025-07-01&to=2025-07-02`, { headers: { authorization: `Bearer ${server.adminToken}` } });
    assert.match(await readmeOf(new Uint8Array(await none.arrayBuffer())), /\nIt holds no day\.\n/);
    const copy = await createSite(server);
    const back = await uploadImport(server, copy.siteId, exportedZip, 'source=plausible&name=svc-export.zip');
    const backJob = await finishedImport(server, copy.siteId, back.body.importId);
    assert.equal(backJob.status, 'done');
    assert.deepEqual(backJob.files.find((f: { name: string }) => f.name === EXPORT_README), { name: EXPORT_README, table: null, rows: 0, skippedRows: 0, missingColumns: [] }, 'the README is read past');
    const copyKey = await createApiKey(server, copy.orgId);
    const copied = await fetch(`${server.url}/v1/sites/${copy.siteId}/stats?from=2025-06-01&to=2025-06-03`, { headers: { authorization: `Bearer ${copyKey}` } });
    assert.deepEqual(((await copied.json()) as any).stats, stats.body.stats);
    const bad = await server.admin('GET', `/sites/${site.siteId}/export?from=2025-06-31`);
    assert.deepEqual([bad.status, bad.body.error.code], [400, 'INVALID_PARAMS']);
    const reversed = await server.admin('GET', `/sites/${site.siteId}/export?from=2025-06-03&to=2025-06-01`);
    assert.deepEqual([reversed.status, reversed.body.error.code], [400, 'INVALID_PERIOD']);

    // Deleted: its days read as before it.
    assert.equal((await server.admin('DELETE', `/sites/${site.siteId}/imports/nope`)).status, 404);
    const other = await createSite(server);
    assert.equal((await server.admin('DELETE', `/sites/${other.siteId}/imports/${created.body.importId}`)).status, 404, "another site's import is not found");
    assert.equal((await server.admin('DELETE', `/sites/${site.siteId}/imports/${created.body.importId}`)).status, 204);
    assert.deepEqual((await server.admin('GET', `/sites/${site.siteId}/imports`)).body.imports, []);
    const after = await read('from=2025-06-01&to=2025-06-03');
    assert.deepEqual([after.imported, after.body.stats.visitors.value], ['none', 0]);
  } finally {
    await server.stop();
  }
});

test("/app/v1/manage: an organisation's admins and owners import, its viewers do not", async () => {
  const server = await startTestServer();
  try {
    const site = await createSite(server);
    const owner = await signedInUser(server, `owner-${process.pid}@example.com`, [{ orgId: site.orgId, role: 'owner' }]);
    const viewer = await signedInUser(server, `viewer-${process.pid}@example.com`, [{ orgId: site.orgId, role: 'viewer' }]);
    const as = (client: typeof owner.client) => ({ cookie: `svc_session=${client.cookie}`, 'x-csrf-token': client.csrfToken!, origin: server.url });
    const zip = await zipOf(plausibleExport(DAYS));
    const created = await uploadImport(server, site.siteId, zip, 'source=plausible', as(owner.client), '/app/v1/manage');
    assert.equal(created.status, 202);
    const job = await finishedImport(server, site.siteId, created.body.importId, (path) => owner.client.request('GET', `/app/v1/manage${path}`));
    assert.equal(job.status, 'done');
    const refused = await uploadImport(server, site.siteId, zip, 'source=plausible', as(viewer.client), '/app/v1/manage');
    assert.equal(refused.status, 403);
    assert.equal((await viewer.client.request('GET', `/app/v1/manage/sites/${site.siteId}/imports`)).status, 403);
    const exported = await fetch(`${server.url}/app/v1/manage/sites/${site.siteId}/export?from=2025-06-01&to=2025-06-02`, { headers: { cookie: `svc_session=${owner.client.cookie}` } });
    assert.deepEqual([exported.status, exported.headers.get('content-type')], [200, 'application/zip']);
    assert.equal((await fetch(`${server.url}/app/v1/manage/sites/${site.siteId}/export`, { headers: { cookie: `svc_session=${viewer.client.cookie}` } })).status, 403);
    assert.equal((await owner.client.request('DELETE', `/app/v1/manage/sites/${site.siteId}/imports/${created.body.importId}`)).status, 204);
  } finally {
    await server.stop();
  }
});

test('a job still queued when its process stops runs at the next start on the same data', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-imports-'));
  try {
    const api = await startTestServer({ dataDir });
    await api.ctx.imports.stop(); // takes no more jobs: the upload stays queued
    const site = await createSite(api);
    const created = await uploadImport(api, site.siteId, await zipOf(plausibleExport(DAYS)));
    assert.equal(created.status, 202);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const queued = (await api.admin('GET', `/sites/${site.siteId}/imports`)).body.imports[0];
    assert.deepEqual([queued.status, queued.progress], ['queued', 0]);
    // A site holds at most 3 imports queued or running: a fourth is refused before it is read.
    for (const expected of [202, 202, 429]) {
      const next = await uploadImport(api, site.siteId, await zipOf(plausibleExport(['2025-07-01'])));
      assert.equal(next.status, expected, JSON.stringify(next.body));
      if (expected === 429) assert.match(next.body.error.message, /at most 3 imports uploading, queued or running at once/);
    }
    await api.stop();
    const worker = await startTestServer({ dataDir });
    try {
      const job = await finishedImport(worker, site.siteId, created.body.importId);
      assert.deepEqual([job.status, job.rows], ['done', 3 * 21]);
    } finally {
      await worker.stop();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});

/** A request announcing `length` bytes of body and sending a few: the answer, and whether it came before the rest. */
function announcedBody(server: TestServer, path: string, length: number): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const url = new URL(server.url);
    const req = httpRequest({ host: url.hostname, port: url.port, path, method: 'POST', headers: { authorization: `Bearer ${server.adminToken}`, 'content-type': 'application/zip', 'content-length': String(length) } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => {
        req.destroy();
        resolve({ status: res.statusCode ?? 0, body });
      });
    });
    req.on('error', reject);
    req.write(Buffer.alloc(1024));
  });
}
