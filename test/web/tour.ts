// A tour of the dashboard with data in every view, for the checks that must hold on each of them in
// every language (issue 75): the catalogue walker (walker.test.ts) and the layout and axe-core checks
// (every-language.test.ts). One fixture (a site with days of visits, goals, a funnel, an empty site, a
// shared link, an invitation) and the views and dialogs, each opened and settled by selectors that do
// not depend on the page's language.
import assert from 'node:assert/strict';
import type { BrowserContext, Page } from 'playwright-core';
import { BROWSER_UA, createSite, importEvents, type SiteFixture, type TestServer } from '../helpers/server.js';
import { createUser, filled, openPage, PASSWORD, type Dashboard } from './harness.js';

const DAY = 86_400_000;

/** The languages a page is written in, and the browser locale each tour reads it in. */
export const TOUR_LOCALES = { en: 'en-GB', de: 'de-DE', fr: 'fr-FR', es: 'es-ES' } as const;
export type TourLanguage = keyof typeof TOUR_LOCALES;
export const TOUR_LANGUAGES = Object.keys(TOUR_LOCALES) as TourLanguage[];

export const OWNER = 'tour-owner@example.com';
export const INVITEE = 'tour-invitee@example.com';

export interface TourFixture {
  site: SiteFixture;
  emptySiteId: string;
  funnelId: number;
  shareUrl: string;
  invitationUrl: string;
  /** The names the fixture gave (site, goals, funnel, people): API data wherever they show. */
  names: string[];
}

const GOALS = [
  { name: 'Signup', kind: 'event', pattern: 'signup' },
  { name: 'Saw pricing', kind: 'page', pattern: '/pricing' },
];
const FUNNEL = { name: 'Pricing to signup', windowMinutes: 60, steps: [{ kind: 'page', pattern: '/pricing' }, { kind: 'event', pattern: 'signup' }] };

/**
 * Visits on each of the last six days (two pages each, some signing up, from three countries and two
 * referrers, one with UTM tags) and two in the last minutes, for realtime.
 */
function events(now: number): Array<Record<string, unknown>> {
  const today = Math.floor(now / DAY) * DAY;
  const lines: Array<Record<string, unknown>> = [];
  const countries = ['DE', 'FR', 'ES', 'US'];
  for (let day = 1; day <= 6; day++) {
    for (let n = 0; n < 3; n++) {
      const ts = today - day * DAY + (9 + n) * 3_600_000;
      const visit = { ip: `10.20.${day}.${n}`, ua: BROWSER_UA, country: countries[(day + n) % countries.length] };
      const from = n === 0 ? { r: 'https://www.google.com/' } : n === 1 ? { u: '/?utm_source=newsletter&utm_medium=email' } : {};
      lines.push({ ...visit, ts, u: '/', ...from });
      lines.push({ ...visit, ts: ts + 60_000, u: '/pricing' });
      if (n === 1) lines.push({ ...visit, ts: ts + 120_000, u: '/pricing', e: 'signup' });
    }
  }
  lines.push({ ip: '10.21.0.1', ua: BROWSER_UA, country: 'DE', ts: now - 3 * 60_000, u: '/live' });
  lines.push({ ip: '10.21.0.2', ua: BROWSER_UA, country: 'FR', ts: now - 60_000, u: '/' });
  return lines;
}

/** The tour's data, and its owner's account (made after the set-up page, which shows only while no account exists). */
export async function tourFixture(server: TestServer): Promise<TourFixture> {
  const site = await createSite(server, { domain: 'tour-shop.example' });
  for (const goal of GOALS) assert.equal((await server.admin('POST', `/sites/${site.siteId}/goals`, goal)).status, 201);
  const funnel = await server.admin('POST', `/sites/${site.siteId}/funnels`, FUNNEL);
  assert.equal(funnel.status, 201, JSON.stringify(funnel.body));
  const lines = events(Date.now());
  assert.equal((await importEvents(server, site.siteId, lines)).body.accepted, lines.length);
  await server.flush();
  await server.admin('POST', '/maintenance/run', { tasks: ['rollup'] });
  const empty = await server.admin('POST', `/orgs/${site.orgId}/sites`, { domain: 'tour-empty.example', name: 'Empty shop', timezone: 'UTC' });
  assert.equal(empty.status, 201, JSON.stringify(empty.body));
  const shared = await server.admin('POST', `/sites/${site.siteId}/shared-links`, {});
  assert.equal(shared.status, 201, JSON.stringify(shared.body));
  const invitation = await server.admin('POST', `/orgs/${site.orgId}/invitations`, { email: INVITEE, role: 'viewer' });
  assert.equal(invitation.status, 201, JSON.stringify(invitation.body));
  return {
    site,
    emptySiteId: empty.body.id,
    funnelId: funnel.body.id,
    shareUrl: shared.body.url,
    invitationUrl: invitation.body.url,
    names: [site.domain, 'tour-empty.example', 'Empty shop', ...GOALS.map((g) => g.name), FUNNEL.name, OWNER, INVITEE, OWNER.split('@')[0]!],
  };
}

/** The owner's account: once the set-up page has been seen. */
export async function addOwner(server: TestServer, fixture: TourFixture): Promise<void> {
  await createUser(server, OWNER, [{ orgId: fixture.site.orgId, role: 'owner' }]);
}

/** Waits until nothing on the page loads any more: no request under way, no part marked loading. */
export async function settle(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle');
  await page.waitForFunction(() => !document.querySelector('[data-state="loading"], [aria-busy="true"], p.loading'));
}

/** A view or a state of one: `open` brings the page there from wherever it is; `layout` marks the states the layout checks cover too. */
export interface Stop {
  name: string;
  open(page: Page, fixture: TourFixture, url: string): Promise<void>;
  layout?: boolean;
}

const go = (path: string, ready?: string): Stop['open'] => async (page, _fixture, url) => {
  await page.goto(url + path);
  if (ready) await page.locator(ready).first().waitFor();
  await settle(page);
};
const dashboardOf = async (page: Page, fixture: TourFixture, url: string) => {
  await page.goto(`${url}/sites/${fixture.site.siteId}?period=7d`);
  await filled(page);
  await settle(page);
};
/** A modal dialog opened and settled. */
const dialogOpen = (page: Page) => page.locator('dialog[open]').waitFor().then(() => settle(page));

/** The signed-out views: the sign-in page (and its error), an invitation, a shared link's dashboard. */
export const SIGNED_OUT: Stop[] = [
  { name: 'login', layout: true, open: go('/login', 'form') },
  {
    name: 'login-error',
    open: async (page, _fixture, url) => {
      await page.goto(`${url}/login`);
      await page.locator('input[type="email"]').fill('nobody@example.com');
      await page.locator('input[type="password"]').fill('not the password');
      await page.locator('button[type="submit"]').click();
      await page.locator('[role="alert"]').waitFor();
    },
  },
  { name: 'invitation', layout: true, open: async (page, fixture) => {
    await page.goto(fixture.invitationUrl);
    await page.locator('input[type="password"]').waitFor();
    await settle(page);
  } },
  { name: 'share', layout: true, open: async (page, fixture) => {
    await page.goto(fixture.shareUrl);
    await filled(page);
    await settle(page);
  } },
];

/** The set-up page, shown while no account exists. */
export const SETUP: Stop = { name: 'setup', layout: true, open: go('/setup', 'form') };

/** The signed-in views, each with data, and the dashboard's dialogs and states. */
export const SIGNED_IN: Stop[] = [
  { name: 'home', layout: true, open: go('/', 'table') },
  { name: 'dashboard', layout: true, open: dashboardOf },
  {
    name: 'filter-dialog',
    layout: true,
    open: async (page, fixture, url) => {
      await dashboardOf(page, fixture, url);
      await page.locator('.filter-button').click();
      await page.locator('dialog.filter-menu select').first().selectOption('country');
      await page.locator('.filter-values [role="option"]').first().waitFor();
      await settle(page);
    },
  },
  {
    name: 'keyboard-help',
    open: async (page, fixture, url) => {
      await dashboardOf(page, fixture, url);
      await page.keyboard.press('?');
      await dialogOpen(page);
    },
  },
  {
    name: 'breakdown-details',
    layout: true,
    open: async (page, fixture, url) => {
      await dashboardOf(page, fixture, url);
      await page.locator('[data-panel="pages"] .panel-foot button').click();
      await dialogOpen(page);
    },
  },
  {
    name: 'period-picker',
    open: async (page, fixture, url) => {
      await dashboardOf(page, fixture, url);
      await page.locator('#period').selectOption('custom');
      await page.locator('.custom-range').waitFor();
    },
  },
  {
    name: 'read-failure',
    open: async (page, fixture, url) => {
      await page.route('**/app/v1/sites/*/breakdown*', (route) => route.abort());
      await page.goto(`${url}/sites/${fixture.site.siteId}?period=7d`);
      await page.locator('[data-panel][data-state="error"]').first().waitFor();
      await settle(page);
      await page.unrouteAll({ behavior: 'ignoreErrors' });
    },
  },
  { name: 'goals', layout: true, open: (page, fixture, url) => go(`/sites/${fixture.site.siteId}/goals?period=7d`, '[data-panel="goals"]')(page, fixture, url) },
  { name: 'funnel', layout: true, open: (page, fixture, url) => go(`/sites/${fixture.site.siteId}/funnels/${fixture.funnelId}?period=7d`, '[data-panel="funnel"]')(page, fixture, url) },
  { name: 'journeys', layout: true, open: (page, fixture, url) => go(`/sites/${fixture.site.siteId}/journeys`, '[data-panel="journeys"]')(page, fixture, url) },
  { name: 'realtime', layout: true, open: (page, fixture, url) => go(`/sites/${fixture.site.siteId}/realtime`, '.minute-bars')(page, fixture, url) },
  { name: 'first-event', layout: true, open: (page, fixture, url) => go(`/sites/${fixture.emptySiteId}`, '.first-event')(page, fixture, url) },
  { name: 'org-settings', layout: true, open: (page, fixture, url) => go(`/orgs/${fixture.site.orgId}/settings`, 'table tbody tr')(page, fixture, url) },
  { name: 'account', layout: true, open: go('/account', '#language-title') },
  { name: 'account-security', layout: true, open: go('/account/security') },
];

/** The site settings' sections, one stop each (their names read from the side menu's links). */
export async function settingsSections(page: Page, fixture: TourFixture, url: string): Promise<string[]> {
  await page.goto(`${url}/sites/${fixture.site.siteId}/settings`);
  await page.locator('.section-menu a').first().waitFor();
  return (await page.locator('.section-menu a').evaluateAll((links) => links.map((a) => a.getAttribute('href')!.slice(1))));
}

export const settingsStop = (section: string): Stop => ({
  name: `site-settings#${section}`,
  layout: true,
  open: async (page, fixture, url) => {
    await page.goto(`${url}/sites/${fixture.site.siteId}/settings#${section}`);
    await page.locator(`.section-menu a[href="#${section}"][aria-current="page"]`).waitFor();
    await settle(page);
  },
});

/** A browser profile reading `language` at `viewport`, signed in as the owner when `signedIn`. */
export async function tourPage(dashboard: Dashboard, language: TourLanguage, viewport: { width: number; height: number }, signedIn: boolean): Promise<{ context: BrowserContext; page: Page }> {
  const opened = await openPage(dashboard, viewport, undefined, false, undefined, TOUR_LOCALES[language]);
  if (!signedIn) return opened;
  // The form read by its fields' types: its words are the language's.
  await opened.page.goto(`${dashboard.server.url}/login`);
  await opened.page.locator('input[type="email"]').fill(OWNER);
  await opened.page.locator('input[type="password"]').fill(PASSWORD);
  await opened.page.locator('button[type="submit"]').click();
  await opened.page.waitForURL((url) => url.pathname !== '/login');
  return opened;
}
