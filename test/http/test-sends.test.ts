// Test sends are bounded, so that svc mails no one on a tenant's behalf at will: a member has at most
// 5 test reports mailed an hour and an organisation 10, an organisation sends at most 10 alert tests
// an hour (5 per member), each past its limit answered 429 RATE_LIMITED with its reason and nothing
// mailed; an hour later they send again. With the counters in process and in Redis (shared by
// every process of a deployment).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ManualClock } from '../../src/core/clock.js';
import { AppClient, signedInUser } from '../helpers/app-client.js';
import { createSite, startTestServer, type SiteFixture, type TestServer } from '../helpers/server.js';
import { startSmtp, type SmtpListener } from '../helpers/smtp.js';
import { freePort } from '../../support/ports.js';
import { loopbackResolver } from '../../support/alert-service.js';
import { deleteKeys, TEST_REDIS_URL, testKeyPrefix, testRedis } from '../../support/counters.js';

const HOUR_MS = 3_600_000;

const PROFILES: ReadonlyArray<{ name: string; redis: boolean }> = [
  { name: 'counters in process', redis: false },
  { name: 'counters in Redis', redis: true },
];

for (const profile of PROFILES) describe(`test sends bounded (${profile.name})`, () => {
  const clock = new ManualClock(Date.parse('2026-03-23T07:00:30Z'));
  const prefix = testKeyPrefix();
  let smtp: SmtpListener;
  let server: TestServer;
  let site: SiteFixture;
  let members: AppClient[];

  before(async () => {
    smtp = await startSmtp();
    const port = await freePort();
    const env: Record<string, string> = { PORT: String(port), SVC_SMTP_URL: smtp.url, SVC_PUBLIC_URL: `http://127.0.0.1:${port}`, SVC_WEBHOOK_ALLOW_PRIVATE: '1' };
    if (profile.redis) env.SVC_REDIS_URL = TEST_REDIS_URL;
    // receiver.test resolves to the loopback, where nothing answers: the webhook's deliveries fail; the mails are what counts here.
    server = await startTestServer({ clock, env, counterKeyPrefix: prefix, alerts: { resolve: loopbackResolver } });
    site = await createSite(server);
    members = [];
    for (let i = 0; i < 3; i++) members.push((await signedInUser(server, `member${i}-${profile.redis}@example.com`, [{ orgId: site.orgId, role: 'owner' }])).client);
  });
  after(async () => {
    await server?.stop();
    await smtp?.close();
    if (profile.redis) {
      const redis = await testRedis();
      await deleteKeys(redis, prefix);
      redis.disconnect();
    }
  });

  const sendReport = (member: AppClient) => member.request('POST', `/app/v1/account/digests/${site.siteId}/send`, {});
  const mails = () => smtp.mails.length;

  test('test reports: 5 an hour per member, 10 per organisation; past either 429 with its reason, nothing mailed', async () => {
    const before = mails();
    for (let i = 0; i < 5; i++) assert.equal((await sendReport(members[0]!)).status, 200);
    const refused = await sendReport(members[0]!);
    assert.equal(refused.status, 429);
    assert.equal(refused.body.error.code, 'RATE_LIMITED');
    assert.equal(refused.body.error.reason, 'TEST_REPORTS_RATE_LIMITED');
    assert.equal(refused.body.error.message, 'a member has at most 5 test reports mailed an hour, and an organisation 10');
    assert.equal(refused.headers.get('retry-after'), '3600');
    for (let i = 0; i < 5; i++) assert.equal((await sendReport(members[1]!)).status, 200, 'another member: the organisation has 10');
    assert.equal((await sendReport(members[2]!)).status, 429, "a third member: the organisation's 10 are spent");
    assert.equal(mails() - before, 10);
    clock.advance(HOUR_MS);
    assert.equal((await sendReport(members[2]!)).status, 200, 'an hour later');
  });

  test("alert tests: 10 an hour per organisation, 5 per member; the operator's count for the organisation", async () => {
    const rule = await members[0]!.request('POST', `/app/v1/manage/sites/${site.siteId}/alerts`, {
      type: 'spike',
      threshold: 100,
      url: 'https://receiver.test/hook',
      secret: 'a shared secret',
      emails: Array.from({ length: 10 }, (_, i) => `outside${i}@example.org`),
    });
    assert.equal(rule.status, 201, JSON.stringify(rule.body));
    const sendTest = (member: AppClient) => member.request('POST', `/app/v1/manage/alerts/${rule.body.id}/test`);
    for (let i = 0; i < 5; i++) assert.equal((await sendTest(members[0]!)).status, 202);
    const refused = await sendTest(members[0]!);
    assert.equal(refused.status, 429);
    assert.equal(refused.body.error.reason, 'ALERT_TESTS_RATE_LIMITED');
    assert.equal(refused.body.error.message, 'an organisation sends at most 10 alert tests an hour, and a member 5');
    for (let i = 0; i < 4; i++) assert.equal((await sendTest(members[1]!)).status, 202);
    assert.equal((await server.admin('POST', `/alerts/${rule.body.id}/test`)).status, 202, "the operator's is the organisation's tenth");
    assert.equal((await sendTest(members[2]!)).status, 429, "the organisation's 10 are spent");
    assert.equal((await server.admin('POST', `/alerts/${rule.body.id}/test`)).status, 429);
  });
});
