// Shared fixtures of the tracker tests: one local HTTP server that plays every host (the tracked
// site, the CDN serving t.js, the collector, a foreign site), and a Chromium launcher.
// Host names under .test resolve to 127.0.0.1 through Chromium's --host-resolver-rules, so pages are
// not on "localhost" (where the tracker stands down) except in the tests about that rule.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, afterEach, before, beforeEach } from 'node:test';
import type { TestServer } from '../helpers/server.js';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

const buildScriptUrl = new URL('../../scripts/build-tracker.mjs', import.meta.url).href;

type TrackerBuild = { bundleTracker: () => Promise<string>; bundleVitals: () => Promise<string> };
let trackerCodeOnce: Promise<string> | undefined;
let vitalsCodeOnce: Promise<string> | undefined;
/** The minified tracker, built in memory exactly as the build does it. */
export function trackerCode(): Promise<string> {
  trackerCodeOnce ??= (import(buildScriptUrl) as Promise<TrackerBuild>).then((module) => module.bundleTracker());
  return trackerCodeOnce;
}
/** The minified web vitals measurer (/js/v.js), likewise. */
function vitalsCode(): Promise<string> {
  vitalsCodeOnce ??= (import(buildScriptUrl) as Promise<TrackerBuild>).then((module) => module.bundleVitals());
  return vitalsCodeOnce;
}

export const DESKTOP_CHROME_UA =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';

const BASE_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--host-resolver-rules=MAP *.test 127.0.0.1',
];

/**
 * Launches the system Chromium. By default navigator.webdriver is false, as in a visitor's browser;
 * `automation: true` keeps Chromium's automation flag so navigator.webdriver is true.
 */
export function launchBrowser(options: { automation?: boolean } = {}): Promise<Browser> {
  const args = options.automation ? BASE_ARGS : [...BASE_ARGS, '--disable-blink-features=AutomationControlled'];
  return chromium.launch({ executablePath: '/usr/bin/chromium', args });
}

/**
 * A visitor's browser context: desktop Chrome on a 1920 px screen, French locale. (Playwright's
 * locale emulation does not hold while a document unloads: pagehide handlers read en-US.)
 */
export async function visitorContext(browser: Browser): Promise<BrowserContext> {
  const context = await browser.newContext({
    userAgent: DESKTOP_CHROME_UA,
    locale: 'fr-FR',
    screen: { width: 1920, height: 1080 },
    viewport: { width: 1280, height: 720 },
  });
  // tsx compiles the test files with esbuild's keepNames, which wraps named functions in a __name()
  // call; functions passed to page.evaluate carry that call into the page, which lacks the helper.
  await context.addInitScript('globalThis.__name = (fn) => fn');
  return context;
}

/** One POST received by the fixture server. */
export interface Received {
  host: string;
  path: string;
  body: string;
  headers: IncomingMessage['headers'];
}

export interface FixtureServer {
  port: number;
  /** `http://<host>.test:<port>` */
  origin(host: string): string;
  /** Serves `html` at `path` (query ignored) on every host. */
  page(path: string, html: string): void;
  /**
   * The site id of the current test. Closing a page sends its engage event late, into whatever test
   * runs next; giving each test its own site id keeps those strays out of its counts.
   */
  site: string;
  /** Starts a new test: a fresh `site`. */
  reset(): void;
  /** Every POST received so far, in arrival order. */
  received: Received[];
  /** Every request line received so far (`METHOD host path`), in arrival order. */
  log: string[];
  /** Waits until `count` POSTs of the current site have arrived since the last call and returns them. */
  next(count: number, timeoutMs?: number): Promise<Received[]>;
  /** Waits `ms` and fails when any POST of the current site arrives meanwhile. */
  expectQuiet(ms?: number): Promise<void>;
  /** Delays the response of a path by `ms` (to hold the parser on a blocking script); logs `SENT host path` when it goes out. */
  delay(path: string, ms: number): void;
  /** Answers POSTs to `path` with `status` instead of 202. */
  failPosts(path: string, status: number): void;
  close(): Promise<void>;
}

export async function startFixtureServer(): Promise<FixtureServer> {
  const code = await trackerCode();
  const vitals = await vitalsCode();
  const pages = new Map<string, string>();
  const delays = new Map<string, number>();
  const postStatus = new Map<string, number>();
  const received: Received[] = [];
  const log: string[] = [];
  let consumed = 0;
  let testNumber = 0;
  let site = 'site_0';
  const ofCurrentSite = () =>
    received.filter((event) => {
      try {
        return (JSON.parse(event.body) as { s?: unknown }).s === site;
      } catch {
        return true;
      }
    });
  const waiters = new Set<() => void>();

  const server: Server = createServer((request, response) => {
    const host = (request.headers.host ?? '').replace(/:\d+$/, '');
    const path = (request.url ?? '/').split('?')[0]!;
    log.push(`${request.method} ${host} ${path}`);
    if (request.method === 'POST') {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        received.push({ host, path, body: Buffer.concat(chunks).toString('utf8'), headers: request.headers });
        response.writeHead(postStatus.get(path) ?? 202).end();
        for (const wake of waiters) wake();
      });
      return;
    }
    const reply = () => {
      if (path === '/t.js') {
        response.writeHead(200, { 'content-type': 'text/javascript' }).end(code);
      } else if (path === '/v.js') {
        response.writeHead(200, { 'content-type': 'text/javascript' }).end(vitals);
      } else if (pages.has(path)) {
        response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(pages.get(path));
      } else if (path.endsWith('.js')) {
        response.writeHead(200, { 'content-type': 'text/javascript' }).end('');
      } else {
        response.writeHead(404, { 'content-type': 'text/html' }).end('<!doctype html><title>not found</title>');
      }
    };
    const delayMs = delays.get(path);
    if (delayMs) {
      setTimeout(() => {
        reply();
        log.push(`SENT ${host} ${path}`);
      }, delayMs);
    }
    else reply();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;

  return {
    get site() {
      return site;
    },
    port,
    origin: (host) => `http://${host}.test:${port}`,
    page: (path, html) => void pages.set(path, html),
    received,
    log,
    delay: (path, ms) => void delays.set(path, ms),
    failPosts: (path, status) => void postStatus.set(path, status),
    async next(count, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (ofCurrentSite().length - consumed < count) {
        const left = deadline - Date.now();
        if (left <= 0) {
          const got = ofCurrentSite().slice(consumed).map((r) => r.body);
          throw new Error(`expected ${count} event(s), got ${got.length}: ${JSON.stringify(got)}`);
        }
        await new Promise<void>((resolve) => {
          const wake = () => {
            waiters.delete(wake);
            clearTimeout(timer);
            resolve();
          };
          const timer = setTimeout(wake, left);
          waiters.add(wake);
        });
      }
      const batch = ofCurrentSite().slice(consumed, consumed + count);
      consumed += count;
      return batch;
    },
    async expectQuiet(ms = 400) {
      await new Promise((resolve) => setTimeout(resolve, ms));
      const extra = ofCurrentSite().slice(consumed).map((r) => r.body);
      consumed += extra.length;
      if (extra.length > 0) throw new Error(`expected no event, got ${JSON.stringify(extra)}`);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
    reset() {
      site = `site_${++testNumber}`;
      consumed = 0;
    },
  };
}

/** The bodies of received events, parsed. */
export function bodies(events: Received[]): unknown[] {
  return events.map((event) => JSON.parse(event.body) as unknown);
}

/** An HTML page embedding the tracker from the "cdn" host with the given attributes. */
export function trackedPage(
  server: FixtureServer,
  options: { attributes?: string; head?: string; body?: string; defer?: boolean } = {},
): string {
  const { attributes = `data-site="${server.site}"`, head = '', body = '', defer = true } = options;
  return `<!doctype html><html><head><meta charset="utf-8"><title>fixture</title>${head}<script${defer ? ' defer' : ''} src="${server.origin('cdn')}/t.js" ${attributes}></script></head><body>${body}</body></html>`;
}

/**
 * Headless Chromium keeps every tab visible (neither a second tab nor a minimized window changes
 * document.visibilityState), so the tab switch is simulated in the page the way the browser reports it.
 */
export async function setTabVisibility(page: Page, state: 'hidden' | 'visible'): Promise<void> {
  await page.evaluate((value) => {
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => value });
    Object.defineProperty(document, 'hidden', { configurable: true, get: () => value == 'hidden' });
    document.dispatchEvent(new Event('visibilitychange'));
  }, state);
}

export interface BrowserSuite {
  server: FixtureServer;
  browser: Browser;
  /** A fresh visitor context per test (own storage), closed after it. */
  context: BrowserContext;
  page: Page;
}

/**
 * Registers the hooks of a suite sharing one fixture server and one browser, with a fresh visitor
 * context and site id per test. Call inside `describe`; read the fields inside tests.
 */
export function browserSuite(options: { automation?: boolean } = {}): BrowserSuite {
  const suite = {} as BrowserSuite;
  before(async () => {
    [suite.server, suite.browser] = await Promise.all([startFixtureServer(), launchBrowser(options)]);
  });
  after(async () => {
    await suite.browser.close();
    await suite.server.close();
  });
  beforeEach(async () => {
    suite.server.reset();
    suite.context = await visitorContext(suite.browser);
    suite.page = await suite.context.newPage();
  });
  afterEach(async () => {
    await suite.context.close();
  });
  return suite;
}

type StoredRow = Record<string, any>;

/**
 * Stored events of a site, oldest first, once `ready` holds for them (events arrive asynchronously:
 * beacons, then processing after the 202), or when the time is up.
 */
export async function waitForStoredEvents(
  service: TestServer,
  siteId: string,
  ready: (events: StoredRow[]) => boolean,
  timeoutMs = 10_000,
): Promise<StoredRow[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const events = await service.storedEvents(siteId);
    if (ready(events) || Date.now() > deadline) return events;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
