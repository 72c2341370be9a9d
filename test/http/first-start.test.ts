// The first start: the generated admin token shown once in a plain block (not a log line), where it
// is stored and the next command; the server-url file the command line finds the server by.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config.js';
import { firstStartLines, noticeBlock } from '../../src/first-start.js';
import { startService } from '../../src/server.js';

test('the generated token is shown once in a block with its file and the next command, and never logged', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-first-start-'));
  const logged: string[] = [];
  const record = (obj: unknown, msg?: string) => logged.push(JSON.stringify(obj) + (msg ?? ''));
  const log = { info: record, warn: record, error: record };
  try {
    const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', SVC_DATA_DIR: dataDir, SVC_PUBLIC_URL: 'https://stats.example.com' });
    const notices: string[] = [];
    const first = await startService(config, { log, maintenanceTimers: false, notice: (text) => notices.push(text) });
    const token = readFileSync(join(dataDir, 'admin-token'), 'utf8').trim();
    assert.equal(readFileSync(join(dataDir, 'server-url'), 'utf8'), `${first.url}\n`);
    assert.equal(statSync(join(dataDir, 'server-url')).mode & 0o777, 0o600);
    await first.stop();

    assert.equal(notices.length, 1);
    const block = notices[0]!;
    assert.match(block, /^\n={40,}\n/);
    assert.match(block, /\n={40,}\n$/);
    assert.ok(block.includes(`Admin token (shown once):  ${token}\n`), block);
    assert.ok(block.includes(`Stored in:                 ${join(dataDir, 'admin-token')}\n`), block);
    assert.ok(block.includes('svc is running at https://stats.example.com\n'), block);
    assert.ok(block.includes('  https://stats.example.com/setup\n'), block);
    // The data dir is not ./data of the working directory: the command names it.
    assert.ok(block.includes(`  SVC_DATA_DIR=${dataDir} npx svc org add "My organisation"\n`), block);
    assert.ok(!logged.some((line) => line.includes(token)), 'the token is in no log line');

    const again: string[] = [];
    const second = await startService({ ...config, port: 0 }, { log, maintenanceTimers: false, notice: (text) => again.push(text) });
    assert.equal(readFileSync(join(dataDir, 'server-url'), 'utf8'), `${second.url}\n`);
    await second.stop();
    assert.deepEqual(again, [], 'shown on the first start only');
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('the block frames any lines, so another line is one more entry', () => {
  const lines = firstStartLines({ token: 'svcadm_x', tokenFile: '/srv/svc/data/admin-token', dataDir: '/srv/svc/data', publicUrl: 'http://127.0.0.1:8000', cwd: '/srv/svc' });
  assert.ok(lines.includes('  npx svc org add "My organisation"'), 'no SVC_DATA_DIR for ./data');
  const quoted = firstStartLines({ token: 't', tokenFile: 'f', dataDir: "/srv/my data/it's", publicUrl: 'u', cwd: '/srv/svc' });
  assert.ok(quoted.includes(`  SVC_DATA_DIR='/srv/my data/it'\\''s' npx svc org add "My organisation"`), quoted.join('\n'));
  assert.equal(noticeBlock(['a', 'bb']), `\n${'='.repeat(40)}\n  a\n  bb\n${'='.repeat(40)}\n`);
});
