// `svc import plausible FILE --site ID` (and `umami`) against a real server: the upload, the job
// followed to its end, the report (readable and JSON, with the columns an older export lacks), and a
// refused file's reason with a failing exit status.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runSvc } from '../helpers/cli.js';
import { createSite, startTestServer, type TestServer } from '../helpers/server.js';
import { firstExport, plausibleExport, zipOf } from '../helpers/plausible-export.js';
import { UMAMI_HEADER, umamiCsv } from '../helpers/umami-export.js';

let server: TestServer;
let scratch: string;

before(async () => {
  server = await startTestServer();
  scratch = mkdtempSync(join(tmpdir(), 'svc-cli-import-'));
});
after(async () => {
  await server.stop();
  rmSync(scratch, { recursive: true, force: true });
});

const svc = (args: string[]) => runSvc(args, { SVC_URL: server.url, SVC_ADMIN_TOKEN: server.adminToken, SVC_DATA_DIR: scratch });

test('svc import plausible: the export read, the report printed', async () => {
  const site = await createSite(server);
  const zip = join(scratch, 'plausible-export.zip');
  writeFileSync(zip, await zipOf({ ...plausibleExport(['2025-05-01', '2025-05-02']), 'notes.txt': 'x' }));
  const run = await svc(['import', 'plausible', zip, '--site', site.siteId]);
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stdout, /^status\s+done$/m);
  assert.match(run.stdout, /^days\s+2025-05-01 to 2025-05-02$/m);
  assert.match(run.stdout, /^rows\s+42$/m);
  assert.match(run.stdout, /^skipped rows\s+0$/m);
  assert.match(run.stdout, /imported_browsers_20250501_20250502\.csv\s+browsers\s+6\s+0/);
  assert.match(run.stdout, /notes\.txt\s+\(ignored\)/);
  const json = await svc(['import', 'plausible', zip, '--site', site.siteId, '--json']);
  assert.equal(json.code, 0, json.stderr);
  const report = JSON.parse(json.stdout);
  assert.deepEqual([report.status, report.rows, report.skippedDays], ['done', 42, []]);
  const listed = await server.admin('GET', `/sites/${site.siteId}/imports`);
  assert.equal(listed.body.imports.length, 2);
});

test("svc import plausible: an older export's file, known by its header, with the columns its table lacks", async () => {
  const site = await createSite(server);
  const csv = join(scratch, 'exits.csv');
  writeFileSync(csv, firstExport(['2025-05-01'], '/pricing')['imported_exit_pages_20250501_20250501.csv']!);
  const run = await svc(['import', 'plausible', csv, '--site', site.siteId]);
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stdout, /^FILE\s+TABLE\s+ROWS\s+SKIPPED\s+MISSING COLUMNS$/m);
  assert.match(run.stdout, /^exits\.csv\s+exit_pages\s+2\s+0\s+visit_duration, bounces, pageviews$/m);
  assert.match(run.stdout, /^An older export: exit pages without visit duration, bounces and pageviews\. What these columns give is unknown on its days, never counted as 0\.$/m);
});

test('svc import plausible: a refused file says why and fails', async () => {
  const site = await createSite(server);
  const csv = join(scratch, 'imported_visitors_20250501_20250502.csv');
  writeFileSync(csv, 'date,visitors,pageviews,visits\n2025-05-01,1,1,1\n');
  const run = await svc(['import', 'plausible', csv, '--site', site.siteId]);
  assert.equal(run.code, 1);
  assert.match(run.stderr, /INVALID_IMPORT: the file is not an export svc reads: imported_visitors_20250501_20250502\.csv: the visitors table has no column bounces, visit_duration/);
  const missing = await svc(['import', 'plausible', join(scratch, 'nope.zip'), '--site', site.siteId]);
  assert.equal(missing.code, 1);
  assert.match(missing.stderr, /cannot read .*nope\.zip: no such file/);
  const help = await svc(['import', '--help']);
  assert.match(help.stdout, /usage: svc import FILE --site ID/);
  assert.match(help.stdout, /usage: svc import plausible FILE --site ID/);
});

test('svc import umami: the export read, sessions cut at 30 minutes without visit_id, the report printed', async () => {
  const site = await createSite(server);
  const file = join(scratch, 'umami-export.csv');
  const visitor = (session_id: string, created_at: string, event_type = '1') => ({ session_id, hostname: site.domain, browser: 'firefox', os: 'Linux', device: 'desktop', url_path: '/', event_type, created_at });
  const rows = [visitor('s-1', '2025-05-01 10:00:00'), visitor('s-2', '2025-05-01 10:05:00'), visitor('s-1', '2025-05-01 10:10:00'), visitor('s-1', '2025-05-01 10:50:00'), visitor('s-2', '2025-05-01 10:06:00', '5')];
  writeFileSync(file, umamiCsv(rows, UMAMI_HEADER.filter((c) => c !== 'visit_id')));
  const run = await svc(['import', 'umami', file, '--site', site.siteId]);
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stdout, /^status\s+done$/m);
  assert.match(run.stdout, /^days\s+2025-05-01 to 2025-05-01$/m);
  assert.match(run.stdout, /^rows\s+4$/m);
  assert.match(run.stdout, /^skipped rows\s+1$/m);
  assert.match(run.stdout, /umami-export\.csv\s+6\s+event_type 5 is neither a pageview \(1\) nor a custom event \(2\): 1 line of it skipped/);
  // Visitor s-1's third pageview comes 40 minutes after its second: a session of its own.
  const stored = await server.storedEvents(site.siteId);
  assert.deepEqual([stored.length, stored.filter((r) => r.session_start).length, new Set(stored.map((r) => r.visitor_id)).size], [4, 3, 2]);
  const help = await svc(['import', '--help']);
  assert.match(help.stdout, /usage: svc import umami FILE --site ID/);
});
