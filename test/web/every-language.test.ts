// The layout holds in every language (issue 75): each view of the tour (tour.ts: every page with data,
// the filter dialog, a breakdown's details, each section of the site settings) in English, German,
// French and Spanish at desktop and phone width: axe-core finds nothing serious, nothing scrolls
// sideways (harness.ts checkPage, a screenshot each), no tile, button, tab, label or table header
// is clipped; English also in the dark. One server and one browser; a language's test visits every
// view before it fails, with every finding.
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { checkPage, DESKTOP, PHONE, startDashboard, type Dashboard } from './harness.js';
import { addOwner, SETUP, settingsSections, settingsStop, SIGNED_IN, SIGNED_OUT, TOUR_LANGUAGES, tourFixture, tourPage, type Stop, type TourFixture, type TourLanguage } from './tour.js';

let dashboard: Dashboard;
let fixture: TourFixture;

before(async () => {
  dashboard = await startDashboard();
  fixture = await tourFixture(dashboard.server);
});
after(() => dashboard?.close());

/** No tile, button, tab, label or table header whose text is wider than its box (clipped or spilling out). */
async function clipped(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    Array.from(document.querySelectorAll<HTMLElement>('.kpi, .kpi-label, .kpi-change, button, [role="tab"], th, label, .tabs a'))
      .filter((el) => el.offsetParent !== null && el.scrollWidth > el.clientWidth + 1)
      .map((el) => `${el.tagName.toLowerCase()}.${el.className}: “${el.textContent!.trim().slice(0, 40)}” ${el.scrollWidth} > ${el.clientWidth}`),
  );
}

const LOOKS = [
  { name: 'desktop', viewport: DESKTOP },
  { name: 'phone', viewport: PHONE },
] as const;

/** The views the layout checks cover, in a language, at a look: every finding, each view visited once. */
async function visit(language: TourLanguage, look: { name: string; viewport: typeof DESKTOP; dark?: boolean }, signedIn: boolean, stops: (page: Page) => Promise<Stop[]>): Promise<string[]> {
  const findings: string[] = [];
  const { context, page } = await tourPage(dashboard, language, look.viewport, signedIn);
  page.setDefaultTimeout(20_000);
  if (look.dark) await page.emulateMedia({ colorScheme: 'dark' });
  for (const stop of (await stops(page)).filter((s) => s.layout)) {
    const label = `i75-${language}-${stop.name.replace('#', '-')}-${look.name}`;
    try {
      await stop.open(page, fixture, dashboard.server.url);
      for (const box of await clipped(page)) findings.push(`${label}: clipped ${box}`);
      await checkPage(page, label);
    } catch (error) {
      findings.push(`${label}: ${(error as Error).message.split('\n').slice(0, 8).join('\n')}`);
    }
  }
  await context.close();
  return findings;
}

const signedInStops = async (page: Page) => [...SIGNED_IN, ...(await settingsSections(page, fixture, dashboard.server.url)).map(settingsStop)];

function verdict(findings: string[]): void {
  if (findings.length > 0) throw new Error(`${findings.length} findings:\n${findings.join('\n')}`);
}

test('the set-up page, in every language at desktop and phone width', async () => {
  try {
    const findings: string[] = [];
    for (const language of TOUR_LANGUAGES) for (const look of LOOKS) findings.push(...(await visit(language, look, false, async () => [SETUP])));
    verdict(findings);
  } finally {
    // The set-up page shows only while no account exists: the owner comes after it.
    await addOwner(dashboard.server, fixture);
  }
});

for (const language of TOUR_LANGUAGES) {
  test(`${language}: every view at desktop and phone width: axe-core, nothing wider than the window, nothing clipped`, async () => {
    const findings: string[] = [];
    for (const look of LOOKS) {
      findings.push(...(await visit(language, look, false, async () => SIGNED_OUT)));
      findings.push(...(await visit(language, look, true, signedInStops)));
    }
    verdict(findings);
  });
}

test('en: the dashboard, goals, a funnel, realtime and the settings in the dark', async () => {
  const shown = new Set(['dashboard', 'goals', 'funnel', 'realtime', 'site-settings#general', 'site-settings#alerts']);
  verdict(await visit('en', { name: 'desktop-dark', viewport: DESKTOP, dark: true }, true, async (page) => (await signedInStops(page)).filter((stop) => shown.has(stop.name))));
});
