// No visible English left outside the catalogue (issue 75): in each language, every view of the
// dashboard with data in it, and its main dialogs and states (tour.ts), is walked in real Chromium;
// each visible text node, document.title and each `aria-label`, `title`, `placeholder` and `alt`
// must be a catalogue entry of that language, API data (a string of a JSON answer the page received,
// or a name the fixture gave), a name Intl gives in that language, a figure or date Intl wrote, or
// text without letters (catalogue-texts.ts). A language's test walks every stop before it fails, with
// every text left over, each under the first view it shows on: a to-do list. Alone: `nice node scripts/run-tests.mjs
// test/web/walker.test.ts`; one language: add `--test-name-pattern=^de:` to node's own --test.
import { after, before, test } from 'node:test';
import type { BrowserContext, Page, Response } from 'playwright-core';
import { DESKTOP, startDashboard, type Dashboard } from './harness.js';
import { acceptorOf } from './accepted-text.js';
import { addOwner, SETUP, settingsSections, settingsStop, SIGNED_IN, SIGNED_OUT, TOUR_LANGUAGES, tourFixture, tourPage, type Stop, type TourFixture, type TourLanguage } from './tour.js';

let dashboard: Dashboard;
let fixture: TourFixture;
/** Each language's texts of the set-up page, walked before any account exists. */
const setupTexts = new Map<TourLanguage, { texts: string[]; apiData: Set<string> }>();

/** Every visible text of the page, its labelling attributes' values and its title, trimmed, each once. */
function pageTexts(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    // An option shows with its select, an SVG's title with the SVG: neither has a box of its own.
    const shown = (element: Element): boolean => {
      const holder = element.closest('select') ?? (element.closest('svg title, svg desc') ? element.closest('svg') : null) ?? element;
      return holder.checkVisibility({ visibilityProperty: true });
    };
    const found = new Set<string>([document.title]);
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      // Code and keys (a snippet to paste, a shortcut's key) are the same in every language.
      if (parent && !parent.closest('script, style, noscript, template, code, pre, kbd, samp') && shown(parent)) found.add(node.textContent!);
    }
    for (const element of Array.from(document.querySelectorAll('[aria-label], [title], [placeholder], [alt]'))) {
      if (!shown(element)) continue;
      for (const name of ['aria-label', 'title', 'placeholder', 'alt']) found.add(element.getAttribute(name) ?? '');
    }
    return [...found];
  }).then((texts) => [...new Set(texts.map((text) => text.replace(/\s+/g, ' ').trim()).filter((text) => text !== ''))]);
}

/**
 * The string values of the JSON answers a browser profile's pages receive (answers of 4xx and 5xx
 * aside: an error's words are the catalogue's or the server's translated message, never data).
 */
function apiDataOf(context: BrowserContext): { data: Set<string>; received(): Promise<unknown> } {
  const data = new Set<string>();
  const pending: Array<Promise<void>> = [];
  const collect = (value: unknown): void => {
    if (typeof value === 'string') data.add(value.replace(/\s+/g, ' ').trim());
    else if (typeof value === 'object' && value !== null) Object.values(value).forEach(collect);
  };
  context.on('response', (response: Response) => {
    if (response.status() >= 400 || !(response.headers()['content-type'] ?? '').includes('json')) return;
    pending.push(response.json().then(collect, () => undefined));
  });
  return { data, received: () => Promise.all(pending) };
}

before(async () => {
  dashboard = await startDashboard();
  fixture = await tourFixture(dashboard.server);
  for (const language of TOUR_LANGUAGES) {
    const { context, page } = await tourPage(dashboard, language, DESKTOP, false);
    const api = apiDataOf(context);
    await SETUP.open(page, fixture, dashboard.server.url);
    await api.received();
    setupTexts.set(language, { texts: await pageTexts(page), apiData: api.data });
    await context.close();
  }
  await addOwner(dashboard.server, fixture);
});
after(() => dashboard?.close());

for (const language of TOUR_LANGUAGES) {
  test(`${language}: every text of every view is the catalogue's, API data, a name or a figure`, async () => {
    const acceptor = await acceptorOf(language);
    const fixtureNames = new Set(fixture.names);
    const leaks = new Map<string, string[]>();
    // Each text once, at the first view it shows on: the frame's words are not listed again on every page.
    const listed = new Set<string>();
    const check = (stop: string, texts: string[], apiData: ReadonlySet<string>) => {
      const left = texts.filter((text) => !listed.has(text) && !fixtureNames.has(text) && !acceptor.accepts(text, apiData));
      left.forEach((text) => listed.add(text));
      if (left.length > 0) leaks.set(stop, left);
    };
    const setup = setupTexts.get(language)!;
    check(SETUP.name, setup.texts, setup.apiData);

    const walk = async (signedIn: boolean, stops: (page: Page) => Promise<Stop[]>) => {
      const { context, page } = await tourPage(dashboard, language, DESKTOP, signedIn);
      page.setDefaultTimeout(20_000);
      const api = apiDataOf(context);
      for (const stop of await stops(page)) {
        try {
          await stop.open(page, fixture, dashboard.server.url);
          await api.received();
          check(stop.name, await pageTexts(page), api.data);
        } catch (error) {
          // A stop that cannot be reached is a finding of its own; the walk goes on.
          leaks.set(stop.name, [`(not walked: ${(error as Error).message.split('\n')[0]})`]);
        }
      }
      await context.close();
    };
    await walk(false, async () => SIGNED_OUT);
    await walk(true, async (page) => [...SIGNED_IN, ...(await settingsSections(page, fixture, dashboard.server.url)).map(settingsStop)]);

    if (leaks.size === 0) return;
    const count = [...leaks.values()].reduce((sum, texts) => sum + texts.length, 0);
    const list = [...leaks].map(([stop, texts]) => `  ${stop}:\n${texts.map((text) => `    “${text}”`).join('\n')}`).join('\n');
    throw new Error(`${language}: ${count} texts outside the catalogue, API data, Intl's names and figures:\n${list}`);
  });
}
