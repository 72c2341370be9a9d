// The attacks on single sign-on that issue 70 reproduced, each against a real provider
// (support/oidc-provider.ts): an account pre-hijacked by an invitation link or an unconfirmed email
// change, login CSRF, ID tokens signed wrongly, one network filling the flows, sign-in domains
// claimed by an owner; and the provider with the email claims in the ID token (its default, UserInfo,
// is single-sign-on.test.ts's), whose page messages name the real cause.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_SSO_FLOWS_PER_NETWORK } from '../../src/accounts/single-sign-on.js';
import { AppClient } from '../helpers/app-client.js';
import { agentsOf, confirmEmail, followLink, mailedLink, PASSWORD, setUp, type Setup } from '../helpers/single-sign-on.js';
import { SsoAgent } from '../helpers/sso-agent.js';

const membershipsOf = async (agent: SsoAgent) => (await agent.app('/session')).body.memberships.map((m: { orgName: string; role: string }) => `${m.orgName}:${m.role}`);

describe('single sign-on under attack (provider in its default configuration)', () => {
  let setup: Setup;
  before(async () => {
    setup = await setUp();
  });
  after(async () => {
    await setup.stop();
  });

  const agent = agentsOf(() => setup);

  test('pre-hijack by an invitation link: the account an owner made for a stranger\'s email is never handed to the stranger\'s single sign-on', async () => {
    const victimOrg = (await setup.svc.admin('POST', '/orgs', { name: 'Victim' })).body.id;
    const attackerOrg = (await setup.svc.admin('POST', '/orgs', { name: 'Attacker' })).body.id;
    // The attacker, owner of its organisation, invites the victim's email and makes its account from the link shown to it.
    const invitation = (await setup.svc.admin('POST', `/orgs/${attackerOrg}/invitations`, { email: 'vic@victim.example', role: 'viewer' })).body;
    const attacker = new AppClient(setup.svc);
    const made = await attacker.request('POST', `/app/v1/invitations/${invitation.url.split('/invitations/')[1]}/account`, { password: PASSWORD });
    assert.equal(made.status, 201, made.text);
    assert.equal(made.body.user.emailConfirmed, false);
    // The victim's organisation admits its domain; the real person signs in through the provider.
    await setup.svc.admin('PUT', `/orgs/${victimOrg}/sign-in`, { domains: ['victim.example'] });
    setup.provider.accounts.set('vic', { email: 'vic@victim.example', email_verified: true });
    const victim = agent();
    assert.equal(await victim.signIn('vic', '/x'), '/login?sso=unconfirmed&next=%2Fx');
    assert.equal(victim.svcCookie('svc_session'), undefined);
    const members = (await setup.svc.admin('GET', `/orgs/${victimOrg}/members`)).body.members;
    assert.deepEqual(members, [], 'the attacker\'s account joined nothing');
    assert.match(setup.warnings.at(-1) ?? '', /unconfirmed email/);
  });

  test('pre-hijack by an email change: the email changes only when the link mailed to it is followed', async () => {
    await setup.svc.admin('POST', '/users', { email: 'mallory@attacker.example', password: PASSWORD });
    const mallory = new AppClient(setup.svc);
    assert.equal((await mallory.signIn('mallory@attacker.example', PASSWORD)).status, 200);
    const changed = await mallory.request('PUT', '/app/v1/account/email', { currentPassword: PASSWORD, email: 'ceo@target.example' });
    assert.equal(changed.status, 202, changed.text);
    assert.deepEqual(changed.body, { pendingEmail: 'ceo@target.example' });
    assert.equal((await mallory.request('GET', '/app/v1/session')).body.user.email, 'mallory@attacker.example', 'nothing changed yet');
    setup.provider.accounts.set('ceo', { email: 'ceo@target.example', email_verified: true });
    assert.equal(await agent().signIn('ceo'), '/login?sso=noAccount', 'the email is nobody\'s');

    // Whoever reads the new address's mail follows the link: the email changes, confirmed, and the sessions end.
    const link = mailedLink(setup.smtp, 'ceo@target.example');
    assert.equal((await fetch(link)).status, 200, 'the link\'s page only asks');
    assert.equal((await mallory.request('GET', '/app/v1/session')).status, 200, 'a GET confirms nothing');
    const followed = await followLink(link);
    assert.equal(followed.status, 200);
    assert.match(followed.text, /now ceo@target\.example/);
    assert.equal((await mallory.request('GET', '/app/v1/session')).status, 401);
    assert.equal((await followLink(link)).status, 404, 'used once');
    assert.equal(await agent().signIn('ceo'), '/');
  });

  test('an email confirmed by the mailed link lets single sign-on in; a confirmation mail is bounded per user', async () => {
    await setup.svc.admin('POST', '/users', { email: 'uma@confirm.example', password: PASSWORD });
    setup.provider.accounts.set('uma', { email: 'uma@confirm.example', email_verified: true });
    assert.equal(await agent().signIn('uma'), '/login?sso=unconfirmed');
    await confirmEmail(setup, 'uma@confirm.example');
    const uma = agent();
    assert.equal(await uma.signIn('uma'), '/');
    assert.equal((await uma.app('/session')).body.user.emailConfirmed, true);
    const client = new AppClient(setup.svc);
    await client.signIn('uma@confirm.example', PASSWORD);
    const statuses = [];
    for (let n = 0; n < 5; n++) statuses.push((await client.request('POST', '/app/v1/account/email/confirmation')).status);
    assert.deepEqual(statuses, [202, 202, 202, 202, 429], 'five mails an hour, the first one included');
  });

  test('login CSRF: a callback of a flow another browser started signs nobody in', async () => {
    setup.provider.accounts.set('eve', { email: 'eve@evil.example', email_verified: true });
    const org = (await setup.svc.admin('POST', '/orgs', { name: 'Evil' })).body.id;
    await setup.svc.admin('POST', `/orgs/${org}/invitations`, { email: 'eve@evil.example', role: 'viewer' });
    const eve = agent();
    const callback = await eve.atProvider(await eve.start(), 'eve');
    const victim = agent();
    assert.equal(await victim.callback(callback), '/login?sso=browser');
    assert.equal(victim.svcCookie('svc_session'), undefined);
    assert.match(setup.warnings.at(-1) ?? '', /did not start its flow/);
    // The flow cookie is HttpOnly, SameSite=Lax and on the flow's paths only.
    const answer = await fetch(`${setup.svc.url}/login/oidc/start`, { redirect: 'manual', headers: { 'x-forwarded-for': '203.0.113.251' } });
    assert.match(answer.headers.get('set-cookie') ?? '', /^svc_sso_flow=[\w-]{43}; Path=\/login\/oidc; HttpOnly; SameSite=Lax; Max-Age=600$/);
  });

  test('ID tokens signed wrongly are refused: alg none, HS256 with the client secret, RS256 by a key outside the JWKS, iat a day ahead', async () => {
    setup.provider.accounts.set('ana', { email: 'ana@signed.example', email_verified: true });
    const org = (await setup.svc.admin('POST', '/orgs', { name: 'Signed' })).body.id;
    await setup.svc.admin('PUT', `/orgs/${org}/sign-in`, { domains: ['signed.example'] });
    const reasons: Record<string, RegExp> = { none: /alg/, hs256: /alg/, foreignKey: /signature|key/i, iatAhead: /iat/ };
    try {
      for (const wrong of ['none', 'hs256', 'foreignKey', 'iatAhead'] as const) {
        setup.provider.wrongSignature = wrong;
        const browser = agent();
        assert.equal(await browser.signIn('ana'), '/login?sso=check', wrong);
        assert.equal(browser.svcCookie('svc_session'), undefined, wrong);
        assert.match(setup.warnings.at(-1) ?? '', reasons[wrong]!, wrong);
      }
    } finally {
      setup.provider.wrongSignature = undefined;
    }
    assert.equal(await agent().signIn('ana'), '/', 'signed rightly, the same account signs in');
  });

  test(`one network holds at most ${MAX_SSO_FLOWS_PER_NETWORK} flows: its addresses fill their share, another network still starts`, async () => {
    const perAddress = 20; // the sign-in rate limit of one client a minute
    setup.clock.set(Date.now());
    let started = 0;
    for (let address = 1; started < MAX_SSO_FLOWS_PER_NETWORK; address++) {
      const browser = new SsoAgent(setup.svc.url, `198.51.100.${address}`);
      for (let n = 0; n < perAddress && started < MAX_SSO_FLOWS_PER_NETWORK; n++, started++) {
        assert.ok((await browser.start()).startsWith(setup.provider.issuer), `start ${started}`);
      }
    }
    const refused = new URL(await new SsoAgent(setup.svc.url, '198.51.100.250').start());
    assert.equal(refused.pathname + refused.search, '/login?sso=busy');
    assert.match(setup.warnings.at(-1) ?? '', /198\.51\.100\.0\/24/);
    assert.ok((await new SsoAgent(setup.svc.url, '192.0.2.7').start()).startsWith(setup.provider.issuer), 'another /24');
    assert.ok((await new SsoAgent(setup.svc.url, '2001:db8:5::1').start()).startsWith(setup.provider.issuer), 'an IPv6 /64');
  });

  test('sign-in domains are the operator\'s: an owner sees them and sets Require single sign-on, but cannot change them', async () => {
    const org = (await setup.svc.admin('POST', '/orgs', { name: 'Claims' })).body.id;
    await setup.svc.admin('POST', '/users', { email: 'olive@claims.example', password: PASSWORD }).then((user) => setup.svc.admin('PUT', `/orgs/${org}/members/${user.body.id}`, { role: 'owner' }));
    await setup.svc.admin('PUT', `/orgs/${org}/sign-in`, { domains: ['claims.example'] });
    const owner = new AppClient(setup.svc);
    assert.equal((await owner.signIn('olive@claims.example', PASSWORD)).status, 200);
    const claimed = await owner.request('PUT', `/app/v1/manage/orgs/${org}/sign-in`, { domains: ['claims.example', 'gmail.com'], requireSingleSignOn: false });
    assert.equal(claimed.status, 403);
    assert.equal(claimed.body.error.reason, 'SIGN_IN_DOMAINS_FORBIDDEN');
    const same = await owner.request('PUT', `/app/v1/manage/orgs/${org}/sign-in`, { domains: ['claims.example'], requireSingleSignOn: false });
    assert.equal(same.status, 200, 'the list it was shown goes back unchanged');
    const seen = await owner.request('GET', `/app/v1/manage/orgs/${org}/sign-in`);
    assert.deepEqual(seen.body.domains, ['claims.example']);
    setup.provider.accounts.set('gina', { email: 'gina@gmail.com', email_verified: true });
    assert.equal(await agent().signIn('gina'), '/login?sso=noAccount');
  });

  test('a provider account without an email claim is told so', async () => {
    setup.provider.accounts.set('nomail', {});
    assert.equal(await agent().signIn('nomail'), '/login?sso=noEmail');
    setup.provider.accounts.set('unverified', { email: 'u@signed.example', email_verified: false });
    assert.equal(await agent().signIn('unverified'), '/login?sso=unverified');
  });
});

describe('single sign-on with the email claims in the ID token', () => {
  let setup: Setup;
  before(async () => {
    setup = await setUp({ claimsInIdToken: true });
  });
  after(async () => {
    await setup.stop();
  });

  test('an invited email signs in from the ID token\'s claims; an unverified one and a missing one are told apart', async () => {
    const org = (await setup.svc.admin('POST', '/orgs', { name: 'Token' })).body.id;
    await setup.svc.admin('POST', `/orgs/${org}/invitations`, { email: 'tia@token.example', role: 'admin' });
    setup.provider.accounts.set('tia', { email: 'tia@token.example', email_verified: true });
    setup.provider.accounts.set('unverified', { email: 'tia@token.example', email_verified: false });
    setup.provider.accounts.set('nomail', {});
    const tia = new SsoAgent(setup.svc.url, '203.0.113.1');
    assert.equal(await tia.signIn('tia'), '/');
    assert.deepEqual(await membershipsOf(tia), ['Token:admin']);
    assert.equal(await new SsoAgent(setup.svc.url, '203.0.113.2').signIn('unverified'), '/login?sso=unverified');
    assert.equal(await new SsoAgent(setup.svc.url, '203.0.113.3').signIn('nomail'), '/login?sso=noEmail');
  });
});
