// `svc import ga4 --property ID --key FILE --site ID` end to end: the command line against a real
// server that reaches the local stand-in of Google's endpoints; the report (readable and JSON), a
// key file that is not one refused without quoting it, and Google's refusal failing the command.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ga4Property, startGa4Fixture, type Ga4Fixture } from '../helpers/ga4-property.js';
import { runSvc } from '../helpers/cli.js';
import { createSite, startTestServer, type TestServer } from '../helpers/server.js';

const PROPERTY = '376543210';
let fixture: Ga4Fixture;
let server: TestServer;
let scratch: string;
let keyPath: string;

before(async () => {
  fixture = await startGa4Fixture({ [PROPERTY]: ga4Property(['2025-05-01', '2025-05-02']) });
  server = await startTestServer(fixture.server);
  scratch = mkdtempSync(join(tmpdir(), 'svc-cli-ga4-'));
  keyPath = join(scratch, 'ga4-reader.json');
  writeFileSync(keyPath, JSON.stringify(fixture.keyFile, null, 2), { mode: 0o600 });
});
after(async () => {
  await server.stop();
  await fixture.google.stop();
  rmSync(scratch, { recursive: true, force: true });
});

const svc = (args: string[]) => runSvc(args, { SVC_URL: server.url, SVC_ADMIN_TOKEN: server.adminToken, SVC_DATA_DIR: scratch });

test('svc import ga4: the property read, the report printed', async () => {
  const site = await createSite(server);
  const run = await svc(['import', 'ga4', '--property', PROPERTY, '--key', keyPath, '--site', site.siteId, '--from', '2025-05-01', '--to', '2025-05-02']);
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stdout, /^status\s+done$/m);
  assert.match(run.stdout, /^days\s+2025-05-01 to 2025-05-02$/m);
  assert.match(run.stdout, /^rows\s+70$/m);
  assert.match(run.stdout, /^skipped rows\s+2$/m);
  assert.match(run.stdout, /^browsers\s+browsers\s+8\s+0\s+-$/m);
  assert.match(run.stdout, /^custom events\s+custom_events\s+14\s+2\s+-$/m);
  assert.match(run.stdout, /Ünïcode/, 'the skipped lines and why');
  const json = await svc(['import', 'ga4', '--property', PROPERTY, '--key', keyPath, '--site', site.siteId, '--from', '2025-05-01', '--to', '2025-05-02', '--json']);
  assert.equal(json.code, 0, json.stderr);
  const report = JSON.parse(json.stdout);
  assert.deepEqual([report.source, report.status, report.rows, report.skippedDays], ['ga4', 'done', 70, []]);
  const stats = await server.admin('GET', `/sites/${site.siteId}/stats?from=2025-05-01&to=2025-05-02`);
  assert.equal(stats.body.stats.visitors.value, 20, 'the second import replaced the first: each day once');
});

test('svc import ga4: a file that is no key, and a property the key cannot read, fail with the reason', async () => {
  const site = await createSite(server);
  const pem = join(scratch, 'key.pem');
  writeFileSync(pem, fixture.keyFile.private_key!);
  const notJson = await svc(['import', 'ga4', '--property', PROPERTY, '--key', pem, '--site', site.siteId]);
  assert.equal(notJson.code, 1);
  assert.match(notJson.stderr, /key\.pem is not JSON: give the key file Google Cloud downloads/);
  assert.ok(!notJson.stderr.includes(fixture.keyFile.private_key!.split('\n')[2]!), 'the key is not printed');
  const denied = await svc(['import', 'ga4', '--property', '999', '--key', keyPath, '--site', site.siteId, '--from', '2025-05-01']);
  assert.equal(denied.code, 1);
  assert.match(denied.stdout, /^status\s+failed$/m);
  assert.match(denied.stderr, /the import failed: Google denied access to GA4 property 999 \(403 PERMISSION_DENIED/);
  const usage = await svc(['import', 'ga4', '--property', PROPERTY, '--site', site.siteId]);
  assert.equal(usage.code, 2);
  assert.match(usage.stderr, /missing --key/);
  const help = await svc(['import', '--help']);
  assert.match(help.stdout, /usage: svc import ga4 --property ID --key FILE --site ID \[--from YYYY-MM-DD\] \[--to YYYY-MM-DD\]/);
});
