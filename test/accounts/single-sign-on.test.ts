// Single sign-on against a real OpenID Connect provider (support/oidc-provider.ts) in its default
// configuration (email claims from UserInfo), at the HTTP level: who gets in (an existing user whose
// email a mailed link confirmed, an invited email, a sign-in domain; not an unknown or unverified
// email), the flow's checks (state used once, nonce, the ID token's expiry, keys rotated at the
// provider), `next` kept, `Require single sign-on` and a provider down at start. The attacks of
// single-sign-on-attacks.test.ts have their own file.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestProvider } from '../../support/oidc-provider.js';
import { SsoAgent } from '../helpers/sso-agent.js';
import { AppClient } from '../helpers/app-client.js';
import { agentsOf, confirmEmail, PASSWORD, setUp, type Setup } from '../helpers/single-sign-on.js';

/** An organisation and its owner, whose email it confirmed by the mailed link. */
async function orgWithOwner(setup: Setup, name: string, email: string): Promise<{ orgId: number; userId: number }> {
  const org = await setup.svc.admin('POST', '/orgs', { name });
  const user = await setup.svc.admin('POST', '/users', { email, password: PASSWORD });
  await setup.svc.admin('PUT', `/orgs/${org.body.id}/members/${user.body.id}`, { role: 'owner' });
  await confirmEmail(setup, email);
  return { orgId: org.body.id, userId: user.body.id };
}

const membershipsOf = async (agent: SsoAgent) => (await agent.app('/session')).body.memberships.map((m: { orgName: string; role: string }) => `${m.orgName}:${m.role}`);

describe('single sign-on through a real provider in its default configuration (claims from UserInfo)', () => {
  let setup: Setup;
  before(async () => {
    setup = await setUp({ idTokenTtlS: 60 });
  });
  after(async () => {
    await setup.stop();
  });

  const agent = agentsOf(() => setup);

  test('an existing user signs in as itself, lands on next, and reads its session', async () => {
    const { orgId } = await orgWithOwner(setup, 'Existing', 'ana@existing.example');
    setup.provider.accounts.set('ana', { email: 'ANA@existing.example', email_verified: true });
    const browser = agent();
    assert.equal(await browser.signIn('ana', `/orgs/${orgId}/settings?tab=keys`), `/orgs/${orgId}/settings?tab=keys`);
    const session = await browser.app('/session');
    assert.equal(session.status, 200);
    assert.equal(session.body.user.email, 'ana@existing.example');
    assert.deepEqual(await membershipsOf(browser), ['Existing:owner']);
    assert.deepEqual((await setup.svc.admin('GET', '/users')).body.users.filter((u: { email: string }) => /ana@/i.test(u.email)).length, 1, 'no second account');
  });

  test('next is kept only as a same-origin path', async () => {
    setup.provider.accounts.set('ana2', { email: 'ana@existing.example', email_verified: true });
    for (const [next, landing] of [
      ['//evil.example/x', '/'],
      ['https://evil.example/', '/'],
      ['/sites/abc?period=7d', '/sites/abc?period=7d'],
    ] as const) {
      assert.equal(await agent().signIn('ana2', next), landing, next);
    }
  });

  test('the first sign-in of an invited email makes its account with the invited role', async () => {
    const { orgId } = await orgWithOwner(setup, 'Inviting', 'owner@inviting.example');
    const invited = await setup.svc.admin('POST', `/orgs/${orgId}/invitations`, { email: 'Newcomer@elsewhere.example', role: 'admin' });
    assert.equal(invited.status, 201);
    setup.provider.accounts.set('newcomer', { email: 'newcomer@elsewhere.example', email_verified: true });
    const browser = agent();
    assert.equal(await browser.signIn('newcomer'), '/');
    assert.deepEqual(await membershipsOf(browser), ['Inviting:admin']);
    assert.deepEqual((await setup.svc.admin('GET', `/orgs/${orgId}/invitations`)).body.invitations, [], 'the invitation is used');
  });

  test('an unknown email of a sign-in domain joins as viewer; one of no domain is refused', async () => {
    const { orgId } = await orgWithOwner(setup, 'Domain Org', 'owner@corp.example');
    const put = await setup.svc.admin('PUT', `/orgs/${orgId}/sign-in`, { domains: ['Corp.example'], requireSingleSignOn: false });
    assert.deepEqual(put.body, { orgId, requireSingleSignOn: false, domains: ['corp.example'], singleSignOnConfigured: true });
    setup.provider.accounts.set('dana', { email: 'dana@corp.example', email_verified: true });
    setup.provider.accounts.set('stranger', { email: 'stranger@nowhere.example', email_verified: true });
    const dana = agent();
    assert.equal(await dana.signIn('dana'), '/');
    assert.deepEqual(await membershipsOf(dana), ['Domain Org:viewer']);
    const stranger = agent();
    assert.equal(await stranger.signIn('stranger', '/sites/x'), '/login?sso=noAccount&next=%2Fsites%2Fx');
    assert.equal(stranger.svcCookie('svc_session'), undefined);
    assert.equal((await setup.svc.admin('GET', '/users')).body.users.some((u: { email: string }) => u.email === 'stranger@nowhere.example'), false);
  });

  test('an unverified email is refused, even of a known user', async () => {
    setup.provider.accounts.set('unverified', { email: 'ana@existing.example', email_verified: false });
    const browser = agent();
    assert.equal(await browser.signIn('unverified'), '/login?sso=unverified');
    assert.equal(browser.svcCookie('svc_session'), undefined);
  });

  test('a state is used once: the replayed callback lands on /login', async () => {
    setup.provider.accounts.set('ana3', { email: 'ana@existing.example', email_verified: true });
    const browser = agent();
    const callback = await browser.atProvider(await browser.start('/x'), 'ana3');
    assert.equal(await browser.callback(callback), '/x');
    assert.equal(await new SsoAgent(setup.svc.url).callback(callback), '/login?sso=state');
    assert.equal(await new SsoAgent(setup.svc.url).callback(`${setup.svc.url}/login/oidc/callback?code=abc&state=${'s'.repeat(43)}`), '/login?sso=state', 'a state never issued');
    assert.equal(await new SsoAgent(setup.svc.url).callback(`${setup.svc.url}/login/oidc/callback`), '/login?sso=state', 'no state');
  });

  test('an ID token of another nonce is refused', async () => {
    setup.provider.accounts.set('ana4', { email: 'ana@existing.example', email_verified: true });
    const browser = agent();
    const authorization = new URL(await browser.start());
    authorization.searchParams.set('nonce', 'a-nonce-this-flow-never-had');
    assert.equal(await browser.callback(await browser.atProvider(authorization.href, 'ana4')), '/login?sso=check');
    assert.equal(browser.svcCookie('svc_session'), undefined);
    assert.match(setup.warnings.at(-1) ?? '', /nonce/);
  });

  test('an expired ID token is refused (svc\'s clock is past its exp)', async () => {
    setup.provider.accounts.set('ana5', { email: 'ana@existing.example', email_verified: true });
    const browser = agent();
    const callback = await browser.atProvider(await browser.start(), 'ana5');
    setup.clock.advance(5 * 60_000); // the token's 60 s and the 30 s tolerance are over, the flow's 10 minutes not
    assert.equal(await browser.callback(callback), '/login?sso=check');
    assert.match(setup.warnings.at(-1) ?? '', /exp|timestamp/i);
  });

  test('a flow is valid 10 minutes', async () => {
    setup.provider.accounts.set('ana6', { email: 'ana@existing.example', email_verified: true });
    const browser = agent();
    const callback = await browser.atProvider(await browser.start(), 'ana6');
    setup.clock.advance(10 * 60_000);
    assert.equal(await browser.callback(callback), '/login?sso=state');
  });

  test('the provider refusing (denied consent) lands on /login with its reason', async () => {
    const browser = agent();
    const state = new URL(await browser.start('/y')).searchParams.get('state')!;
    assert.equal(await browser.callback(`${setup.svc.url}/login/oidc/callback?error=access_denied&state=${state}`), '/login?sso=denied&next=%2Fy');
  });

  test('a client that starts too many flows is told to wait', async () => {
    const browser = agent();
    const starts = [];
    for (let n = 0; n < 21; n++) starts.push(await browser.start());
    assert.ok(starts.slice(0, 20).every((location) => location.startsWith(setup.provider.issuer)));
    assert.equal(new URL(starts[20]!).pathname + new URL(starts[20]!).search, '/login?sso=busy');
  });

  test('keys rotated at the provider: the next sign-in is checked with the new key by its kid', async () => {
    setup.provider.accounts.set('ana7', { email: 'ana@existing.example', email_verified: true });
    assert.equal(await agent().signIn('ana7'), '/');
    const { accounts, kid } = setup.provider;
    await setup.provider.stop();
    setup.provider = await startTestProvider(setup.addresses.provider, accounts);
    assert.notEqual(setup.provider.kid, kid);
    const browser = agent();
    assert.equal(await browser.signIn('ana7'), '/');
    assert.equal((await browser.app('/session')).status, 200);
  });

  test('Require single sign-on: a member\'s password no longer signs in, single sign-on does, without two-factor sign-in; the operator still manages the user', async () => {
    const { orgId, userId } = await orgWithOwner(setup, 'Strict', 'sam@strict.example');
    const password = () => fetch(`${setup.svc.url}/app/v1/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'sam@strict.example', password: PASSWORD }) });
    assert.equal((await password()).status, 200);
    const kept = new AppClient(setup.svc);
    assert.equal((await kept.signIn('sam@strict.example', PASSWORD)).status, 200);
    assert.equal((await kept.request('GET', '/app/v1/sites')).status, 200);
    assert.equal((await setup.svc.admin('PUT', `/orgs/${orgId}/sign-in`, { requireSingleSignOn: true })).status, 200);
    assert.equal((await kept.request('GET', '/app/v1/sites')).status, 401, 'the session opened with a password ends at its next request');
    assert.equal((await kept.request('GET', '/app/v1/session')).status, 401);
    assert.equal((await setup.svc.admin('PUT', `/orgs/${orgId}/two-factor`, { required: true })).status, 200);
    const refused = await password();
    assert.equal(refused.status, 403);
    const body = await refused.json();
    assert.equal(body.error.reason, 'SINGLE_SIGN_ON_REQUIRED_FORBIDDEN');
    assert.match(body.error.message, /single sign-on.*Strict|Strict.*single sign-on/i);
    const wrong = await fetch(`${setup.svc.url}/app/v1/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'sam@strict.example', password: 'wrong password!' }) });
    assert.equal(wrong.status, 401, 'a wrong password still says only that');

    setup.provider.accounts.set('sam', { email: 'sam@strict.example', email_verified: true });
    const browser = agent();
    assert.equal(await browser.signIn('sam'), '/');
    const session = await browser.app('/session');
    assert.deepEqual(session.body.twoFactor.requiredBy, [], 'no two-factor sign-in asked after single sign-on');
    assert.equal((await browser.app('/sites')).status, 200);

    // An invitation to it makes no password account: the invited email signs in through the provider.
    const invitation = (await setup.svc.admin('POST', `/orgs/${orgId}/invitations`, { email: 'ivy@strict.example', role: 'viewer' })).body;
    const token = invitation.url.split('/invitations/')[1];
    const withPassword = await fetch(`${setup.svc.url}/app/v1/invitations/${token}/account`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ password: PASSWORD }) });
    assert.equal(withPassword.status, 403);
    assert.equal((await withPassword.json()).error.reason, 'SINGLE_SIGN_ON_REQUIRED_FORBIDDEN');
    setup.provider.accounts.set('ivy', { email: 'ivy@strict.example', email_verified: true });
    const ivy = agent();
    assert.equal(await ivy.signIn('ivy'), '/');
    assert.deepEqual(await membershipsOf(ivy), ['Strict:viewer']);

    assert.equal((await setup.svc.admin('PUT', `/users/${userId}/password`, { password: 'another long password' })).status, 204);
    assert.equal((await setup.svc.admin('GET', '/users')).status, 200);
  });
});

describe('single sign-on with the provider down at start', () => {
  test('logged; password sign-in works; the next start reads the provider once it is up', async () => {
    const setup = await setUp({ providerDown: true });
    try {
      await new Promise((resolve) => setTimeout(resolve, 200));
      assert.ok(setup.warnings.some((line) => /configuration .* could not be read/.test(line)), setup.warnings.join('\n'));
      await setup.svc.admin('POST', '/users', { email: 'pat@down.example', password: PASSWORD });
      await confirmEmail(setup, 'pat@down.example');
      const password = await fetch(`${setup.svc.url}/app/v1/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'pat@down.example', password: PASSWORD }) });
      assert.equal(password.status, 200);
      const browser = new SsoAgent(setup.svc.url);
      assert.equal(new URL(await browser.start()).search, '?sso=provider');

      const provider = await startTestProvider(setup.addresses.provider, setup.provider.accounts);
      try {
        provider.accounts.set('pat', { email: 'pat@down.example', email_verified: true });
        assert.equal(await browser.signIn('pat'), '/');
      } finally {
        await provider.stop();
      }
    } finally {
      await setup.stop();
    }
  });
});
