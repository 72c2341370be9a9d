// The server's error messages in the reader's language, in real Chromium: the dashboard sends its
// page's language as Accept-Language on every /app/v1 call (not the browser's: here the page is in
// German because this browser last used German, while the browser itself prefers British English),
// so a German reader's wrong password reads in German, and an English reader's in English.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import de from '../../src/core/messages/de/errors.js';
import { ERRORS } from '../../src/core/errors.js';
import { createUser, openPage, startDashboard, type Dashboard } from './harness.js';

let dashboard: Dashboard;
before(async () => {
  dashboard = await startDashboard();
  await createUser(dashboard.server, 'leser@example.com');
});
after(() => dashboard?.close());

/** Submits a wrong password on /login (by the fields' types: their labels are the page language's) and returns the alert's text and the language the request asked for. */
async function wrongPassword(page: Page): Promise<{ alert: string | null; asked: string | undefined }> {
  await page.goto(`${dashboard.server.url}/login`);
  await page.locator('input[type=email]').fill('leser@example.com');
  await page.locator('input[type=password]').fill('not the password');
  const request = page.waitForRequest((req) => req.url().endsWith('/app/v1/session') && req.method() === 'POST');
  await page.locator('button[type=submit]').click();
  const asked = (await request).headers()['accept-language'];
  const alert = page.getByRole('alert');
  await alert.waitFor();
  return { alert: await alert.textContent(), asked };
}

describe("the server's error messages in the page's language", () => {
  test('a German reader sees a wrong password refused in German, an English reader in English', async () => {
    const german = await openPage(dashboard);
    await german.context.addInitScript("localStorage.setItem('svc-language', 'de')");
    assert.deepEqual(await wrongPassword(german.page), { alert: de.UNAUTHORIZED.wrongPassword, asked: 'de' });
    assert.equal(await german.page.evaluate(() => document.documentElement.lang), 'de');
    await german.context.close();

    const english = await openPage(dashboard);
    assert.deepEqual(await wrongPassword(english.page), { alert: ERRORS.UNAUTHORIZED.messages.wrongPassword, asked: 'en-GB' });
    await english.context.close();
  });
});
