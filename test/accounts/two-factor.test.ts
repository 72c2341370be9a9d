// Two-factor sign-in and self-service account changes through /app/v1 on a real listening server and
// a manual clock: TOTP (RFC 6238's vectors, one step of tolerance, a code never twice), recovery
// codes, the lockout counting wrong codes, the operator's reset, an organisation's requirement, and
// the user's own password, email and deletion.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ManualClock } from '../../src/core/clock.js';
import { base32Decode, base32Encode, hotp, matchingStep, totpCode, totpStep } from '../../src/accounts/totp.js';
import { AppClient, signedInUser } from '../helpers/app-client.js';
import { createSite, startTestServer, type TestServer } from '../helpers/server.js';

// RFC 6238 appendix B: the SHA-1 seed "12345678901234567890", its 8-digit codes' last 6 digits.
const RFC_SECRET = base32Encode(Buffer.from('12345678901234567890'));
const RFC_VECTORS: Array<[seconds: number, code: string]> = [
  [59, '287082'],
  [1111111109, '081804'],
  [1111111111, '050471'],
  [1234567890, '005924'],
  [2000000000, '279037'],
  [20000000000, '353130'],
];

describe('TOTP', () => {
  test("RFC 6238's test vectors", () => {
    assert.equal(RFC_SECRET, 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ');
    for (const [seconds, code] of RFC_VECTORS) assert.equal(totpCode(RFC_SECRET, seconds * 1000), code, `T=${seconds}`);
  });

  test('base32 round-trips any bytes and refuses other characters', () => {
    for (const length of [0, 1, 5, 10, 20, 33]) {
      const bytes = Buffer.from(Array.from({ length }, (_, i) => (i * 37 + 11) & 255));
      assert.deepEqual(base32Decode(base32Encode(bytes)), bytes);
    }
    assert.deepEqual(base32Decode('gezd gnbv'), base32Decode('GEZDGNBV'));
    assert.throws(() => base32Decode('GEZ1'));
  });

  test('one step of tolerance each way: a clock 30 s off is accepted, 60 s off refused; a used step never again', () => {
    const now = Date.UTC(2026, 5, 1, 12, 0, 10);
    const step = totpStep(now);
    const table: Array<[offsetSeconds: number, accepted: boolean]> = [
      [0, true],
      [-30, true],
      [30, true],
      [-60, false],
      [60, false],
      [-90, false],
    ];
    for (const [offset, accepted] of table) {
      const code = totpCode(RFC_SECRET, now + offset * 1000);
      assert.equal(matchingStep(RFC_SECRET, code, now) !== undefined, accepted, `clock ${offset} s off`);
    }
    assert.equal(matchingStep(RFC_SECRET, hotp(RFC_SECRET, step - 1), now), step - 1, 'the step before');
    assert.equal(matchingStep(RFC_SECRET, hotp(RFC_SECRET, step + 1), now), step + 1, 'the next step');
  });
});

describe('two-factor sign-in', () => {
  const clock = new ManualClock(Date.UTC(2026, 5, 1, 12, 0, 5));
  let server: TestServer;
  let orgId: number;
  before(async () => {
    server = await startTestServer({ clock, env: { SVC_TRUSTED_PROXIES: '127.0.0.1' } });
    orgId = (await createSite(server)).orgId;
  });
  after(() => server.stop());

  /** A user who enabled two-factor sign-in; answers its secret and recovery codes. */
  async function enrolled(email: string, role = 'viewer') {
    const { client, userId, password } = await signedInUser(server, email, [{ orgId, role }]);
    assert.deepEqual((await client.request('GET', '/app/v1/account/two-factor')).body, { enabled: false, recoveryCodesLeft: 0 });
    const setup = await client.request('POST', '/app/v1/account/two-factor/setup');
    assert.equal(setup.status, 200, setup.text);
    const { secret } = setup.body;
    assert.match(secret, /^[A-Z2-7]{32}$/);
    assert.equal(setup.body.otpauthUri, `otpauth://totp/svc:${encodeURIComponent(email)}?secret=${secret}&issuer=svc&algorithm=SHA1&digits=6&period=30`);
    assert.match(setup.body.qrSvg, /^<svg[\s\S]*<\/svg>\s*$/);
    const wrong = await client.request('POST', '/app/v1/account/two-factor/confirm', { code: String((Number(totpCode(secret, clock.now())) + 1) % 1e6).padStart(6, '0'), currentPassword: password });
    assert.deepEqual(wrong.body, { error: { code: 'UNAUTHORIZED', reason: 'WRONG_CODE_UNAUTHORIZED', message: 'Wrong code.' } });
    const confirmed = await client.request('POST', '/app/v1/account/two-factor/confirm', { code: totpCode(secret, clock.now()), currentPassword: password });
    assert.equal(confirmed.status, 200, confirmed.text);
    const codes: string[] = confirmed.body.recoveryCodes;
    assert.equal(codes.length, 10);
    assert.equal(new Set(codes).size, 10);
    for (const code of codes) assert.match(code, /^[a-z2-7]{5}-[a-z2-7]{5}$/);
    assert.deepEqual((await client.request('GET', '/app/v1/account/two-factor')).body, { enabled: true, recoveryCodesLeft: 10 });
    assert.deepEqual((await client.request('GET', '/app/v1/session')).body.twoFactor, { enabled: true, requiredBy: [] });
    const again = await client.request('POST', '/app/v1/account/two-factor/setup');
    assert.equal(again.status, 409);
    return { client, userId, password, secret, codes };
  }

  const signIn = (email: string, password: string, code?: string, address = '203.0.113.1') =>
    new AppClient(server).request('POST', '/app/v1/session', { email, password, ...(code === undefined ? {} : { code }) }, { 'x-forwarded-for': address });

  test('a right password asks for the code; a TOTP code signs in once; a recovery code once', async () => {
    const { password, secret, codes } = await enrolled('tf-ana@example.com');
    const asked = await signIn('tf-ana@example.com', password);
    assert.equal(asked.status, 202);
    assert.deepEqual(asked.body, { twoFactorRequired: true });
    assert.equal(asked.headers.get('set-cookie'), null);
    const wrongPassword = await signIn('tf-ana@example.com', 'not the password', totpCode(secret, clock.now()));
    assert.deepEqual(wrongPassword.body, { error: { code: 'UNAUTHORIZED', reason: 'WRONG_PASSWORD_UNAUTHORIZED', message: 'Wrong email or password.' } });

    // The confirmation used this step's code: it is refused at sign-in, as used rather than wrong.
    const reused = await signIn('tf-ana@example.com', password, totpCode(secret, clock.now()));
    assert.deepEqual(reused.body, { error: { code: 'UNAUTHORIZED', reason: 'CODE_USED_UNAUTHORIZED', message: 'This code was just used: wait for the next one.' } });
    clock.advance(30_000);
    const code = totpCode(secret, clock.now());
    const client = new AppClient(server);
    const first = await client.request('POST', '/app/v1/session', { email: 'tf-ana@example.com', password, code }, { 'x-forwarded-for': '203.0.113.1' });
    assert.equal(first.status, 200, first.text);
    assert.ok(client.cookie);
    assert.equal((await client.request('GET', '/app/v1/sites')).status, 200);
    const again = await signIn('tf-ana@example.com', password, code);
    assert.equal(again.body.error.reason, 'CODE_USED_UNAUTHORIZED', 'a code is accepted once within its window');

    const recovery = codes[3]!;
    assert.equal((await signIn('tf-ana@example.com', password, ` ${recovery.toUpperCase().replace('-', ' ')} `)).status, 200);
    assert.equal((await signIn('tf-ana@example.com', password, recovery)).status, 401, 'each recovery code once');
    const status = await client.request('GET', '/app/v1/account/two-factor');
    assert.deepEqual(status.body, { enabled: true, recoveryCodesLeft: 9 });
  });

  test('a phone clock 30 s behind signs in; 60 s behind is refused', async () => {
    const { password, secret } = await enrolled('tf-clock@example.com');
    clock.advance(60_000);
    assert.equal((await signIn('tf-clock@example.com', password, totpCode(secret, clock.now() - 60_000))).status, 401);
    assert.equal((await signIn('tf-clock@example.com', password, totpCode(secret, clock.now() - 30_000))).status, 200);
  });

  test('a code used a moment ago is refused by its own reason and never counts toward the lockout', async () => {
    const { password, secret } = await enrolled('tf-used@example.com');
    clock.advance(30_000);
    const code = totpCode(secret, clock.now());
    assert.equal((await signIn('tf-used@example.com', password, code, '198.51.100.200')).status, 200);
    for (let i = 0; i < 12; i++) {
      const res = await signIn('tf-used@example.com', password, code, `198.51.100.${201 + i}`);
      assert.equal(res.body.error.reason, 'CODE_USED_UNAUTHORIZED', `attempt ${i + 1}`);
    }
    clock.advance(30_000);
    const next = await signIn('tf-used@example.com', password, totpCode(secret, clock.now()), '198.51.100.250');
    assert.equal(next.status, 200, `twelve used codes locked nothing out: ${next.text}`);
  });

  test('wrong codes count toward the sign-in lockout', async () => {
    const { password, secret } = await enrolled('tf-lock@example.com');
    clock.advance(30_000);
    for (let i = 0; i < 10; i++) {
      const res = await signIn('tf-lock@example.com', password, String(100000 + i), `198.51.100.${i + 1}`);
      assert.equal(res.body.error.message, 'Wrong code.', `attempt ${i + 1}`);
    }
    const locked = await signIn('tf-lock@example.com', password, totpCode(secret, clock.now()), '198.51.100.99');
    assert.deepEqual(locked.body, { error: { code: 'RATE_LIMITED', reason: 'LOCKED_OUT_RATE_LIMITED', message: 'Too many failed attempts. Try again in 15 minutes.' } });
    clock.advance(15 * 60_000 + 1);
    assert.equal((await signIn('tf-lock@example.com', password, totpCode(secret, clock.now()), '198.51.100.99')).status, 200);
  });

  test('enabling asks for the current password: a stolen session cannot put its own authenticator on the account', async () => {
    const { client, password } = await signedInUser(server, 'tf-thief@example.com', [{ orgId, role: 'viewer' }]);
    const { secret } = (await client.request('POST', '/app/v1/account/two-factor/setup')).body;
    const code = totpCode(secret, clock.now());
    assert.equal((await client.request('POST', '/app/v1/account/two-factor/confirm', { code })).status, 400, 'no password');
    const wrong = await client.request('POST', '/app/v1/account/two-factor/confirm', { code, currentPassword: 'not the password' });
    assert.deepEqual(wrong.body, { error: { code: 'UNAUTHORIZED', reason: 'WRONG_CURRENT_PASSWORD_UNAUTHORIZED', message: 'The current password is wrong.' } });
    assert.deepEqual((await client.request('GET', '/app/v1/account/two-factor')).body, { enabled: false, recoveryCodesLeft: 0 });
    assert.equal((await signIn('tf-thief@example.com', password)).status, 200, 'the password alone still signs in');
    assert.equal((await client.request('POST', '/app/v1/account/two-factor/confirm', { code, currentPassword: password })).status, 200);
  });

  test('disabling asks for a current code; the operator resets it by user id', async () => {
    const { client, userId, password, secret } = await enrolled('tf-off@example.com');
    clock.advance(30_000);
    const badCode = await client.request('DELETE', '/app/v1/account/two-factor', { code: '000000' });
    assert.equal(badCode.status, 401);
    const noCode = await client.request('DELETE', '/app/v1/account/two-factor', {});
    assert.equal(noCode.body.error.code, 'INVALID_PARAMS');
    const off = await client.request('DELETE', '/app/v1/account/two-factor', { code: totpCode(secret, clock.now()) });
    assert.equal(off.status, 204, off.text);
    assert.equal((await signIn('tf-off@example.com', password)).status, 200, 'the password alone signs in again');

    const second = await enrolled('tf-reset@example.com');
    assert.equal((await signIn('tf-reset@example.com', second.password)).status, 202);
    assert.equal((await server.admin('DELETE', `/users/${second.userId}/2fa`)).status, 204);
    assert.equal((await signIn('tf-reset@example.com', second.password)).status, 200);
    const none = await server.admin('DELETE', `/users/${second.userId}/2fa`);
    assert.equal(none.status, 404);
    assert.equal((await server.admin('DELETE', `/users/${userId + 1000}/2fa`)).status, 404);
  });

  test('an owner requires two-factor sign-in of every member: until they enable it, members reach only their account', async () => {
    const site = await createSite(server);
    const owner = await signedInUser(server, 'tf-owner@example.com', [{ orgId: site.orgId, role: 'owner' }]);
    const member = await signedInUser(server, 'tf-member@example.com', [{ orgId: site.orgId, role: 'admin' }]);
    const path = `/app/v1/manage/orgs/${site.orgId}/two-factor`;
    assert.deepEqual((await owner.client.request('GET', path)).body, { orgId: site.orgId, required: false });
    const first = await owner.client.request('PUT', path, { required: true });
    assert.deepEqual(first.body, { error: { code: 'FORBIDDEN', reason: 'TWO_FACTOR_FIRST_FORBIDDEN', message: 'enable two-factor sign-in on your own account before requiring it of every member' } });
    assert.equal((await member.client.request('PUT', path, { required: true })).status, 403, 'owners only');
    assert.equal((await owner.client.request('PUT', path, { required: 'yes' })).status, 400);

    const setup = await owner.client.request('POST', '/app/v1/account/two-factor/setup');
    clock.advance(30_000);
    assert.equal((await owner.client.request('POST', '/app/v1/account/two-factor/confirm', { code: totpCode(setup.body.secret, clock.now()), currentPassword: owner.password })).status, 200);
    assert.deepEqual((await owner.client.request('PUT', path, { required: true })).body, { orgId: site.orgId, required: true });

    const refused = await member.client.request('GET', '/app/v1/sites');
    assert.equal(refused.status, 403);
    assert.equal(refused.body.error.message, 'an organisation of yours requires two-factor sign-in: enable it on /account/security to use the dashboard');
    assert.equal((await member.client.request('GET', `/app/v1/sites/${site.siteId}/stats?period=7d`)).status, 403);
    assert.deepEqual((await member.client.request('GET', '/app/v1/session')).body.twoFactor, { enabled: false, requiredBy: [site.orgId] });
    const setupMember = await member.client.request('POST', '/app/v1/account/two-factor/setup');
    assert.equal(setupMember.status, 200);
    assert.equal((await member.client.request('POST', '/app/v1/account/two-factor/confirm', { code: totpCode(setupMember.body.secret, clock.now()), currentPassword: member.password })).status, 200);
    assert.equal((await member.client.request('GET', '/app/v1/sites')).status, 200);
    assert.equal((await owner.client.request('GET', '/app/v1/sites')).status, 200);
    clock.advance(30_000);
    const keep = await member.client.request('DELETE', '/app/v1/account/two-factor', { code: totpCode(setupMember.body.secret, clock.now()) });
    assert.equal(keep.status, 409, 'it stays on while an organisation requires it');
    assert.match(keep.body.error.message, /requires two-factor sign-in of every member: it stays on while you are a member/);
    // The operator's admin API sets it too (no own account to check).
    assert.equal((await server.admin('PUT', `/orgs/${site.orgId}/two-factor`, { required: false })).status, 200);
    assert.deepEqual((await server.admin('GET', `/orgs/${site.orgId}/two-factor`)).body, { orgId: site.orgId, required: false });
  });
});

describe('self-service account changes', () => {
  const clock = new ManualClock(Date.UTC(2026, 5, 1, 12));
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ clock });
  });
  after(() => server.stop());

  test('changing the password asks for the current one and ends the other sessions', async () => {
    const site = await createSite(server);
    const { client, password } = await signedInUser(server, 'self-pw@example.com', [{ orgId: site.orgId, role: 'viewer' }]);
    const other = new AppClient(server);
    assert.equal((await other.signIn('self-pw@example.com', password)).status, 200);

    const wrong = await client.request('PUT', '/app/v1/account/password', { currentPassword: 'not it at all', newPassword: 'a brand new password' });
    assert.deepEqual(wrong.body, { error: { code: 'UNAUTHORIZED', reason: 'WRONG_CURRENT_PASSWORD_UNAUTHORIZED', message: 'The current password is wrong.' } });
    const short = await client.request('PUT', '/app/v1/account/password', { currentPassword: password, newPassword: 'short' });
    assert.equal(short.body.error.code, 'INVALID_PARAMS');
    const noCsrf = await client.request('PUT', '/app/v1/account/password', { currentPassword: password, newPassword: 'a brand new password' }, { 'x-csrf-token': 'x' });
    assert.equal(noCsrf.status, 403);

    const changed = await client.request('PUT', '/app/v1/account/password', { currentPassword: password, newPassword: 'a brand new password' });
    assert.equal(changed.status, 200, changed.text);
    assert.equal(changed.body.user.email, 'self-pw@example.com');
    assert.equal((await client.request('GET', '/app/v1/sites')).status, 200, 'this browser stays signed in with a new session');
    assert.equal((await other.request('GET', '/app/v1/sites')).status, 401, 'the other session ended');
    assert.equal((await new AppClient(server).signIn('self-pw@example.com', password)).status, 401);
    assert.equal((await new AppClient(server).signIn('self-pw@example.com', 'a brand new password')).status, 200);
  });

  test('wrong current passwords count toward the lockout', async () => {
    const { client } = await signedInUser(server, 'self-lock@example.com');
    for (let i = 0; i < 10; i++) {
      const res = await client.request('PUT', '/app/v1/account/password', { currentPassword: `wrong ${i} password`, newPassword: 'x long enough password' });
      assert.equal(res.status, 401, res.text);
    }
    const locked = await client.request('PUT', '/app/v1/account/password', { currentPassword: 'correct horse battery', newPassword: 'x long enough password' });
    assert.equal(locked.status, 429);
    clock.advance(15 * 60_000 + 1);
  });

  test('without mail, a user cannot change its own email: only the operator does (it ends the sessions, the email unconfirmed)', async () => {
    const { client, password, userId } = await signedInUser(server, 'self-mail@example.com');
    const refused = await client.request('PUT', '/app/v1/account/email', { currentPassword: password, email: 'Renamed@Example.com' });
    assert.equal(refused.status, 403);
    assert.equal(refused.body.error.reason, 'EMAIL_BY_OPERATOR_FORBIDDEN');
    assert.equal((await client.request('POST', '/app/v1/account/email/confirmation')).status, 403);
    const changed = await server.admin('PUT', `/users/${userId}/email`, { email: 'Renamed@Example.com' });
    assert.equal(changed.status, 200);
    assert.equal(changed.body.email, 'Renamed@Example.com');
    assert.equal((await client.request('GET', '/app/v1/session')).status, 401);
    const again = new AppClient(server);
    assert.equal((await again.signIn('renamed@example.com', password)).status, 200);
    assert.equal((await again.request('GET', '/app/v1/session')).body.user.emailConfirmed, false);
    await signedInUser(server, 'taken@example.com');
    assert.equal((await server.admin('PUT', `/users/${userId}/email`, { email: 'TAKEN@example.com' })).status, 409);
  });

  test("deleting one's account is refused while the last owner of an organisation", async () => {
    const site = await createSite(server);
    const owner = await signedInUser(server, 'self-owner@example.com', [{ orgId: site.orgId, role: 'owner' }]);
    const wrong = await owner.client.request('DELETE', '/app/v1/account', { currentPassword: 'not the password' });
    assert.equal(wrong.status, 401);
    const refused = await owner.client.request('DELETE', '/app/v1/account', { currentPassword: owner.password });
    assert.equal(refused.status, 409);
    assert.match(refused.body.error.message, /you are the last owner of /);
    const second = await signedInUser(server, 'self-owner2@example.com', [{ orgId: site.orgId, role: 'owner' }]);
    const deleted = await owner.client.request('DELETE', '/app/v1/account', { currentPassword: owner.password });
    assert.equal(deleted.status, 204, deleted.text);
    assert.match(deleted.headers.get('set-cookie')!, /^svc_session=;/);
    assert.equal((await owner.client.request('GET', '/app/v1/session')).status, 401);
    assert.equal((await new AppClient(server).signIn('self-owner@example.com', owner.password)).status, 401);
    const members = (await server.admin('GET', `/orgs/${site.orgId}/members`)).body.members;
    assert.deepEqual(members.map((m: { email: string }) => m.email), ['self-owner2@example.com']);
    assert.equal((await second.client.request('DELETE', '/app/v1/account', { currentPassword: second.password })).status, 409);
  });
});
