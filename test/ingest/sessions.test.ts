// Sessionization and daily salts, with a clock the test moves: a session ends after 30 idle
// minutes, and continues across local midnight although the visitor id changes with the salt. The
// same tests run with the live sessions in process and in Redis (SVC_REDIS_URL).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { ManualClock } from '../../src/core/clock.js';
import { oldestLiveSaltDay } from '../../src/ingest/visitor.js';
import { browserHeaders, createRelayKey, createSite, startTestServer, type TestServer } from '../helpers/server.js';
import { deleteKeys, TEST_REDIS_URL, testKeyPrefix, testRedis } from '../../support/counters.js';

for (const counters of ['memory', 'redis'] as const) {
  describe(`sessions (${counters})`, () => {
    const clock = new ManualClock(Date.UTC(2026, 5, 10, 23, 40));
    let server: TestServer;
    let relayKey: string;

    const counterKeyPrefix = testKeyPrefix();
    before(async () => {
      const env: Record<string, string> = {};
      if (counters === 'redis') {
        (await testRedis()).disconnect();
        env.SVC_REDIS_URL = TEST_REDIS_URL;
      }
      server = await startTestServer({ clock, env, counterKeyPrefix });
      assert.equal(server.ctx.counters.shared, counters === 'redis');
      relayKey = await createRelayKey(server);
    });
    after(async () => {
      await server.stop();
      if (counters === 'redis') {
        const redis = await testRedis();
        await deleteKeys(redis, counterKeyPrefix);
        redis.disconnect();
      }
    });

    const MIN = 60_000;

    async function visit(siteId: string, domain: string, page: string, ip = '198.51.100.7') {
      const status = await server.collect({ s: siteId, u: page }, browserHeaders(domain, { 'x-svc-relay-key': relayKey, 'x-svc-client-ip': ip }));
      assert.equal(status, 202);
    }

    test('a gap of 30 minutes starts a new session; 29 minutes does not', async () => {
      const site = await createSite(server, { domain: 'gap.example', timezone: 'UTC' });
      clock.set(Date.UTC(2026, 5, 10, 10, 0));
      await visit(site.siteId, site.domain, '/one');
      clock.advance(29 * MIN);
      await visit(site.siteId, site.domain, '/two');
      clock.advance(30 * MIN);
      await visit(site.siteId, site.domain, '/three');
      const rows = await server.storedEvents(site.siteId);
      assert.equal(rows.length, 3);
      assert.equal(rows[0]!.session_id, rows[1]!.session_id);
      assert.notEqual(rows[1]!.session_id, rows[2]!.session_id);
      assert.deepEqual(rows.map((r) => r.session_start), [true, false, true]);
      assert.deepEqual(rows.map((r) => r.entry_page), ['/one', '/one', '/three']);
      // Same day, same salt: one visitor.
      assert.equal(new Set(rows.map((r) => r.visitor_id)).size, 1);
    });

    test('a session continues across local midnight under the new salt', async () => {
      const site = await createSite(server, { domain: 'midnight.example', timezone: 'UTC' });
      clock.set(Date.UTC(2026, 5, 11, 23, 50));
      await visit(site.siteId, site.domain, '/before');
      clock.set(Date.UTC(2026, 5, 12, 0, 10));
      await visit(site.siteId, site.domain, '/after');
      const rows = await server.storedEvents(site.siteId);
      assert.deepEqual(rows.map((r) => r.local_day), ['2026-06-11', '2026-06-12']);
      assert.equal(rows[0]!.session_id, rows[1]!.session_id, 'one session across midnight');
      assert.notEqual(rows[0]!.visitor_id, rows[1]!.visitor_id, 'a new daily visitor id after the salt rotation');
      assert.equal(rows[1]!.session_start, false);
    });

    test('site-local days follow the site time zone (Asia/Kathmandu, +05:45)', async () => {
      const site = await createSite(server, { domain: 'ktm.example', timezone: 'Asia/Kathmandu' });
      clock.set(Date.UTC(2026, 5, 12, 18, 14)); // 23:59 in Kathmandu
      await visit(site.siteId, site.domain, '/late');
      clock.set(Date.UTC(2026, 5, 12, 18, 16)); // 00:01 the next day
      await visit(site.siteId, site.domain, '/early');
      const rows = await server.storedEvents(site.siteId);
      assert.deepEqual(rows.map((r) => r.local_day), ['2026-06-12', '2026-06-13']);
      assert.equal(rows[0]!.session_id, rows[1]!.session_id);
    });

    test('different visitors never share a session', async () => {
      const site = await createSite(server, { domain: 'two.example', timezone: 'UTC' });
      clock.set(Date.UTC(2026, 5, 13, 9, 0));
      await visit(site.siteId, site.domain, '/', '198.51.100.1');
      await visit(site.siteId, site.domain, '/', '198.51.100.2');
      const rows = await server.storedEvents(site.siteId);
      assert.notEqual(rows[0]!.session_id, rows[1]!.session_id);
      assert.notEqual(rows[0]!.visitor_id, rows[1]!.visitor_id);
    });

    test('salts are deleted once their date has ended in every time zone', async () => {
      const salts = async () => {
        const db = new Database(join(server.dataDir, 'meta.sqlite'), { readonly: true });
        try {
          return db.prepare('SELECT day FROM salts ORDER BY day').all() as Array<{ day: string }>;
        } finally {
          db.close();
        }
      };
      const days = (await salts()).map((r) => r.day);
      assert.ok(days.includes('2026-06-11'));
      // 2026-06-11 ends in UTC−12 at 2026-06-12T12:00Z; its salt is kept 30 minutes longer.
      assert.equal(oldestLiveSaltDay(Date.UTC(2026, 5, 12, 12, 29)), '2026-06-11');
      assert.equal(oldestLiveSaltDay(Date.UTC(2026, 5, 12, 12, 30)), '2026-06-12');
      clock.set(Date.UTC(2026, 5, 12, 12, 30));
      const ran = await server.admin('POST', '/maintenance/run', { tasks: ['salts'] });
      assert.deepEqual(ran.body, { ran: ['salts'] });
      const left = (await salts()).map((r) => r.day);
      assert.ok(!left.some((d) => d < '2026-06-12'), `old salts remain: ${left.join(', ')}`);
    });
  });
}
