// The data folder holds webhook secrets, salts and the admin token: the real process creates it 0700
// and every file in it 0600, and tightens a folder left readable by others.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { prepareDataDir } from '../../src/storage/data-dir.js';
import { spawnService } from '../helpers/child.js';

const modeOf = (path: string) => statSync(path).mode & 0o777;

/** Every path under `dir` with its mode, in octal. */
function modes(dir: string): Record<string, string> {
  const found: Record<string, string> = {};
  const walk = (path: string, name: string) => {
    found[name] = modeOf(path).toString(8);
    if (statSync(path).isDirectory()) for (const child of readdirSync(path)) walk(join(path, child), `${name}/${child}`);
  };
  walk(dir, '.');
  return found;
}

test('the process creates its data folder 0700 and every file in it 0600', async () => {
  const parent = mkdtempSync(join(tmpdir(), 'svc-modes-'));
  const dataDir = join(parent, 'data');
  try {
    // No SVC_ADMIN_TOKEN: the process generates one and stores it in the folder.
    const service = await spawnService(dataDir, { SVC_ADMIN_TOKEN: '', SVC_FLUSH_INTERVAL_MS: '50' });
    try {
      const token = readFileSync(join(dataDir, 'admin-token'), 'utf8').trim();
      const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
      const org = await fetch(`${service.url}/admin/v1/orgs`, { method: 'POST', headers: auth, body: JSON.stringify({ name: 'Modes' }) });
      assert.equal(org.status, 201);
      const { id } = (await org.json()) as { id: number };
      const site = await fetch(`${service.url}/admin/v1/orgs/${id}/sites`, { method: 'POST', headers: auth, body: JSON.stringify({ domain: 'modes.example', name: 'Modes', timezone: 'UTC' }) });
      assert.equal(site.status, 201);
      const found = modes(dataDir);
      for (const name of ['admin-token', 'server-url', 'meta.sqlite', 'meta.sqlite-wal', 'meta.sqlite-shm', 'events.duckdb']) assert.ok(`./${name}` in found, `${name} exists: ${JSON.stringify(found)}`);
      for (const [name, mode] of Object.entries(found)) {
        const isDir = statSync(join(dataDir, name)).isDirectory();
        assert.equal(mode, isDir ? '700' : '600', `${name} is ${mode}: ${JSON.stringify(found)}`);
      }
    } finally {
      service.child.kill('SIGTERM');
      await service.exited;
    }
    for (const [name, mode] of Object.entries(modes(dataDir))) {
      assert.equal(mode, statSync(join(dataDir, name)).isDirectory() ? '700' : '600', `${name} after the stop`);
    }
  } finally {
    rmSync(parent, { recursive: true, force: true });
  }
});

test('a data folder and files left readable by others are tightened at start, and named', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-modes-'));
  try {
    chmodSync(dataDir, 0o755);
    writeFileSync(join(dataDir, 'meta.sqlite'), '');
    chmodSync(join(dataDir, 'meta.sqlite'), 0o644);
    mkdirSync(join(dataDir, 'events.duckdb.tmp'), { mode: 0o755 });
    chmodSync(join(dataDir, 'events.duckdb.tmp'), 0o755);
    writeFileSync(join(dataDir, 'admin-token'), 'x', { mode: 0o600 });

    const tightened = prepareDataDir(dataDir);
    assert.equal(modeOf(dataDir), 0o700);
    assert.equal(modeOf(join(dataDir, 'meta.sqlite')), 0o600);
    assert.equal(modeOf(join(dataDir, 'events.duckdb.tmp')), 0o700);
    assert.equal(modeOf(join(dataDir, 'admin-token')), 0o600);
    assert.equal(tightened.length, 3);
    assert.ok(tightened.some((t) => t.includes('meta.sqlite (644 -> 600)')), tightened.join('\n'));
    assert.deepEqual(prepareDataDir(dataDir), [], 'nothing left to tighten');
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});
