// How the command line finds the server and its token: flags, then the variables the server reads,
// then the files the server writes in its data dir.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_URL, resolveConnection } from '../../src/cli/client.js';

test('URL: --url, SVC_URL, the data dir\'s server-url, PORT, the default; token: --token, SVC_ADMIN_TOKEN, admin-token', () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-connection-'));
  const empty = mkdtempSync(join(tmpdir(), 'svc-connection-'));
  try {
    writeFileSync(join(dir, 'server-url'), 'http://127.0.0.1:9123\n');
    writeFileSync(join(dir, 'admin-token'), 'svcadm_from_the_file_0123\n');
    const env = { SVC_DATA_DIR: dir, PORT: '9999' };
    assert.deepEqual(resolveConnection({}, env), { url: 'http://127.0.0.1:9123', token: 'svcadm_from_the_file_0123' });
    assert.deepEqual(resolveConnection({}, { ...env, SVC_URL: 'https://svc.example/', SVC_ADMIN_TOKEN: 'env-token' }), { url: 'https://svc.example', token: 'env-token' });
    assert.deepEqual(resolveConnection({ url: 'http://flag.example', token: 'flag-token' }, { ...env, SVC_URL: 'https://svc.example', SVC_ADMIN_TOKEN: 'env-token' }), {
      url: 'http://flag.example',
      token: 'flag-token',
    });
    assert.deepEqual(resolveConnection({}, { SVC_DATA_DIR: empty, PORT: '9999' }), { url: 'http://127.0.0.1:9999', token: undefined });
    assert.deepEqual(resolveConnection({}, { SVC_DATA_DIR: empty }), { url: DEFAULT_URL, token: undefined });
  } finally {
    rmSync(dir, { recursive: true, force: true });
    rmSync(empty, { recursive: true, force: true });
  }
});
