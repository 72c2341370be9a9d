// `Send a test report` on /account and in a site's `Reports` settings, in Chromium: the site's report of last week reaches the real SMTP
// server started here with the site's figures, the page says when it was sent and to whom, and an
// SMTP server that refuses the mail shows the error instead. The page stays axe-clean.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { lastCompletePeriod } from '../../src/digests/schedule.js';
import { BROWSER_UA, createSite, importEvents, type SiteFixture } from '../helpers/server.js';
import { startSmtp, type SmtpListener } from '../helpers/smtp.js';
import { freePort } from '../../support/ports.js';
import { checkPage, createUser, openPage, signIn, startDashboard, type Dashboard } from './harness.js';

describe('Send a test report', () => {
  let dashboard: Dashboard;
  let smtp: SmtpListener;
  let site: SiteFixture;
  before(async () => {
    smtp = await startSmtp();
    // The public URL is the server's own origin: the dashboard's requests are checked against it.
    const port = await freePort();
    dashboard = await startDashboard({ env: { PORT: String(port), SVC_SMTP_URL: smtp.url, SVC_PUBLIC_URL: `http://127.0.0.1:${port}` } });
    site = await createSite(dashboard.server, { domain: 'report-shop.example', timezone: 'UTC' });
    const { from } = lastCompletePeriod('weekly', Date.now(), 'UTC');
    const lines = [0, 1, 2, 3].map((i) => ({ ts: Date.parse(`${from}T10:00:00Z`) + i * 60_000, ua: BROWSER_UA, ip: `203.0.113.${i + 1}`, u: '/shoes', country: 'FR' }));
    assert.equal((await importEvents(dashboard.server, site.siteId, lines)).body.rejected, 0);
  });
  after(async () => {
    await dashboard?.close();
    await smtp?.close();
  });

  it("mails last week's report to the user and says when; a refused mail shows the error", async () => {
    const { server } = dashboard;
    await createUser(server, 'tester@example.com', [{ orgId: site.orgId, role: 'viewer' }]);
    const { context, page } = await openPage(dashboard);
    await signIn(page, server, 'tester@example.com', '/account');
    const group = page.getByRole('group', { name: /report-shop\.example/ });
    const button = group.getByRole('button', { name: /^Send a test report/ });
    await button.click();
    const { from, to } = lastCompletePeriod('weekly', Date.now(), 'UTC');
    await group.getByRole('status').getByText(`The report of ${from} to ${to} was sent to tester@example.com at`).waitFor();
    assert.equal(smtp.mails.length, 1);
    assert.deepEqual(smtp.mails[0]!.to, ['tester@example.com']);
    const mail = smtp.mails[0]!.data.replace(/=\r?\n/g, '');
    assert.ok(mail.includes('Visitors: 4 ('), 'the site\'s figures');
    assert.ok(mail.includes('  /shoes: 4 visitors'));
    assert.ok(mail.includes('  France: 4 visitors'));
    await checkPage(page, 'account-test-report-sent');
    assert.equal(await group.getByLabel('Weekly report').isChecked(), false, 'no subscription made');

    smtp.mode = 'refuse';
    await button.click();
    await group.getByText(/the SMTP server did not take the report: .*550/).waitFor();
    assert.equal(await group.getByRole('status').count(), 0, 'no sent notice beside the error');
    assert.equal(smtp.mails.length, 1);
    smtp.mode = 'accept';

    // The site's `Reports` settings send one too, to the admin who asks.
    await createUser(server, 'report-admin@example.com', [{ orgId: site.orgId, role: 'admin' }]);
    const admin = await openPage(dashboard);
    await signIn(admin.page, server, 'report-admin@example.com', `/sites/${site.siteId}/settings#reports`);
    await admin.page.getByText('Configured', { exact: true }).waitFor();
    await admin.page.getByRole('button', { name: /^Send a test report/ }).click();
    await admin.page.getByRole('status').getByText(`The report of ${from} to ${to} was sent to report-admin@example.com at`).waitFor();
    assert.deepEqual(smtp.mails.at(-1)!.to, ['report-admin@example.com']);
    await checkPage(admin.page, 'site-settings-test-report-sent');
    await admin.context.close();
    await context.close();
  });
});
