// Password hashing's bounds and upgrade, against a real listening server: every scrypt derivation
// waits its turn in one queue, so a burst of sign-ins leaves libuv's other threads to DNS look-ups
// and file I/O, and answers what it has no room for at once; a hash made with older parameters is
// made again at the next sign-in.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { scryptSync } from 'node:crypto';
import { lookup } from 'node:dns/promises';
import { stat } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { ManualClock } from '../../src/core/clock.js';
import { hashPassword, passwordHashing } from '../../src/accounts/passwords.js';
import { AppClient } from '../helpers/app-client.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const PASSWORD = 'a long enough secret';
const BUSY = 'Too many passwords are being checked at once. Try again in a few seconds.';

describe('password hashing', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ clock: new ManualClock(Date.UTC(2026, 5, 1, 12)), env: { SVC_TRUSTED_PROXIES: '127.0.0.1' } });
  });
  after(() => server.stop());

  test('20 sign-ins at once: one derivation at a time, the excess refused at once, file and DNS look-ups not kept waiting', async () => {
    const start = performance.now();
    await hashPassword(PASSWORD);
    const oneHash = performance.now() - start;

    let mostAtOnce = 0;
    const sampler = setInterval(() => (mostAtOnce = Math.max(mostAtOnce, passwordHashing.active)), 1);
    const answers = Promise.all(
      Array.from({ length: 20 }, (_, i) => new AppClient(server).signIn(`nobody${i}@example.com`, 'wrong password', { 'x-forwarded-for': `198.51.100.${i + 1}` })),
    );
    let answered = false;
    void answers.finally(() => (answered = true));
    // Unbounded, the 20 derivations would fill libuv's 4 threads, and a look-up would wait for 5 hashes.
    const waits: number[] = [];
    while (!answered) {
      const issued = performance.now();
      await Promise.all([stat(server.dataDir), lookup('localhost')]);
      waits.push(performance.now() - issued);
      await sleep(20);
    }
    const statuses = (await answers).map((a) => `${a.status} ${a.body.error.message}`);
    clearInterval(sampler);

    assert.equal(mostAtOnce, 1, 'one derivation at a time');
    assert.ok(waits.length >= 10, `${waits.length} look-ups during the burst`);
    assert.ok(Math.max(...waits) < oneHash / 2, `file and DNS look-ups took up to ${Math.max(...waits).toFixed(0)} ms during the burst; one hash takes ${oneHash.toFixed(0)} ms`);
    const busy = statuses.filter((s) => s === `429 ${BUSY}`).length;
    assert.ok(busy >= 1 && busy <= 3, `1 runs, 16 wait, the rest is refused: ${statuses.join(', ')}`);
    assert.equal(statuses.filter((s) => s === '401 Wrong email or password.').length, 20 - busy);
  });

  test('a hash made with N = 2^15 is made again with N = 2^17 at the next sign-in; sessions stay', async () => {
    const created = await server.admin('POST', '/users', { email: 'old@example.com', password: PASSWORD });
    assert.equal(created.status, 201);
    const store = server.ctx.accounts.store;
    const salt = Buffer.from('an older salt 16');
    const older = ['scrypt', 32768, 8, 1, salt.toString('base64'), scryptSync(PASSWORD, salt, 32, { N: 32768, r: 8, p: 1, maxmem: 64 << 20 }).toString('base64')].join('$');
    await store.setPasswordHash(created.body.id, older);

    const first = new AppClient(server);
    assert.equal((await first.signIn('old@example.com', PASSWORD)).status, 200);
    const upgraded = (await store.findUserByEmail('old@example.com'))!.passwordHash;
    assert.match(upgraded, /^scrypt\$131072\$8\$1\$[A-Za-z0-9+/]{22}==\$[A-Za-z0-9+/]{43}=$/);
    assert.equal((await new AppClient(server).signIn('old@example.com', PASSWORD)).status, 200, 'the password still works');
    assert.equal((await store.findUserByEmail('old@example.com'))!.passwordHash, upgraded, 'a current hash is left alone');
    assert.equal((await first.request('GET', '/app/v1/session')).status, 200, 'the upgrade ends no session');
    assert.equal((await new AppClient(server).signIn('old@example.com', 'wrong password')).status, 401);
  });
});
