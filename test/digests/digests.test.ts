// Email digests end to end: members choose reports through /app/v1, the worker's task plans and mails
// them at 08:00 in the site's zone through a real SMTP server started here, two workers (two
// connections to one metadata database) and a worker that died holding claims still send each
// member's report of a period exactly once, an SMTP server that refuses, closes mid-message or hangs
// gets the report again later (its error shown in the site's settings), and the unsubscribe link
// works without signing in.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { smtpMailSender } from '../../src/alerts/email.js';
import { ManualClock } from '../../src/core/clock.js';
import { DIGEST_CLAIM_MS, DigestService } from '../../src/digests/service.js';
import { duePeriod } from '../../src/digests/schedule.js';
import { openMetaStores, type MetaStores } from '../../src/storage/meta/open.js';
import { AppClient, signedInUser } from '../helpers/app-client.js';
import { BROWSER_UA, createSite, importEvents, startTestServer, type SiteFixture, type TestServer } from '../helpers/server.js';
import { startSmtp, type Mail, type SmtpListener } from '../helpers/smtp.js';
import { signatureHex } from '../../src/alerts/signing.js';
import { digestHtml, digestText, isSlackWebhook, slackMessage, type Digest } from '../../src/digests/content.js';
import { startReceiver, type Receiver } from '../../support/alert-receiver.js';
import { loopbackResolver } from '../../support/alert-service.js';
import { testCertificates } from '../../support/test-certificates.js';

/** A free port of this machine, for a server whose public URL must be known before it starts. */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((done) => probe.listen(0, '127.0.0.1', done));
  const { port } = probe.address() as AddressInfo;
  await new Promise((done) => probe.close(done));
  return port;
}

describe('when a digest is due', () => {
  test('weekly on Mondays for the previous week, monthly on the 1st for the previous month, from 08:00 in the zone for a day', () => {
    const cases: Array<[string, 'weekly' | 'monthly', string, { from: string; to: string } | undefined]> = [
      ['2026-03-23T07:59:59Z', 'weekly', 'UTC', undefined],
      ['2026-03-23T08:00:00Z', 'weekly', 'UTC', { from: '2026-03-16', to: '2026-03-22' }],
      ['2026-03-24T07:59:59Z', 'weekly', 'UTC', { from: '2026-03-16', to: '2026-03-22' }],
      ['2026-03-24T08:00:00Z', 'weekly', 'UTC', undefined],
      ['2026-03-23T06:59:59Z', 'weekly', 'Europe/Paris', undefined],
      ['2026-03-23T07:00:00Z', 'weekly', 'Europe/Paris', { from: '2026-03-16', to: '2026-03-22' }],
      ['2026-03-22T23:30:00Z', 'weekly', 'Pacific/Auckland', { from: '2026-03-16', to: '2026-03-22' }],
      ['2026-04-01T08:00:00Z', 'monthly', 'UTC', { from: '2026-03-01', to: '2026-03-31' }],
      ['2026-04-01T07:00:00Z', 'monthly', 'UTC', undefined],
      ['2026-04-02T09:00:00Z', 'monthly', 'UTC', undefined],
      ['2026-01-01T08:00:00Z', 'monthly', 'UTC', { from: '2025-12-01', to: '2025-12-31' }],
      // 08:00 on the Sunday the clocks go forward in Paris is 06:00 UTC.
      ['2026-03-01T07:00:00Z', 'monthly', 'Europe/Paris', { from: '2026-02-01', to: '2026-02-28' }],
    ];
    for (const [at, kind, zone, expected] of cases) {
      const due = duePeriod(kind, Date.parse(at), zone);
      assert.deepEqual(due && { from: due.from, to: due.to }, expected, `${kind} at ${at} in ${zone}`);
    }
  });
});

/** A mail with its folded header lines unfolded, and quoted-printable soft breaks and escapes undone (UTF-8). */
function decoded(mail: Mail): string {
  const split = mail.data.indexOf('\n\n');
  const head = mail.data.slice(0, split).replace(/\n[ \t]+/g, ' ');
  const body = mail.data.slice(split).replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return head + Buffer.from(body, 'latin1').toString('utf8');
}

describe('email digests', () => {
  // Monday 23 March 2026, 07:00:30 UTC: 08:00:30 in Paris.
  const clock = new ManualClock(Date.parse('2026-03-23T07:00:30Z'));
  let smtp: SmtpListener;
  let server: TestServer;
  let site: SiteFixture;
  let second: MetaStores;
  let secondWorker: DigestService;
  let PUBLIC_URL: string;
  let receiver: Receiver;
  const users: Record<string, { client: AppClient; userId: number }> = {};

  before(async () => {
    smtp = await startSmtp();
    const port = await freePort();
    PUBLIC_URL = `http://127.0.0.1:${port}`;
    receiver = await startReceiver();
    server = await startTestServer({
      clock,
      env: { PORT: String(port), SVC_SMTP_URL: smtp.url, SVC_PUBLIC_URL: PUBLIC_URL, SVC_WEBHOOK_ALLOW_PRIVATE: '1' },
      alerts: { resolve: loopbackResolver, ca: testCertificates().ca, timeoutMs: 2_000 },
    });
    site = await createSite(server, { timezone: 'Europe/Paris' });
    const lines = [];
    for (let day = 9; day <= 22; day++) {
      const visits = day >= 16 ? 3 : 2;
      for (let i = 0; i < visits; i++) {
        const ts = Date.parse(`2026-03-${String(day).padStart(2, '0')}T10:00:00Z`) + i * 60_000;
        lines.push({ ts, ua: BROWSER_UA, ip: `198.51.100.${day * 3 + i}`, u: i === 0 ? '/' : '/pricing', country: 'DE', r: 'https://news.example/' });
      }
    }
    assert.equal((await importEvents(server, site.siteId, lines)).body.rejected, 0);
    for (const role of ['owner', 'viewer', 'quiet']) {
      users[role] = await signedInUser(server, `digest-${role}@example.com`, [{ orgId: site.orgId, role: role === 'owner' ? 'owner' : 'viewer' }]);
    }
    // A second worker: its own connection to the same metadata database, the same event store.
    second = await openMetaStores({ sqlitePath: join(server.dataDir, 'meta.sqlite') });
    secondWorker = new DigestService({
      store: second.digests,
      accounts: second.accounts,
      meta: second.meta,
      events: server.ctx.events,
      clock,
      mail: smtpMailSender(smtp.url, 'svc reports <reports@example.com>', 2_000),
      publicBase: PUBLIC_URL,
      signingKey: server.adminToken,
      webhookSender: server.ctx.alerts.sender,
      checkWebhookUrl: (url) => server.ctx.alerts.readUrl(url),
      warn: () => undefined,
    });
  });
  after(async () => {
    await second?.meta.close();
    await server?.stop();
    await smtp?.close();
    await receiver?.close();
  });

  const choose = (role: string, body: unknown) => users[role]!.client.request('PUT', `/app/v1/account/digests/${site.siteId}`, body);
  const status = async () => (await users.owner!.client.request('GET', `/app/v1/manage/sites/${site.siteId}/digests`)).body;

  test('members choose their reports per site; others cannot', async () => {
    const listed = await users.viewer!.client.request('GET', '/app/v1/account/digests');
    assert.deepEqual(listed.body, {
      configured: true,
      sites: [{ siteId: site.siteId, name: listed.body.sites[0].name, domain: site.domain, orgName: listed.body.sites[0].orgName, weekly: false, monthly: false }],
    });
    assert.deepEqual((await choose('owner', { weekly: true, monthly: true })).body, { siteId: site.siteId, weekly: true, monthly: true });
    assert.equal((await choose('viewer', { weekly: true, monthly: false })).status, 200);
    assert.equal((await choose('viewer', { weekly: 'yes', monthly: false })).status, 400);
    const outsider = await signedInUser(server, 'digest-outsider@example.com');
    assert.equal((await outsider.client.request('PUT', `/app/v1/account/digests/${site.siteId}`, { weekly: true, monthly: false })).status, 404);
    assert.equal((await users.viewer!.client.request('GET', `/app/v1/manage/sites/${site.siteId}/digests`)).status, 403, 'the state is for admins');
  });

  test('two workers at 08:00 in the zone send each member its report once; running again sends nothing', async () => {
    clock.set(Date.parse('2026-03-23T06:59:59Z'));
    await Promise.all([server.ctx.digests.run(clock.now()), secondWorker.run(clock.now())]);
    assert.equal(smtp.mails.length, 0, 'not before 08:00 in Paris');
    clock.set(Date.parse('2026-03-23T07:00:30Z'));
    await Promise.all([server.ctx.digests.run(clock.now()), secondWorker.run(clock.now()), server.ctx.digests.run(clock.now())]);
    assert.deepEqual(smtp.mails.map((m) => m.to[0]).sort(), ['digest-owner@example.com', 'digest-viewer@example.com']);
    await Promise.all([server.ctx.digests.run(clock.now() + 60_000), secondWorker.run(clock.now() + 120_000)]);
    assert.equal(smtp.mails.length, 2, 'nothing twice');
    const state = await status();
    assert.equal(state.configured, true);
    assert.equal(state.lastSentAt, clock.now());
    assert.equal(state.lastError, null);
  });

  test('the mail: subject, the six KPIs with their change, top pages, referrers and countries, the period link, an HTML part and List-Unsubscribe', async () => {
    const mail = smtp.mails.find((m) => m.to[0] === 'digest-viewer@example.com')!;
    const body = decoded(mail);
    const header = (name: string) => new RegExp(`^${name}: (.*)$`, 'mi').exec(body)?.[1];
    assert.match(header('Subject')!, /^Site \d+: weekly report$/);
    assert.match(body, /Content-Type: multipart\/alternative/i);
    assert.match(body, /Content-Type: text\/plain/i);
    assert.match(body, /Content-Type: text\/html/i);
    assert.doesNotMatch(body, /<img/i, 'readable without images');
    for (const label of ['Visitors: 21 (+50%', 'Pageviews: 21 (+50%', 'Visits: 21', 'Bounce rate: 100% (0 pp', 'Visit duration: 0s', 'Conversions: – (–']) assert.ok(body.includes(label), label);
    assert.match(body, /Top pages:\n {2}\/: 7 visitors\n {2}\/pricing: 14 visitors|Top pages:\n {2}\/pricing: 14 visitors\n {2}\/: 7 visitors/);
    assert.match(body, /Top referrers:\n {2}news\.example: 21 visitors/);
    assert.match(body, /Top countries:\n {2}Germany: 21 visitors/, 'a country by its name');
    assert.ok(body.includes(`${PUBLIC_URL}/sites/${site.siteId}?from=2026-03-16&to=2026-03-22`), 'the dashboard view of the period');
    assert.match(header('List-Unsubscribe')!, new RegExp(`^<${PUBLIC_URL}/unsubscribe/\\d+\\.\\d+\\.weekly\\.[\\w-]{43}>$`));
    assert.equal(header('List-Unsubscribe-Post'), 'List-Unsubscribe=One-Click');
  });

  test('the unsubscribe link works without signing in, for its member, site and kind only', async () => {
    const mail = smtp.mails.find((m) => m.to[0] === 'digest-viewer@example.com')!;
    const link = /^List-Unsubscribe: <([^>]+)>$/m.exec(decoded(mail))![1]!;
    const local = link;
    const page = await fetch(local);
    assert.equal(page.status, 200);
    assert.match(await page.text(), /<button type="submit">Unsubscribe<\/button>/);
    assert.equal((await users.viewer!.client.request('GET', '/app/v1/account/digests')).body.sites[0].weekly, true, 'a GET changes nothing');
    const oneClick = await fetch(local, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'List-Unsubscribe=One-Click' });
    assert.equal(oneClick.status, 200);
    assert.match(await oneClick.text(), /you will no longer receive the weekly report/);
    assert.equal((await users.viewer!.client.request('GET', '/app/v1/account/digests')).body.sites[0].weekly, false);
    const tampered = local.replace(/weekly\.(.)/, (_m, c: string) => `weekly.${c === 'A' ? 'B' : 'A'}`);
    assert.equal((await fetch(tampered, { method: 'POST' })).status, 404);
    assert.equal((await fetch(local.replace('weekly', 'monthly'))).status, 404, 'a signature is for one kind');
  });

  test("a mail reader's one-click unsubscribe sent as multipart/form-data (RFC 8058's recommended form) unsubscribes too", async () => {
    const mail = smtp.mails.find((m) => m.to[0] === 'digest-viewer@example.com')!;
    const link = /^List-Unsubscribe: <([^>]+)>$/m.exec(decoded(mail))![1]!;
    assert.equal((await choose('viewer', { weekly: true, monthly: false })).status, 200);
    const form = new FormData();
    form.set('List-Unsubscribe', 'One-Click');
    const oneClick = await fetch(link, { method: 'POST', body: form });
    assert.equal(oneClick.status, 200);
    assert.equal((await users.viewer!.client.request('GET', '/app/v1/account/digests')).body.sites[0].weekly, false);
  });

  test('an SMTP server that refuses, closes mid-message or hangs: the report is tried again later, sent once, the error shown meanwhile', async () => {
    // Monday 6 April... the monthly report of March is due on Wednesday 1 April at 08:00 in Paris.
    clock.set(Date.parse('2026-04-01T06:00:30Z'));
    const before = smtp.mails.length;
    for (const mode of ['refuse', 'close', 'hang'] as const) {
      smtp.mode = mode;
      // The second worker's SMTP timeout is 2 s: a hanging server fails it in time.
      await secondWorker.run(clock.now());
      assert.equal(smtp.mails.length, before, `${mode}: nothing sent`);
      const state = await status();
      assert.ok(state.lastError, `${mode}: the error is shown`);
      assert.equal(state.pending, 1);
      if (mode === 'refuse') assert.match(state.lastError.message, /550/);
      // Before its retry time, nothing is tried again.
      await server.ctx.digests.run(clock.now() + 1_000);
      assert.equal(smtp.mails.length, before);
      clock.advance(6 * 60 * 60_000);
    }
    smtp.mode = 'accept';
    await Promise.all([server.ctx.digests.run(clock.now()), secondWorker.run(clock.now())]);
    const monthly = smtp.mails.slice(before);
    assert.deepEqual(monthly.map((m) => m.to[0]), ['digest-owner@example.com']);
    assert.match(decoded(monthly[0]!), /Subject: Site \d+: monthly report/);
    const state = await status();
    assert.equal(state.lastSentAt, clock.now());
    assert.equal(state.lastError, null);
    assert.equal(state.pending, 0);
  });

  test('a worker that dies holding claims: another sends its reports once the claims expire, and never twice', async () => {
    await choose('quiet', { weekly: true, monthly: false });
    clock.set(Date.parse('2026-04-06T06:00:30Z'));
    await server.ctx.digests.plan(clock.now());
    const dead = await second.digests.claimDue('a worker that died', clock.now(), clock.now() + DIGEST_CLAIM_MS, 20);
    assert.deepEqual(dead.map((s) => s.userId).sort(), [users.owner!.userId, users.quiet!.userId].sort());
    const before = smtp.mails.length;
    await server.ctx.digests.run(clock.now() + 60_000);
    assert.equal(smtp.mails.length, before, 'claimed by the dead worker');
    clock.advance(DIGEST_CLAIM_MS + 1);
    await Promise.all([server.ctx.digests.run(clock.now()), secondWorker.run(clock.now())]);
    assert.deepEqual(smtp.mails.slice(before).map((m) => m.to[0]).sort(), ['digest-owner@example.com', 'digest-quiet@example.com']);
    await secondWorker.run(clock.now() + 60_000);
    assert.equal(smtp.mails.length, before + 2);
  });

  test('a report webhook gets the digest once a period, signed as alert webhooks are, again after a failure', async () => {
    const path = `/app/v1/manage/sites/${site.siteId}/digest-webhooks`;
    const refused = await users.owner!.client.request('POST', path, { url: 'http://receiver.test/x', secret: 's', weekly: true, monthly: false });
    assert.equal(refused.body.error.code, 'INVALID_WEBHOOK_URL');
    assert.equal((await users.viewer!.client.request('POST', path, { url: receiver.url('/digest'), secret: 's', weekly: true, monthly: false })).status, 403);
    const created = await users.owner!.client.request('POST', path, { url: receiver.url('/digest'), secret: 'digest secret', weekly: true, monthly: false });
    assert.equal(created.status, 201, created.text);
    assert.deepEqual((await users.owner!.client.request('GET', path)).body, { webhooks: [{ id: created.body.id, url: receiver.url('/digest'), weekly: true, monthly: false, createdAt: created.body.createdAt }] });
    receiver.answer('/digest', 503, 200);
    clock.set(Date.parse('2026-04-13T06:00:30Z'));
    await Promise.all([server.ctx.digests.run(clock.now()), secondWorker.run(clock.now())]);
    assert.equal(receiver.requestsTo('/digest').length, 1);
    assert.match((await status()).lastError.message, /failed:http-503/);
    clock.advance(60_000);
    await Promise.all([server.ctx.digests.run(clock.now()), secondWorker.run(clock.now())]);
    await server.ctx.digests.run(clock.now() + 60_000);
    const received = receiver.requestsTo('/digest');
    assert.equal(received.length, 2, 'the failed attempt, then one success');
    assert.equal(received[0]!.headers['svc-delivery-id'], received[1]!.headers['svc-delivery-id']);
    const last = received[1]!;
    assert.equal(last.headers['svc-signature'], `v1=${signatureHex('digest secret', Number(last.headers['svc-timestamp']), last.body)}`);
    const payload = JSON.parse(last.body);
    assert.equal(payload.type, 'digest');
    assert.equal(payload.kind, 'weekly');
    assert.deepEqual(payload.period, { from: '2026-04-06', to: '2026-04-12' });
    assert.deepEqual(Object.keys(payload.kpis), ['visitors', 'pageviews', 'sessions', 'bounceRate', 'avgDuration', 'conversions']);
    assert.equal(payload.dashboardUrl, `${PUBLIC_URL}/sites/${site.siteId}?from=2026-04-06&to=2026-04-12`);
    assert.equal((await users.owner!.client.request('DELETE', `${path}/${created.body.id}`)).status, 204);
  });

  test('a worker whose sends are slow claims each send as its turn comes: another worker never sends one of them too', async () => {
    clock.set(Date.parse('2026-04-20T06:00:30Z'));
    const slowMails: string[] = [];
    // Each mail takes almost a claim's length; during the second, the other worker runs.
    const slowWorker = new DigestService({
      store: second.digests,
      accounts: second.accounts,
      meta: second.meta,
      events: server.ctx.events,
      clock,
      mail: async (message) => {
        slowMails.push(message.to[0]!);
        clock.advance(DIGEST_CLAIM_MS - 1_000);
        if (slowMails.length === 2) await secondWorker.sendDue(clock.now());
      },
      publicBase: PUBLIC_URL,
      signingKey: server.adminToken,
      webhookSender: server.ctx.alerts.sender,
      checkWebhookUrl: (url) => server.ctx.alerts.readUrl(url),
      warn: () => undefined,
    });
    const before = smtp.mails.length;
    await slowWorker.run(clock.now());
    const sent = [...slowMails, ...smtp.mails.slice(before).map((m) => m.to[0]!)];
    assert.deepEqual(sent.sort(), ['digest-owner@example.com', 'digest-quiet@example.com']);
  });

  test('a member whose organisation requires two-factor sign-in it has not enabled gets no report until it does', async () => {
    assert.equal((await server.admin('PUT', `/orgs/${site.orgId}/two-factor`, { required: true })).status, 200);
    try {
      clock.set(Date.parse('2026-04-27T06:00:30Z'));
      const before = smtp.mails.length;
      await server.ctx.digests.run(clock.now());
      assert.equal(smtp.mails.length, before, 'no figure by mail past the requirement');
      assert.match((await server.ctx.digests.status(await server.ctx.meta.getSite(site.siteId).then((s) => s!))).lastError!.message, /two-factor/);
    } finally {
      assert.equal((await server.admin('PUT', `/orgs/${site.orgId}/two-factor`, { required: false })).status, 200);
    }
  });

  test("a Slack URL gets Slack's incoming-webhook message format", () => {
    assert.equal(isSlackWebhook('https://hooks.slack.com/services/T0/B0/x'), true);
    assert.equal(isSlackWebhook('https://hooks.slack.com.evil.example/services'), false);
    const kpi = { value: 10, prev: 5, deltaPct: 100 };
    const digest: Digest = {
      site: { id: 'abc', name: 'Shop <1>', domain: 'shop.example' },
      kind: 'weekly',
      period: { from: '2026-03-16', to: '2026-03-22' },
      kpis: { visitors: kpi, pageviews: kpi, sessions: kpi, bounceRate: { value: 0.5, prev: null, deltaPct: 0 }, avgDuration: { value: 75, prev: 75, deltaPct: 0 }, timeOnPage: { value: null, prev: null, deltaPct: 0 }, conversions: { value: null, prev: null, deltaPct: 0 } },
      top: { page: [{ key: '/a&b', visitors: 4, views: 5, pct: 40 }], referrer: [], country: [{ key: 'DE', visitors: 10, views: 10, pct: 100 }] },
      dashboardUrl: 'https://svc.example/sites/abc?from=2026-03-16&to=2026-03-22',
    };
    const message = JSON.parse(slackMessage(digest));
    assert.equal(message.text, 'Shop &lt;1&gt;: weekly report, 2026-03-16 to 2026-03-22');
    assert.equal(message.blocks[0].type, 'header');
    assert.match(message.blocks[1].text.text, /^\*Visitors\*: 10 \(\+100%\)\n/);
    assert.match(message.blocks[1].text.text, /\*Bounce rate\*: 50% \(—\)/);
    assert.match(message.blocks[1].text.text, /\*Visit duration\*: 1m 15s \(0%\)/);
    assert.equal(message.blocks[2].text.text, '*Top pages*\n/a&amp;b: 4');
    assert.equal(message.blocks[3].text.text, '*Top referrers*\nnone');

    // A ratio's change in percentage points, as the dashboard's tile; the visits without a referrer and a country by name.
    const withFigures: Digest = {
      ...digest,
      kpis: { ...digest.kpis, bounceRate: { value: 0.42, prev: 0.5, deltaPct: -16 } },
      top: { ...digest.top, referrer: [{ key: '(none)', visitors: 6, views: 6, pct: 60 }] },
    };
    const text = digestText(withFigures, 'https://svc.example/unsubscribe/x');
    assert.ok(text.includes('Bounce rate: 42% (-8 pp against the previous period)'), text);
    assert.match(text, /Top referrers:\n {2}Direct \/ None: 6 visitors/);
    assert.match(text, /Top countries:\n {2}Germany: 10 visitors/);
    assert.ok(!text.includes('(none)'), 'no (none) in a report');
    const html = digestHtml(withFigures, 'https://svc.example/unsubscribe/x');
    for (const cell of ['<td style="padding:4px 12px 4px 0;text-align:left">-8 pp</td>', '>Direct / None</td>', '>Germany</td>']) assert.ok(html.includes(cell), cell);
    assert.match(JSON.parse(slackMessage(withFigures)).blocks[3].text.text, /^\*Top referrers\*\nDirect \/ None: 6$/);
    assert.equal(message.blocks.at(-1).text.text, '<https://svc.example/sites/abc?from=2026-03-16&to=2026-03-22|Open the dashboard of this period>');
  });
});
