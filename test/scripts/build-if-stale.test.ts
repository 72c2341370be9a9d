// `npm start` and `npm test` rebuild only when the build's inputs changed (by content, not mtime),
// on a project of their own in a temp dir whose build only counts its runs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { listening, missingPackages, missingServers, SYSTEM_PACKAGES, TEST_SERVERS } from '../../scripts/system-packages.mjs';

const BUILD_IF_STALE = resolve('scripts/build-if-stale.mjs');
const BUILD_INPUTS = resolve('scripts/build-inputs.mjs');

test('builds when there is no build, when an input changed or appeared, or after a failed build; not otherwise', () => {
  const root = mkdtempSync(join(tmpdir(), 'svc-prestart-'));
  try {
    const build = `node -e "require('fs').appendFileSync('builds.log','x'); if (require('fs').existsSync('fail')) process.exit(3)" && node ${BUILD_INPUTS}`;
    writeFileSync(join(root, 'package.json'), JSON.stringify({ name: 'p', version: '1.0.0', scripts: { build } }));
    mkdirSync(join(root, 'src'));
    writeFileSync(join(root, 'src', 'a.ts'), 'export const a = 1;\n');
    const start = () => {
      const run = spawnSync(process.execPath, [BUILD_IF_STALE], { cwd: root, encoding: 'utf8' });
      return { status: run.status, stderr: run.stderr, builds: existsSync(join(root, 'builds.log')) ? readFileSync(join(root, 'builds.log'), 'utf8').length : 0 };
    };

    assert.deepEqual([start().builds, existsSync(join(root, 'dist', '.build-inputs'))], [1, true], 'no build yet');
    const fresh = start();
    assert.equal(fresh.builds, 1, 'up to date');
    assert.equal(fresh.status, 0);
    assert.match(fresh.stderr, /up to date/);

    const later = new Date(Date.now() + 60_000);
    utimesSync(join(root, 'src', 'a.ts'), later, later);
    assert.equal(start().builds, 1, 'a newer mtime with the same content');

    appendFileSync(join(root, 'src', 'a.ts'), 'export const b = 2;\n');
    assert.equal(start().builds, 2, 'an edited source');
    writeFileSync(join(root, 'src', 'c.ts'), 'export const c = 3;\n');
    assert.equal(start().builds, 3, 'a new source');
    assert.equal(start().builds, 3);

    writeFileSync(join(root, 'src', 'c.ts'), 'export const c = 4;\n');
    writeFileSync(join(root, 'fail'), '');
    const failed = start();
    assert.equal(failed.builds, 4);
    assert.notEqual(failed.status, 0, 'a failed build fails the start');
    rmSync(join(root, 'fail'));
    assert.equal(start().builds, 5, 'a failed build leaves dist/ stale');
    assert.equal(start().builds, 5);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('what the tests need: one list of packages, each found by the file the tests use, and one of servers', async () => {
  assert.deepEqual(
    SYSTEM_PACKAGES.map((p) => [p.package, p.file]),
    [
      ['chromium', '/usr/bin/chromium'],
      ['nginx-light', '/usr/sbin/nginx'],
      ['openssl', '/usr/bin/openssl'],
      ['postgresql', '/usr/bin/pg_ctlcluster'],
      ['redis-server', '/usr/bin/redis-server'],
      ['clickhouse-server', '/usr/sbin/clickhouse-server'],
    ],
  );
  assert.deepEqual(missingPackages(() => true), []);
  assert.deepEqual(
    missingPackages((file: string) => file !== '/usr/sbin/nginx').map((p) => p.package),
    ['nginx-light'],
  );
  assert.deepEqual(TEST_SERVERS.map((s) => [s.name, s.port]), [['PostgreSQL', 5432], ['Redis', 6379]]);
  assert.deepEqual(await missingServers(async () => true), []);
  assert.deepEqual((await missingServers(async (port) => port !== 5432)).map((s) => s.name), ['PostgreSQL']);

  // A listening port, then the same port once closed.
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  assert.equal(await listening(port), true);
  await new Promise((done) => server.close(done));
  assert.equal(await listening(port), false);
});
