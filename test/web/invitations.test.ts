// Invitations in the browser, with the names on screen: an owner invites from the organisation's
// settings and sees the link once with `Copy`; a signed-out invitee opens it, creates the account of
// the invited email and accepts; a signed-in existing user accepts; another email is told why not.
// Each view is axe-clean at desktop and phone width, light and dark.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createSite, type SiteFixture } from '../helpers/server.js';
import { checkPage, createUser, LOOKS, openPage, PASSWORD, signIn, startDashboard, type Dashboard } from './harness.js';

describe('invitations in the browser', () => {
  let dashboard: Dashboard;
  let site: SiteFixture;
  before(async () => {
    dashboard = await startDashboard();
    site = await createSite(dashboard.server, { domain: 'invited-shop.example' });
    await createUser(dashboard.server, 'owner@example.com', [{ orgId: site.orgId, role: 'owner' }]);
  });
  after(() => dashboard?.close());

  const inviteByApi = async (email: string, role = 'viewer'): Promise<string> => {
    const res = await dashboard.server.admin('POST', `/orgs/${site.orgId}/invitations`, { email, role });
    assert.equal(res.status, 201);
    return new URL(res.body.url).pathname;
  };

  it('owner invites, the link is shown once; a signed-out invitee creates the account and accepts', async () => {
    const { server } = dashboard;
    const owner = await openPage(dashboard);
    await signIn(owner.page, server, 'owner@example.com', `/orgs/${site.orgId}/settings`);
    await owner.page.getByRole('heading', { name: 'Invite member' }).waitFor();
    await owner.page.getByLabel('Email', { exact: true }).fill('new.person@example.com');
    await owner.page.getByLabel('Role', { exact: true }).selectOption('admin');
    await owner.page.getByRole('button', { name: 'Send invitation' }).click();
    const shown = owner.page.getByRole('region', { name: 'Invitation link' });
    await shown.waitFor();
    const url = String(await shown.locator('code').textContent()).trim();
    assert.match(url, new RegExp(`^${server.url}/invitations/[\\w-]{43}$`));
    await shown.getByRole('button', { name: 'Copy' }).waitFor();
    await owner.page.getByRole('cell', { name: 'new.person@example.com', exact: true }).waitFor();
    await checkPage(owner.page, 'org-settings-invitation-shown');
    await owner.page.reload();
    await owner.page.getByRole('button', { name: 'Revoke the invitation of new.person@example.com' }).waitFor();
    assert.equal(await owner.page.getByRole('region', { name: 'Invitation link' }).count(), 0);
    assert.equal((await owner.page.content()).includes(url), false, 'the link is not shown again');

    const invitee = await openPage(dashboard);
    await invitee.page.goto(url);
    await invitee.page.getByRole('button', { name: 'Create account' }).waitFor();
    await invitee.page.getByRole('link', { name: 'Sign in' }).waitFor();
    const email = invitee.page.getByLabel('Email');
    assert.equal(await email.inputValue(), 'new.person@example.com');
    assert.equal(await email.isEditable(), false, 'the invited email is fixed');
    await invitee.page.getByLabel('Password').fill(PASSWORD);
    await invitee.page.getByRole('button', { name: 'Create account' }).click();
    await invitee.page.getByRole('button', { name: 'Accept invitation' }).waitFor();
    // Not a member until accepted.
    assert.deepEqual((await server.admin('GET', `/orgs/${site.orgId}/members`)).body.members.map((m: { email: string }) => m.email), ['owner@example.com']);
    await invitee.page.getByRole('button', { name: 'Accept invitation' }).click();
    await invitee.page.waitForURL(`${server.url}/`);
    await invitee.page.getByRole('cell', { name: 'invited-shop.example', exact: true }).waitFor();
    const members = (await server.admin('GET', `/orgs/${site.orgId}/members`)).body.members;
    assert.ok(members.some((m: { email: string; role: string }) => m.email === 'new.person@example.com' && m.role === 'admin'));
    await owner.context.close();
    await invitee.context.close();
  });

  it('an existing user signs in from the link and accepts', async () => {
    const { server } = dashboard;
    await createUser(server, 'existing@example.com');
    const path = await inviteByApi('existing@example.com');
    const { context, page } = await openPage(dashboard);
    await page.goto(server.url + path);
    await page.getByRole('link', { name: 'Sign in' }).click();
    await page.getByLabel('Email').fill('existing@example.com');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(server.url + path);
    await page.getByText(/You are invited to join Org \d+ as viewer/).waitFor();
    await page.getByRole('button', { name: 'Accept invitation' }).click();
    await page.getByRole('cell', { name: 'invited-shop.example', exact: true }).waitFor();
    await context.close();
  });

  it('another signed-in email is told the invitation is not theirs; a dead link says why', async () => {
    const { server } = dashboard;
    await createUser(server, 'someone.else@example.com');
    const path = await inviteByApi('right.person@example.com');
    const { context, page } = await openPage(dashboard);
    await signIn(page, server, 'someone.else@example.com', path);
    await page.getByRole('alert').filter({ hasText: 'This invitation is for right.person@example.com' }).waitFor();
    assert.equal(await page.getByRole('button', { name: 'Accept invitation' }).count(), 0);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'Create account' }).waitFor();

    const invitations = (await server.admin('GET', `/orgs/${site.orgId}/invitations`)).body.invitations as Array<{ invitationId: number; email: string }>;
    const revoked = invitations.find((i) => i.email === 'right.person@example.com')!;
    assert.equal((await server.admin('DELETE', `/orgs/${site.orgId}/invitations/${revoked.invitationId}`)).status, 204);
    await page.reload();
    await page.getByRole('alert').filter({ hasText: 'this invitation link is not valid' }).waitFor();
    await context.close();
  });

  it('the invitation page is axe-clean signed out and signed in, at every look', async () => {
    const { server } = dashboard;
    await createUser(server, 'looker@example.com');
    const path = await inviteByApi('looker@example.com', 'admin');
    for (const look of LOOKS) {
      const { context, page } = await openPage(dashboard, look.viewport);
      await page.emulateMedia({ colorScheme: look.colorScheme });
      await page.goto(server.url + path);
      await page.getByRole('button', { name: 'Create account' }).waitFor();
      await checkPage(page, `invitation-signed-out-${look.name}`);
      await signIn(page, server, 'looker@example.com', path);
      await page.getByRole('button', { name: 'Accept invitation' }).waitFor();
      await checkPage(page, `invitation-signed-in-${look.name}`);
      await context.close();
    }
  });
});
