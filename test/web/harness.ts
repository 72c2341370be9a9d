// Shared fixtures of the dashboard's browser tests: a real listening svc, the system Chromium, users
// made through the admin API, sign-in through the page, axe-core run inside a page, screenshots.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { createSite, importEvents, startTestServer, type SiteFixture, type TestServer, type TestServerOptions } from '../helpers/server.js';
import { launchBrowser } from '../tracker/harness.js';

export const PASSWORD = 'correct horse battery';
export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };
/** The looks every page is checked in: desktop and phone width, light and dark. */
export const LOOKS = [
  { name: 'desktop', viewport: DESKTOP, colorScheme: 'light' },
  { name: 'phone', viewport: PHONE, colorScheme: 'light' },
  { name: 'desktop-dark', viewport: DESKTOP, colorScheme: 'dark' },
] as const;
/** LOOKS and the phone in the dark: for parts new enough to be checked in every combination. */
export const EVERY_LOOK = [...LOOKS, { name: 'phone-dark', viewport: PHONE, colorScheme: 'dark' }] as const;

export interface Dashboard {
  server: TestServer;
  browser: Browser;
  close(): Promise<void>;
}

export async function startDashboard(options: TestServerOptions = {}): Promise<Dashboard> {
  const [server, browser] = await Promise.all([startTestServer(options), launchBrowser({ automation: true })]);
  return {
    server,
    browser,
    async close() {
      await browser.close();
      await server.stop();
    },
  };
}

/**
 * A fresh browser profile (own cookies) and a page in it; `headers` go with every request it makes;
 * `hasTouch` makes it a touch screen (taps through `page.touchscreen`); `locale` is the browser's
 * language (navigator.languages and Accept-Language).
 */
export async function openPage(dashboard: Dashboard, viewport = DESKTOP, headers?: Record<string, string>, hasTouch = false, storageState?: BrowserState, locale = 'en-GB'): Promise<{ context: BrowserContext; page: Page }> {
  const context = await dashboard.browser.newContext({ viewport, locale, extraHTTPHeaders: headers, hasTouch, storageState });
  // tsx compiles with keepNames, which wraps functions in __name(): functions passed to
  // page.evaluate carry that call into the page.
  await context.addInitScript('globalThis.__name = (fn) => fn');
  return { context, page: await context.newPage() };
}

/** A user made by the operator (admin API), with memberships. */
export async function createUser(server: TestServer, email: string, memberships: Array<{ orgId: number; role: string }> = []): Promise<number> {
  const created = await server.admin('POST', '/users', { email, password: PASSWORD, name: email.split('@')[0] });
  if (created.status !== 201) throw new Error(`user creation failed: ${JSON.stringify(created.body)}`);
  for (const m of memberships) {
    const set = await server.admin('PUT', `/orgs/${m.orgId}/members/${created.body.id}`, { role: m.role });
    if (set.status !== 200) throw new Error(`membership failed: ${JSON.stringify(set.body)}`);
  }
  return created.body.id as number;
}

type BrowserState = Awaited<ReturnType<BrowserContext['storageState']>>;

/**
 * Each server's and email's signed-in browser state: the first page signs in through the form, later
 * ones start with its cookies. A file that opens many pages would otherwise pass the service's 20
 * sign-ins a minute from one client (429, the page left at /login) whenever it runs fast enough.
 */
const signedInStates = new Map<string, BrowserState>();

/** A new browser profile's page at `viewport`, signed in as `email` (a page to go to next: it may be blank). */
export async function signedInPage(dashboard: Dashboard, email: string, viewport = DESKTOP): Promise<{ context: BrowserContext; page: Page }> {
  const key = `${dashboard.server.url} ${email}`;
  const state = signedInStates.get(key);
  if (state) return openPage(dashboard, viewport, undefined, false, state);
  const opened = await openPage(dashboard, viewport);
  await signIn(opened.page, dashboard.server, email);
  signedInStates.set(key, await opened.context.storageState());
  return opened;
}

/** The User-Agents of the fixtures' visitors (a Firefox and a Chrome on desktops). */
export const FIREFOX_UA = 'Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0';
export const CHROME_UA = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';

/** The goals of the filter fixtures: an event goal, a one-page goal and a wildcard page goal. */
const FIXTURE_GOALS = [
  { name: 'Signup', kind: 'event', pattern: 'signup' },
  { name: 'Saw pricing', kind: 'page', pattern: '/pricing' },
  { name: 'Read the blog', kind: 'page', pattern: '/blog/**' },
] as const;

/** Makes a site's goals, then runs the rollup, which backfills them over the imported days: their ids by name. */
async function addGoals(server: TestServer, siteId: string, goals: ReadonlyArray<{ name: string; kind: string; pattern: string }>): Promise<Record<string, number>> {
  const ids: Record<string, number> = {};
  for (const goal of goals) {
    const created = await server.admin('POST', `/sites/${siteId}/goals`, goal);
    assert.equal(created.status, 201, JSON.stringify(created.body));
    ids[goal.name] = created.body.goalId;
  }
  await server.admin('POST', '/maintenance/run', { tasks: ['rollup'] });
  return ids;
}

/** A visitor of the goal fixtures: its address, browser and country, spread into each of its events. */
export const visitor = (ip: string, ua: string, country: string) => ({ ip, ua, country });

/**
 * A site (UTC) of the filter fixtures: `events(at)` imported on the day before yesterday (`at(hour,
 * minute)` is a time of that day), then FIXTURE_GOALS made and backfilled; their ids by name.
 */
export async function goalFixtureSite(server: TestServer, events: (at: (hour: number, minute?: number) => number) => Array<Record<string, unknown>>): Promise<{ site: SiteFixture; goalIds: Record<string, number> }> {
  const site = await createSite(server, { timezone: 'UTC' });
  const now = new Date();
  const day = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - 2);
  const lines = events((hour, minute = 0) => day + hour * 3_600_000 + minute * 60_000);
  const report = await importEvents(server, site.siteId, lines);
  assert.equal(report.body.accepted, lines.length, JSON.stringify(report));
  return { site, goalIds: await addGoals(server, site.siteId, FIXTURE_GOALS) };
}

/**
 * Fills the sign-in form at /login (with `next` when given) and submits it: its fields found by what
 * they are, not by their labels, which are in the browser's language.
 */
export async function submitSignIn(page: Page, server: TestServer, email: string, password = PASSWORD, next?: string): Promise<void> {
  await page.goto(`${server.url}/login${next === undefined ? '' : `?next=${encodeURIComponent(next)}`}`);
  await page.locator('input[autocomplete="username"]').fill(email);
  await page.locator('input[autocomplete="current-password"]').fill(password);
  await page.locator('button[type="submit"]').click();
}

/** Signs in through the page and waits for the landing page. */
export async function signIn(page: Page, server: TestServer, email: string, next?: string): Promise<void> {
  await submitSignIn(page, server, email, PASSWORD, next);
  await page.waitForURL((url) => url.pathname !== '/login');
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  impact: string;
  help: string;
  nodes: string[];
}

/**
 * axe-core's serious and critical violations on the page as it settles: once its transitions under
 * way have ended (a part whose answer just came fades back from the dimmed look of one being
 * replaced, below contrast on purpose); endless animations are not waited for.
 */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  await page.evaluate(() => Promise.all(document.getAnimations().filter((a) => a.effect?.getComputedTiming().iterations !== Infinity).map((a) => a.finished.catch(() => undefined))));
  // Evaluated through the DevTools protocol, which the page's CSP does not govern.
  await page.evaluate(axeSource);
  return page.evaluate(async () => {
    const axe = (globalThis as any).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations
      .filter((v: any) => v.impact === 'serious' || v.impact === 'critical')
      .map((v: any) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n: any) => n.target.join(' ')) }));
  });
}

/** Waits until a site dashboard's overview, chart and every panel hold their answers (or an error). */
export async function filled(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    const parts = Array.from(document.querySelectorAll('[data-panel]'));
    return parts.length >= 7 && parts.every((p) => p.getAttribute('data-state') !== 'loading');
  });
}

let shotsDir: string | undefined;
/** Where this run's screenshots go (one temp dir per test process). */
export function screenshotDir(): string {
  shotsDir ??= mkdtempSync(join(tmpdir(), 'svc-dashboard-shots-'));
  return shotsDir;
}

/** axe-core finds no serious or critical violation, nothing scrolls sideways; a screenshot is saved. */
export async function checkPage(page: Page, label: string): Promise<void> {
  const violations = await axeViolations(page);
  assert.deepEqual(violations, [], `${label}: ${JSON.stringify(violations, null, 1)}`);
  // No part of the page may need horizontal scrolling of the whole document.
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  assert.ok(overflow <= 0, `${label}: the page is ${overflow} px wider than the window`);
  await page.screenshot({ path: join(screenshotDir(), `${label}.png`), fullPage: true });
}
