// Invitations over HTTP, against a real listening server on a manual clock: an owner's answer is the
// same whether the email has an account; the link works once, for 7 days, for the invited email; it
// is mailed when SMTP is configured; owners list and revoke pending ones.
import { after, before, beforeEach, describe, mock, test, type Mock } from 'node:test';
import assert from 'node:assert/strict';
import { ManualClock } from '../../src/core/clock.js';
import { passwordHashing } from '../../src/accounts/passwords.js';
import { AppClient, signedInUser } from '../helpers/app-client.js';
import { createSite, startTestServer, type SiteFixture, type TestServer } from '../helpers/server.js';
import { startSmtp, type SmtpListener } from '../helpers/smtp.js';

const DAY_MS = 86_400_000;
const PASSWORD = 'a long enough secret';
const PUBLIC_URL = 'https://stats.example.com';

/** The link's token: the last segment of its URL. */
const tokenOf = (url: string) => url.slice(url.lastIndexOf('/') + 1);

describe('invitations', () => {
  const clock = new ManualClock(Date.UTC(2026, 5, 1, 12));
  let server: TestServer;
  let site: SiteFixture;
  let owner: AppClient;
  let counter = 0;

  before(async () => {
    server = await startTestServer({ clock });
    site = await createSite(server);
    owner = (await signedInUser(server, 'owner@example.com', [{ orgId: site.orgId, role: 'owner' }])).client;
  });
  after(() => server.stop());

  const invite = (email: string, role = 'viewer') => owner.request('POST', `/app/v1/manage/orgs/${site.orgId}/invitations`, { email, role });
  const invited = async (email: string, role = 'viewer') => {
    const res = await invite(email, role);
    assert.equal(res.status, 201, res.text);
    return res.body as { invitationId: number; email: string; role: string; url: string; createdAt: number; expiresAt: number; emailed: boolean };
  };
  const fresh = () => `person${++counter}@example.com`;

  test('the answer is the same whether an account has the email', async () => {
    const existing = fresh();
    await server.admin('POST', '/users', { email: existing, password: PASSWORD });
    const nobody = fresh();
    const answers = [await invite(existing, 'admin'), await invite(nobody, 'admin')];
    const shape = (res: (typeof answers)[number], email: string) => {
      assert.equal(res.status, 201, res.text);
      assert.equal(res.body.email, email);
      assert.match(res.body.url, new RegExp(`^${server.url}/invitations/[\\w-]{43}$`), 'the link is on the request\'s origin without SVC_PUBLIC_URL');
      const { invitationId, url, email: _email, ...rest } = res.body;
      assert.equal(typeof invitationId, 'number');
      return { status: res.status, keys: Object.keys(res.body).sort(), rest, contentType: res.headers.get('content-type') };
    };
    assert.deepEqual(shape(answers[0]!, existing), shape(answers[1]!, nobody));
    assert.equal(answers[0]!.body.expiresAt, clock.now() + 7 * DAY_MS);
    assert.equal(answers[0]!.body.emailed, false, 'no SMTP configured');
    // The link's page tells nothing either: the same fields for both.
    const views = await Promise.all(answers.map((a) => new AppClient(server).request('GET', `/app/v1/invitations/${tokenOf(a.body.url)}`)));
    assert.deepEqual(views.map((v) => Object.keys(v.body).sort()), [['email', 'expiresAt', 'orgName', 'role'], ['email', 'expiresAt', 'orgName', 'role']]);
  });

  test('the operator admin API invites with the same answer', async () => {
    const res = await server.admin('POST', `/orgs/${site.orgId}/invitations`, { email: fresh(), role: 'viewer' });
    assert.equal(res.status, 201);
    assert.deepEqual(Object.keys(res.body).sort(), ['createdAt', 'email', 'emailed', 'expiresAt', 'invitationId', 'role', 'url']);
    const listed = await server.admin('GET', `/orgs/${site.orgId}/invitations`);
    assert.ok(listed.body.invitations.some((i: { invitationId: number }) => i.invitationId === res.body.invitationId));
    assert.equal(listed.body.invitations[0].url, undefined, 'a link is answered once, never listed');
  });

  test('bad input: email, role, an existing member', async () => {
    const cases: Array<[unknown, number, string]> = [
      [{ email: 'not an email', role: 'viewer' }, 400, 'INVALID_PARAMS'],
      [{ email: fresh(), role: 'boss' }, 400, 'INVALID_PARAMS'],
      [{ email: fresh() }, 400, 'INVALID_PARAMS'],
      [{ email: fresh(), role: 'viewer', extra: 1 }, 400, 'INVALID_PARAMS'],
      [{ email: 'OWNER@example.com', role: 'viewer' }, 409, 'CONFLICT'],
    ];
    for (const [body, status, code] of cases) {
      const res = await owner.request('POST', `/app/v1/manage/orgs/${site.orgId}/invitations`, body);
      assert.equal(res.status, status, JSON.stringify(body));
      assert.equal(res.body.error.code, code);
    }
  });

  test('signed out: create the account of the invited email, then accept; only then a member', async () => {
    const email = fresh();
    const { url } = await invited(email, 'admin');
    const invitee = new AppClient(server);
    const view = await invitee.request('GET', `/app/v1/invitations/${tokenOf(url)}`);
    assert.deepEqual(view.body, { orgName: (await server.admin('GET', '/orgs')).body.orgs.find((o: { id: number }) => o.id === site.orgId).name, email, role: 'admin', expiresAt: clock.now() + 7 * DAY_MS });

    const short = await invitee.request('POST', `/app/v1/invitations/${tokenOf(url)}/account`, { password: 'short' });
    assert.deepEqual(short.body, { error: { code: 'INVALID_PARAMS', reason: 'TOO_SHORT_INVALID_PARAMS', message: 'password must be at least 10 characters' } });
    const emailField = await invitee.request('POST', `/app/v1/invitations/${tokenOf(url)}/account`, { password: PASSWORD, email: 'other@example.com' });
    assert.equal(emailField.status, 400, 'the email is the invitation\'s, never the caller\'s');

    const created = await invitee.request('POST', `/app/v1/invitations/${tokenOf(url)}/account`, { password: PASSWORD });
    assert.equal(created.status, 201, created.text);
    assert.equal(created.body.user.email, email);
    assert.deepEqual(created.body.memberships, [], 'not a member before accepting');
    assert.equal((await invitee.request('GET', `/app/v1/manage/orgs/${site.orgId}/sites`)).status, 404);

    const again = await new AppClient(server).request('POST', `/app/v1/invitations/${tokenOf(url)}/account`, { password: PASSWORD });
    assert.equal(again.status, 409, 'the account exists now: sign in instead');

    const accepted = await invitee.request('POST', `/app/v1/invitations/${tokenOf(url)}/accept`);
    assert.equal(accepted.status, 200, accepted.text);
    assert.deepEqual(accepted.body, { orgId: site.orgId, role: 'admin' });
    const sites = await invitee.request('GET', '/app/v1/sites');
    assert.deepEqual(sites.body.sites.map((s: { id: string }) => s.id), [site.siteId]);
    assert.equal((await invitee.request('GET', `/app/v1/manage/orgs/${site.orgId}/sites`)).status, 200);
    // Used: the link is dead.
    assert.equal((await invitee.request('GET', `/app/v1/invitations/${tokenOf(url)}`)).status, 404);
    assert.equal((await invitee.request('POST', `/app/v1/invitations/${tokenOf(url)}/accept`)).status, 404);
  });

  test('signed in: the invited email accepts; another email is refused and the invitation stays', async () => {
    const email = fresh();
    const { client: invitee, userId } = await signedInUser(server, email);
    const { client: stranger } = await signedInUser(server, fresh());
    const { url } = await invited(email.toUpperCase(), 'viewer');
    const wrong = await stranger.request('POST', `/app/v1/invitations/${tokenOf(url)}/accept`);
    assert.equal(wrong.status, 403);
    assert.match(wrong.body.error.message, /another email/);
    assert.equal((await new AppClient(server).request('POST', `/app/v1/invitations/${tokenOf(url)}/accept`, undefined, { origin: server.url })).status, 401);
    const accepted = await invitee.request('POST', `/app/v1/invitations/${tokenOf(url)}/accept`);
    assert.deepEqual(accepted.body, { orgId: site.orgId, role: 'viewer' });
    const members = (await server.admin('GET', `/orgs/${site.orgId}/members`)).body.members;
    assert.ok(members.some((m: { userId: number; role: string }) => m.userId === userId && m.role === 'viewer'));
  });

  test('a link is valid 7 days by the service clock', async () => {
    const email = fresh();
    const { url } = await invited(email);
    const token = tokenOf(url);
    const { client } = await signedInUser(server, email);
    clock.advance(7 * DAY_MS - 1);
    assert.equal((await client.request('GET', `/app/v1/invitations/${token}`)).status, 200);
    clock.advance(1);
    try {
      const gone = await client.request('GET', `/app/v1/invitations/${token}`);
      assert.equal(gone.status, 404);
      assert.match(gone.body.error.message, /used or revoked, or it expired/);
      assert.equal((await client.request('POST', `/app/v1/invitations/${token}/accept`)).status, 404);
      assert.equal((await new AppClient(server).request('POST', `/app/v1/invitations/${token}/account`, { password: PASSWORD })).status, 404);
      const listed = (await owner.request('GET', `/app/v1/manage/orgs/${site.orgId}/invitations`)).body.invitations;
      assert.ok(!listed.some((i: { email: string }) => i.email === email), 'an expired invitation is not pending');
    } finally {
      clock.advance(-7 * DAY_MS);
    }
  });

  test('owners list and revoke pending invitations; a revoked link is dead', async () => {
    const email = fresh();
    const sent = await invited(email, 'admin');
    const list = await owner.request('GET', `/app/v1/manage/orgs/${site.orgId}/invitations`);
    const row = list.body.invitations.find((i: { invitationId: number }) => i.invitationId === sent.invitationId);
    assert.deepEqual(row, { invitationId: sent.invitationId, email, role: 'admin', createdAt: sent.createdAt, expiresAt: sent.expiresAt });
    const revoked = await owner.request('DELETE', `/app/v1/manage/orgs/${site.orgId}/invitations/${sent.invitationId}`);
    assert.equal(revoked.status, 204);
    assert.equal((await owner.request('DELETE', `/app/v1/manage/orgs/${site.orgId}/invitations/${sent.invitationId}`)).status, 404);
    assert.equal((await new AppClient(server).request('GET', `/app/v1/invitations/${tokenOf(sent.url)}`)).status, 404);
    // Inviting the email again replaces a pending invitation: only the newest link works.
    const first = await invited(email);
    const second = await invited(email);
    assert.equal((await new AppClient(server).request('GET', `/app/v1/invitations/${tokenOf(first.url)}`)).status, 404);
    assert.equal((await new AppClient(server).request('GET', `/app/v1/invitations/${tokenOf(second.url)}`)).status, 200);
  });

  test('a token that is not one answers 404', async () => {
    for (const token of ['x', 'A'.repeat(43), 'A'.repeat(44), '%2e%2e', 'a.b']) {
      assert.equal((await new AppClient(server).request('GET', `/app/v1/invitations/${token}`)).status, 404, token);
    }
  });

  test('the add-member-by-email path is the operator\'s only', async () => {
    const res = await owner.request('POST', `/app/v1/manage/orgs/${site.orgId}/members`, { email: 'owner@example.com', role: 'viewer' });
    assert.equal(res.status, 404);
  });
});

describe('creating the account from a link: bounded before any hashing', () => {
  const clock = new ManualClock(Date.UTC(2026, 5, 1, 12));
  let server: TestServer;
  let site: SiteFixture;
  let counter = 0;
  /** Every scrypt derivation runs through the hashing queue: its runs are the derivations. */
  let derivations: Mock<typeof passwordHashing.run>;

  before(async () => {
    server = await startTestServer({ clock, env: { SVC_TRUSTED_PROXIES: '127.0.0.1' } });
    site = await createSite(server);
    derivations = mock.method(passwordHashing, 'run');
  });
  beforeEach(() => derivations.mock.resetCalls());
  after(async () => {
    derivations.mock.restore();
    await server.stop();
  });

  const linkFor = async (email: string) => {
    const res = await server.admin('POST', `/orgs/${site.orgId}/invitations`, { email, role: 'viewer' });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return tokenOf(res.body.url);
  };
  const createAccount = (token: string, client: string) =>
    new AppClient(server).request('POST', `/app/v1/invitations/${token}/account`, { password: PASSWORD }, { 'x-forwarded-for': client });
  const statusCounts = (statuses: number[]) => statuses.reduce<Record<number, number>>((acc, s) => ({ ...acc, [s]: (acc[s] ?? 0) + 1 }), {});

  test('a successful creation hashes the password once and signs in', async () => {
    const email = `made${++counter}@example.com`;
    const created = await createAccount(await linkFor(email), '192.0.2.10');
    assert.equal(created.status, 201, created.text);
    assert.equal(created.body.user.email, email);
    assert.equal(derivations.mock.callCount(), 1);
    assert.equal((await new AppClient(server).signIn(email, PASSWORD, { 'x-forwarded-for': '192.0.2.11' })).status, 200, 'the password is the one hashed');
  });

  test('30 replays at once for an email that has an account: nothing hashed, 409 within the rate limit, 429 past it', async () => {
    const email = `replayed${++counter}@example.com`;
    const token = await linkFor(email);
    assert.equal((await createAccount(token, '192.0.2.20')).status, 201);
    derivations.mock.resetCalls();
    const answers = await Promise.all(Array.from({ length: 30 }, () => createAccount(token, '198.51.100.7')));
    assert.equal(derivations.mock.callCount(), 0);
    assert.deepEqual(statusCounts(answers.map((a) => a.status)), { 409: 20, 429: 10 }, 'the sign-in rate limit: 20 a minute per client');
    assert.ok(answers.filter((a) => a.status === 429).every((a) => a.body.error.message.startsWith('Too many sign-in attempts from this address')));
  });

  test('30 creations at once for a new email from 30 clients: one account, at most 10 hashes (the lockout\'s count per email)', async () => {
    const email = `raced${++counter}@example.com`;
    const token = await linkFor(email);
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => createAccount(token, `203.0.113.${i + 1}`)));
    const counts = statusCounts(answers.map((a) => a.status));
    assert.equal(counts[201], 1, JSON.stringify(counts));
    assert.equal((counts[201] ?? 0) + (counts[409] ?? 0) + (counts[429] ?? 0), 30, JSON.stringify(counts));
    assert.ok(derivations.mock.callCount() <= 10, `${derivations.mock.callCount()} derivations`);
    assert.equal((await createAccount(token, '203.0.113.99')).status, 409);
  });
});

describe('invitation mail', () => {
  let smtp: SmtpListener;
  let server: TestServer;

  before(async () => {
    smtp = await startSmtp();
    server = await startTestServer({ env: { SVC_SMTP_URL: smtp.url, SVC_PUBLIC_URL: PUBLIC_URL } });
  });
  after(async () => {
    await server.stop();
    await smtp.close();
  });

  test('with SMTP configured, the link is also mailed to the invited email', async () => {
    const site = await createSite(server);
    const res = await server.admin('POST', `/orgs/${site.orgId}/invitations`, { email: 'Cy@Example.com', role: 'admin' });
    assert.equal(res.status, 201);
    assert.equal(res.body.emailed, true);
    assert.equal(smtp.mails.length, 1);
    const mail = smtp.mails[0]!;
    assert.deepEqual(mail.to.map((to) => to.toLowerCase()), ['cy@example.com']);
    // Quoted-printable soft line breaks joined again.
    const text = mail.data.replace(/=\n/g, '').replace(/=3D/g, '=');
    assert.match(text, /Subject: You are invited to Org \d+ on svc/);
    assert.match(text, /^From: svc <reports@stats\.example\.com>$/m, 'the sender is on the host of SVC_PUBLIC_URL');
    assert.ok(text.includes(res.body.url), text);
    assert.match(res.body.url, new RegExp(`^${PUBLIC_URL}/invitations/[\\w-]{43}$`), 'the link is on SVC_PUBLIC_URL');
  });

  test("the mail is in the invited account's language, else in the inviting request's Accept-Language, else English", async () => {
    const site = await createSite(server);
    const invite = async (email: string, language?: string) => {
      const headers: Record<string, string> = { authorization: `Bearer ${server.adminToken}`, 'content-type': 'application/json', ...(language ? { 'accept-language': language } : {}) };
      const res = await fetch(`${server.url}/admin/v1/orgs/${site.orgId}/invitations`, { method: 'POST', headers, body: JSON.stringify({ email, role: 'viewer' }) });
      assert.equal(res.status, 201);
      const mail = smtp.mails.at(-1)!;
      assert.equal(mail.to[0]!.toLowerCase(), email);
      return Buffer.from(mail.data.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))), 'latin1').toString('utf8');
    };
    const known = await server.admin('POST', '/users', { email: 'anna@example.com', password: 'correct horse battery' });
    assert.equal(await server.ctx.accounts.store.setLanguage(known.body.id, 'de'), true);
    const german = await invite('anna@example.com', 'es');
    assert.ok(german.includes('Sie sind eingeladen,'), german);
    assert.ok(german.includes('als Betrachter beizutreten'));
    const spanish = await invite('bruno@example.com', 'es-MX,es;q=0.9');
    assert.ok(spanish.includes('Le invitan a unirse a'), spanish);
    assert.ok(spanish.includes('como lector'));
    const english = await invite('cleo@example.com');
    assert.match(english, /Subject: You are invited to Org \d+ on svc/);
    assert.ok(english.includes('as viewer.'));
  });

  test('an organisation sends at most 50 invitations an hour', async () => {
    const site = await createSite(server);
    const before = smtp.mails.length;
    for (let i = 0; i < 50; i++) assert.equal((await server.admin('POST', `/orgs/${site.orgId}/invitations`, { email: `p${i}@example.com`, role: 'viewer' })).status, 201);
    const over = await server.admin('POST', `/orgs/${site.orgId}/invitations`, { email: 'one-more@example.com', role: 'viewer' });
    assert.equal(over.status, 429);
    assert.equal(over.body.error.code, 'RATE_LIMITED');
    assert.equal(smtp.mails.length, before + 50);
  });
});

describe('invitation mail without a public URL', () => {
  test('SMTP alone mails nothing: the link would start with the Host header the caller chose; it starts with the public URL and its path when set', async () => {
    const smtp = await startSmtp();
    const server = await startTestServer({ env: { SVC_SMTP_URL: smtp.url } });
    const withPath = await startTestServer({ env: { SVC_PUBLIC_URL: 'https://example.com/stats' } });
    try {
      const site = await createSite(server);
      const res = await fetch(`${server.url}/admin/v1/orgs/${site.orgId}/invitations`, {
        method: 'POST',
        headers: { authorization: `Bearer ${server.adminToken}`, 'content-type': 'application/json', host: 'evil.example' },
        body: JSON.stringify({ email: 'cy@example.com', role: 'viewer' }),
      });
      const body = (await res.json()) as { url: string; emailed: boolean };
      assert.equal(res.status, 201);
      assert.equal(body.emailed, false);
      assert.equal(smtp.mails.length, 0, 'nothing mailed');
      const other = await createSite(withPath);
      const linked = await withPath.admin('POST', `/orgs/${other.orgId}/invitations`, { email: 'cy@example.com', role: 'viewer' });
      assert.match(linked.body.url, /^https:\/\/example\.com\/stats\/invitations\/[\w-]{43}$/);
    } finally {
      await Promise.all([server.stop(), withPath.stop()]);
      await smtp.close();
    }
  });
});
