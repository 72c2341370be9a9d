// A report mailed now, on request: the operator's `POST /admin/v1/sites/:siteId/digests/send` (and
// `svc digest send`) to any address, a member's `POST /app/v1/account/digests/:siteId/send` to its
// own; both carry the site's figures of its last complete week or month through a real SMTP server
// started here, change no subscription, and leave the scheduled report of the period to go out once.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { ManualClock } from '../../src/core/clock.js';
import { DigestService } from '../../src/digests/service.js';
import { lastCompletePeriod } from '../../src/digests/schedule.js';
import { AppClient, signedInUser } from '../helpers/app-client.js';
import { spawnLogged } from '../helpers/child.js';
import { BROWSER_UA, createSite, importEvents, startTestServer, type SiteFixture, type TestServer } from '../helpers/server.js';
import { startSmtp, type Mail, type SmtpListener } from '../helpers/smtp.js';
import { freePort } from '../../support/ports.js';

/** A mail's text with quoted-printable soft breaks and escapes undone. */
const decoded = (mail: Mail) => Buffer.from(mail.data.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))), 'latin1').toString('utf8');

describe('the last complete period', () => {
  test('the week Monday to Sunday before today, the month before this one, in the zone', () => {
    assert.deepEqual(lastCompletePeriod('weekly', Date.parse('2026-03-25T12:00:00Z'), 'UTC'), { kind: 'weekly', from: '2026-03-16', to: '2026-03-22' });
    assert.deepEqual(lastCompletePeriod('weekly', Date.parse('2026-03-23T00:30:00Z'), 'UTC'), { kind: 'weekly', from: '2026-03-16', to: '2026-03-22' }, 'on Monday, last week');
    assert.deepEqual(lastCompletePeriod('weekly', Date.parse('2026-03-22T23:30:00Z'), 'Europe/Paris'), { kind: 'weekly', from: '2026-03-16', to: '2026-03-22' }, 'Monday already in Paris');
    assert.deepEqual(lastCompletePeriod('weekly', Date.parse('2026-03-22T23:30:00Z'), 'UTC'), { kind: 'weekly', from: '2026-03-09', to: '2026-03-15' }, 'still Sunday in UTC');
    assert.deepEqual(lastCompletePeriod('monthly', Date.parse('2026-03-01T00:00:00Z'), 'UTC'), { kind: 'monthly', from: '2026-02-01', to: '2026-02-28' });
    assert.deepEqual(lastCompletePeriod('monthly', Date.parse('2026-01-15T00:00:00Z'), 'UTC'), { kind: 'monthly', from: '2025-12-01', to: '2025-12-31' });
  });
});

describe('a report sent now', () => {
  // Monday 23 March 2026, 08:00:30 in Paris: the scheduled weekly report of 16–22 March is due too.
  const clock = new ManualClock(Date.parse('2026-03-23T07:00:30Z'));
  let smtp: SmtpListener;
  let server: TestServer;
  let site: SiteFixture;
  let owner: { client: AppClient; userId: number };
  let publicUrl: string;

  before(async () => {
    smtp = await startSmtp();
    // The public URL is the server's own: the dashboard's sign-in checks the Origin against it.
    const port = await freePort();
    publicUrl = `http://127.0.0.1:${port}`;
    server = await startTestServer({ clock, env: { PORT: String(port), SVC_SMTP_URL: smtp.url, SVC_PUBLIC_URL: publicUrl } });
    site = await createSite(server, { timezone: 'Europe/Paris' });
    const lines = [];
    // 16–22 March: 3 visitors a day (/ and twice /pricing) from Germany, referred by news.example.
    for (let day = 16; day <= 22; day++) {
      for (let i = 0; i < 3; i++) {
        lines.push({ ts: Date.parse(`2026-03-${day}T10:00:00Z`) + i * 60_000, ua: BROWSER_UA, ip: `198.51.100.${day * 3 + i}`, u: i === 0 ? '/' : '/pricing', country: 'DE', r: 'https://news.example/' });
      }
    }
    assert.equal((await importEvents(server, site.siteId, lines)).body.rejected, 0);
    owner = await signedInUser(server, 'report-owner@example.com', [{ orgId: site.orgId, role: 'owner' }]);
  });
  after(async () => {
    await server?.stop();
    await smtp?.close();
  });

  const mailsTo = (email: string) => smtp.mails.filter((m) => m.to[0] === email).map(decoded);

  test("the operator mails a site's weekly report to any address: the week's figures, no unsubscribe link", async () => {
    const sent = await server.admin('POST', `/sites/${site.siteId}/digests/send`, { email: 'boss@example.org' });
    assert.equal(sent.status, 200);
    assert.deepEqual(sent.body, { siteId: site.siteId, period: 'weekly', from: '2026-03-16', to: '2026-03-22', email: 'boss@example.org', sentAt: clock.now() });
    const [mail, ...more] = mailsTo('boss@example.org');
    assert.equal(more.length, 0);
    assert.match(mail!, /^Subject: Site \d+: weekly report$/m);
    assert.ok(mail!.includes(`for ${site.domain}, 2026-03-16 to 2026-03-22`));
    for (const figure of ['Visitors: 21 (', 'Pageviews: 21 (', 'Top countries:\n  Germany: 21 visitors', 'Top referrers:\n  news.example: 21 visitors', '  /pricing: 14 visitors', '  /: 7 visitors']) {
      assert.ok(mail!.includes(figure), figure);
    }
    assert.ok(mail!.includes(`${publicUrl}/sites/${site.siteId}?from=2026-03-16&to=2026-03-22`));
    assert.ok(mail!.includes('This report was sent once, on request'));
    assert.doesNotMatch(mail!, /List-Unsubscribe|\/unsubscribe\//, 'no subscription to stop');
  });

  test('--period monthly: the last complete month', async () => {
    const sent = await server.admin('POST', `/sites/${site.siteId}/digests/send`, { email: 'boss@example.org', period: 'monthly' });
    assert.deepEqual([sent.status, sent.body.from, sent.body.to], [200, '2026-02-01', '2026-02-28']);
    const mail = mailsTo('boss@example.org').at(-1)!;
    assert.match(mail, /^Subject: Site \d+: monthly report$/m);
    assert.ok(mail.includes('2026-02-01 to 2026-02-28'));
    assert.ok(mail.includes('Visitors: 0 ('), 'February had no visit');
  });

  test('a wrong address, period, site or token is refused and mails nothing', async () => {
    const before = smtp.mails.length;
    const send = (body: unknown, siteId = site.siteId) => server.admin('POST', `/sites/${siteId}/digests/send`, body);
    assert.equal((await send({ email: 'not an address' })).body.error.reason, 'EMAIL_INVALID_PARAMS');
    assert.equal((await send({ email: 'a@example.com', period: 'daily' })).body.error.reason, 'ONE_OF_INVALID_PARAMS');
    assert.equal((await send({ email: 'a@example.com', cc: 'b@example.com' })).status, 400);
    assert.equal((await send({ email: 'a@example.com' }, 'nosuchsite00')).status, 404);
    const anonymous = await fetch(`${server.url}/admin/v1/sites/${site.siteId}/digests/send`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"email":"a@example.com"}' });
    assert.equal(anonymous.status, 401);
    const asMember = await owner.client.request('POST', `/app/v1/manage/sites/${site.siteId}/digests/send`, { email: 'a@example.com' });
    assert.equal(asMember.status, 404, "a site's owner mails no other address");
    assert.equal(smtp.mails.length, before);
  });

  test('an SMTP server that refuses the mail, or no SMTP set up: 503 with the reason', async () => {
    smtp.mode = 'refuse';
    try {
      const refused = await server.admin('POST', `/sites/${site.siteId}/digests/send`, { email: 'boss@example.org' });
      assert.equal(refused.status, 503);
      assert.equal(refused.body.error.reason, 'SMTP_REPORT_NOT_SENT');
      assert.match(refused.body.error.message, /550/);
    } finally {
      smtp.mode = 'accept';
    }
    const unmailed = new DigestService({ ...serviceOptions(server), mail: undefined });
    const siteRecord = (await server.ctx.meta.getSite(site.siteId))!;
    await assert.rejects(unmailed.sendNow(siteRecord, 'weekly', 'a@example.com', 'en'), (err: { reason: string }) => err.reason === 'MAIL_OFF_REPORT_NOT_SENT');
  });

  test("a member mails a site's report to its own address; not a site of another organisation", async () => {
    const sent = await owner.client.request('POST', `/app/v1/account/digests/${site.siteId}/send`, {});
    assert.equal(sent.status, 200);
    assert.equal(sent.body.email, 'report-owner@example.com');
    const [mail] = mailsTo('report-owner@example.com');
    assert.ok(mail!.includes('Visitors: 21 ('));
    assert.equal((await owner.client.request('POST', `/app/v1/account/digests/${site.siteId}/send`, { email: 'boss@example.org' })).status, 400, 'no other address');
    const outsider = await signedInUser(server, 'report-outsider@example.com');
    assert.equal((await outsider.client.request('POST', `/app/v1/account/digests/${site.siteId}/send`, {})).status, 404);
    assert.deepEqual(mailsTo('report-outsider@example.com'), []);
    smtp.mails.length = 0;
  });

  test("svc digest send: the mail, the CLI's answer; a usage error names the periods", async () => {
    const svc = async (...args: string[]) => {
      const run = spawnLogged([process.execPath, '--import', 'tsx', resolve('src/cli/svc.ts'), ...args], { PATH: process.env.PATH, SVC_URL: server.url, SVC_ADMIN_TOKEN: server.adminToken });
      return { ...(await run.exited), out: run.logs() };
    };
    const sent = await svc('digest', 'send', '--site', site.siteId, '--email', 'cli@example.org');
    assert.equal(sent.code, 0, sent.out);
    assert.match(sent.out, /sent to\s+cli@example\.org/);
    assert.match(sent.out, /report\s+weekly, 2026-03-16 to 2026-03-22/);
    assert.ok(mailsTo('cli@example.org')[0]!.includes('Visitors: 21 ('));
    const wrong = await svc('digest', 'send', '--site', site.siteId, '--email', 'cli@example.org', '--period', 'daily');
    assert.equal(wrong.code, 2);
    assert.match(wrong.out, /--period must be one of weekly, monthly/);
    assert.equal(mailsTo('cli@example.org').length, 1);
  });

  test('reports sent now change no subscription and leave the scheduled report to go out once', async () => {
    assert.deepEqual((await owner.client.request('GET', '/app/v1/account/digests')).body.sites.map((s: { weekly: boolean }) => s.weekly), [false]);
    assert.equal((await owner.client.request('PUT', `/app/v1/account/digests/${site.siteId}`, { weekly: true, monthly: false })).status, 200);
    smtp.mails.length = 0;
    await server.ctx.digests.run(clock.now());
    await server.ctx.digests.run(clock.now() + 60_000);
    const scheduled = mailsTo('report-owner@example.com');
    assert.equal(scheduled.length, 1, 'the report of 16–22 March, scheduled, once');
    assert.match(scheduled[0]!, /^List-Unsubscribe:/m);
    assert.ok(scheduled[0]!.includes('2026-03-16 to 2026-03-22'));
    assert.equal(smtp.mails.length, 1, 'to nobody else');
  });

  test("a report in its reader's language: the account's, else the request's Accept-Language; a language svc does not write is refused", async () => {
    const reader = await signedInUser(server, 'leserin@example.com', [{ orgId: site.orgId, role: 'viewer' }]);
    const chosen = await reader.client.request('PUT', '/app/v1/account/language', { language: 'de' });
    assert.deepEqual([chosen.status, chosen.body], [200, { language: 'de' }]);
    assert.equal((await reader.client.request('GET', '/app/v1/session')).body.user.language, 'de');
    const refused = await reader.client.request('PUT', '/app/v1/account/language', { language: 'xx' });
    assert.equal(refused.status, 400);
    assert.match(refused.body.error.message, /language/);
    smtp.mails.length = 0;
    assert.equal((await reader.client.request('POST', `/app/v1/account/digests/${site.siteId}/send`, {}, { 'accept-language': 'fr' })).status, 200);
    const [german] = mailsTo('leserin@example.com');
    assert.match(german!, /^Subject: Site \d+: Wochenbericht$/m);
    assert.ok(german!.includes(`für ${site.domain}, 16.03.2026 bis 22.03.2026`), 'dates as German writes them');
    for (const figure of ['Besucher: 21 (', 'Seitenaufrufe: 21 (', 'Top-Länder:\n  Deutschland: 21 Besucher', 'Top-Verweise:\n  news.example: 21 Besucher', 'gegenüber dem Vorzeitraum', 'einmalig auf Anfrage']) {
      assert.ok(german!.includes(figure), figure);
    }
    assert.match(german!, /<html lang="de">/);

    // Subscribed, the scheduled report of the week goes out in the account's language too.
    assert.equal((await reader.client.request('PUT', `/app/v1/account/digests/${site.siteId}`, { weekly: true, monthly: false })).status, 200);
    await server.ctx.digests.run(clock.now());
    const scheduled = mailsTo('leserin@example.com');
    assert.equal(scheduled.length, 2);
    assert.ok(scheduled[1]!.includes('Diese Berichte abbestellen'), 'the unsubscribe link in German');

    // No language chosen: the request's Accept-Language, French here (numbers and dates as French writes them).
    assert.deepEqual((await reader.client.request('PUT', '/app/v1/account/language', { language: null })).body, { language: null });
    assert.equal((await reader.client.request('POST', `/app/v1/account/digests/${site.siteId}/send`, {}, { 'accept-language': 'fr-CH, fr;q=0.9, en;q=0.8' })).status, 200);
    const french = mailsTo('leserin@example.com')[2]!;
    assert.match(french, /^Subject: Site \d+ : rapport hebdomadaire$/m);
    assert.ok(french.includes('du 16 mars 2026 au 22 mars 2026'), 'dates as French writes them');
    assert.ok(french.includes('Principaux pays :\n  Allemagne : 21 visiteurs'), 'French spaces its colons');
    assert.ok(french.includes('Visiteurs : 21 ('));
    // A language svc does not write (Japanese): English.
    assert.equal((await reader.client.request('POST', `/app/v1/account/digests/${site.siteId}/send`, {}, { 'accept-language': 'ja' })).status, 200);
    assert.match(mailsTo('leserin@example.com')[3]!, /^Subject: Site \d+: weekly report$/m);
  });
});

/** The options of the server's own digest service, read back from its context. */
function serviceOptions(server: TestServer): ConstructorParameters<typeof DigestService>[0] {
  return (server.ctx.digests as unknown as { options: ConstructorParameters<typeof DigestService>[0] }).options;
}
