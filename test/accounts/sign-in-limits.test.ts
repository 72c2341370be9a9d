// Sign-in attempts sent together, over real HTTP, on each MetaStore engine: the lockout counts an
// attempt before its password is checked, so however many arrive at once, at most 10 wrong passwords
// per email and per client address are ever verified in 15 minutes.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ManualClock } from '../../src/core/clock.js';
import { AppClient } from '../helpers/app-client.js';
import { createTestDatabase, type TestDatabase } from '../../support/postgres.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const PASSWORD = 'a long enough secret';
const WRONG = 'Wrong email or password.';
const LOCKED = 'Too many failed attempts. Try again in 15 minutes.';
const RATE_LIMITED = 'Too many sign-in attempts from this address. Try again in a minute.';

const ENGINES: Array<{ name: string; env(): Promise<{ env: Record<string, string>; drop(): Promise<void> }> }> = [
  { name: 'sqlite', env: async () => ({ env: {}, drop: async () => undefined }) },
  {
    name: 'postgres',
    async env() {
      const database: TestDatabase = await createTestDatabase();
      return { env: { SVC_DATABASE_URL: database.url }, drop: () => database.drop() };
    },
  },
];

/** Sends every attempt at once and tallies the answers by status and message. */
async function burst(server: TestServer, attempts: Array<{ email: string; password: string; address: string }>) {
  const answers = await Promise.all(attempts.map((a) => new AppClient(server).signIn(a.email, a.password, { 'x-forwarded-for': a.address })));
  const tally = new Map<string, number>();
  for (const answer of answers) {
    const key = `${answer.status} ${answer.body?.error?.message ?? 'signed in'}`;
    tally.set(key, (tally.get(key) ?? 0) + 1);
  }
  return tally;
}

for (const engine of ENGINES) {
  describe(`sign-in attempts sent together: ${engine.name}`, () => {
    const clock = new ManualClock(Date.UTC(2026, 5, 1, 12));
    let server: TestServer;
    let drop: () => Promise<void>;
    before(async () => {
      const database = await engine.env();
      drop = database.drop;
      // 127.0.0.1 is declared a trusted proxy: X-Forwarded-For then names the client address.
      server = await startTestServer({ clock, env: { SVC_TRUSTED_PROXIES: '127.0.0.1', ...database.env } });
      const created = await server.admin('POST', '/users', { email: 'ana@example.com', password: PASSWORD });
      assert.equal(created.status, 201, JSON.stringify(created.body));
    });
    after(async () => {
      await server?.stop();
      await drop?.();
    });

    test('30 wrong passwords for one email from 30 addresses: 10 are checked, 20 refused', async () => {
      const attempts = Array.from({ length: 30 }, (_, i) => ({ email: 'ana@example.com', password: `wrong ${i}`, address: `203.0.113.${i + 1}` }));
      const tally = await burst(server, attempts);
      assert.deepEqual(Object.fromEntries(tally), { [`401 ${WRONG}`]: 10, [`429 ${LOCKED}`]: 20 });
      const locked = await new AppClient(server).signIn('ana@example.com', PASSWORD, { 'x-forwarded-for': '198.51.100.9' });
      assert.equal(locked.status, 429, 'the email is locked, the right password included');
      clock.advance(15 * 60_000);
      assert.equal((await new AppClient(server).signIn('ana@example.com', PASSWORD, { 'x-forwarded-for': '198.51.100.9' })).status, 200);
    });

    test('30 wrong passwords from one address for 30 emails: 20 pass its rate limit, 10 are checked', async () => {
      const attempts = Array.from({ length: 30 }, (_, i) => ({ email: `guess${i}@example.com`, password: 'wrong password', address: '192.0.2.7' }));
      const tally = await burst(server, attempts);
      assert.deepEqual(Object.fromEntries(tally), { [`401 ${WRONG}`]: 10, [`429 ${LOCKED}`]: 10, [`429 ${RATE_LIMITED}`]: 10 });
      clock.advance(60_000); // past the per-address rate limit's minute: the lock answers
      assert.deepEqual((await new AppClient(server).signIn('ana@example.com', PASSWORD, { 'x-forwarded-for': '192.0.2.7' })).body.error.message, LOCKED);
    });

    test('one IPv6 /64 is one client: 12 wrong passwords from 12 addresses in it, 10 are checked', async () => {
      const attempts = Array.from({ length: 12 }, (_, i) => ({ email: `other${i}@example.com`, password: 'wrong password', address: `2001:db8:1:2::${(i + 1).toString(16)}` }));
      const tally = await burst(server, attempts);
      assert.deepEqual(Object.fromEntries(tally), { [`401 ${WRONG}`]: 10, [`429 ${LOCKED}`]: 2 });
      const sameNetwork = await new AppClient(server).signIn('ana@example.com', PASSWORD, { 'x-forwarded-for': '2001:db8:1:2:ffff::1' });
      assert.equal(sameNetwork.body.error.message, LOCKED);
      assert.equal((await new AppClient(server).signIn('ana@example.com', PASSWORD, { 'x-forwarded-for': '2001:db8:1:3::1' })).status, 200, 'the next /64 is another client');
    });
  });
}
