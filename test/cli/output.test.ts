// The CLI's printers (table, fields, progress bar) and the import progress bar on a terminal,
// driven in process through main() with a fake TTY stderr against a real server.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../src/cli/main.js';
import { formatFields, formatTable, ProgressBar, renderProgress } from '../../src/cli/output.js';
import { BROWSER_UA, createSite, startTestServer, type TestServer } from '../helpers/server.js';

class Capture {
  text = '';
  constructor(readonly isTTY = false) {}
  write(chunk: string) {
    this.text += chunk;
    return true;
  }
}

test('tables align columns and show absent values as -', () => {
  assert.equal(
    formatTable(['ID', 'NAME', 'REVOKED'], [[1, 'a', null], [12, 'longer name', '2026-01-01T00:00:00Z'], [3, true, undefined]]),
    'ID  NAME         REVOKED\n' + '1   a            -\n' + '12  longer name  2026-01-01T00:00:00Z\n' + '3   yes          -\n',
  );
  assert.equal(formatTable(['ID', 'NAME'], []), 'ID  NAME\n');
  assert.equal(formatFields([['id', 1], ['domain', 'x.example']]), 'id      1\ndomain  x.example\n');
});

test('progress frames', () => {
  assert.equal(renderProgress(0, 2048, 10), '[----------]   0%  0 B / 2.0 KiB');
  assert.equal(renderProgress(1024, 2048, 10), '[#####-----]  50%  1.0 KiB / 2.0 KiB');
  assert.equal(renderProgress(3 * 1024 * 1024, 3 * 1024 * 1024, 4), '[####] 100%  3.0 MiB / 3.0 MiB');
  assert.equal(renderProgress(0, 0, 4), '[####] 100%  0 B / 0 B');
});

test('the bar draws on a TTY at most once per interval, and never elsewhere', () => {
  let now = 0;
  const tty = new Capture(true);
  const bar = new ProgressBar(tty, 100, '', 100, () => now);
  bar.advance(10); // first frame
  now = 50;
  bar.advance(10); // throttled
  now = 150;
  bar.advance(30);
  now = 160;
  bar.advance(50); // complete: always drawn
  const frames = tty.text.split('\r\x1b[2K').filter(Boolean);
  assert.deepEqual(frames.map((f) => f.match(/\d+%/)![0]), ['10%', '50%', '100%']);
  bar.finish();
  assert.ok(tty.text.endsWith('\r\x1b[2K'));

  const pipe = new Capture(false);
  const quiet = new ProgressBar(pipe, 100, '', 0, () => now);
  quiet.advance(100);
  quiet.status('waiting');
  quiet.finish();
  assert.equal(pipe.text, '');
});

let server: TestServer;
let scratch: string;
before(async () => {
  server = await startTestServer();
  scratch = mkdtempSync(join(tmpdir(), 'svc-cli-out-'));
});
after(async () => {
  await server.stop();
  rmSync(scratch, { recursive: true, force: true });
});

test('svc import shows the progress bar on a terminal stderr, then the summary on stdout', async () => {
  const site = await createSite(server);
  const lines = Array.from({ length: 20_000 }, (_, i) =>
    JSON.stringify({ ts: Date.UTC(2026, 2, 3) + i * 1000, ua: BROWSER_UA, ip: `10.1.${(i >> 8) & 255}.${i & 255}`, u: `/p/${i % 13}` }),
  );
  const file = join(scratch, 'big.ndjson');
  writeFileSync(file, lines.join('\n') + '\n');
  const stdout = new Capture();
  const stderr = new Capture(true);
  const code = await main(['import', file, '--site', site.siteId], {
    stdout,
    stderr,
    env: { SVC_URL: server.url, SVC_ADMIN_TOKEN: server.adminToken },
  });
  assert.equal(code, 0, stderr.text);
  assert.equal(stdout.text, 'accepted  20000\nrejected  0\n');
  const frames = stderr.text.split('\r\x1b[2K').filter(Boolean);
  assert.ok(frames.length >= 3, JSON.stringify(frames));
  assert.equal(frames[0], `reading ${file}…`, 'a status while the file is read to plan the calls');
  assert.match(frames[1]!, /^importing \[[#-]{30}\]\s+\d+%/);
  assert.ok(frames.some((f) => / 100%  /.test(f)), JSON.stringify(frames));
  assert.match(frames.at(-1)!, /waiting for the server/);
  assert.ok(stderr.text.endsWith('\r\x1b[2K'), 'the bar is cleared before the summary');
  assert.equal((await server.storedEvents(site.siteId)).length, 20_000);
});
