// bench/dashboard: the site dashboard in Chromium on the year site of bench/query (10.6 M events by
// default). Prints, for the 30d and year views, p50/p95 over 20 loads of the time from navigation
// start to every figure filled (KPI tiles, chart, the five panels), and the JavaScript and CSS the
// page loads, raw and gzip.
//
//   npm run bench:dashboard                      (the full year: about 10.6 M events)
//   npm run bench:dashboard -- --events 500000   (a smaller year for a quick run)
//   options: --events N, --loads N (20)
import { mkdtempSync, rmSync } from 'node:fs';
import { get } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import { loadConfig } from '../src/config.js';
import { startService } from '../src/server.js';
import { loadYearSite } from './year-site.js';

const { values } = parseArgs({ options: { events: { type: 'string' }, loads: { type: 'string' } } });
const EVENTS = Number(values.events ?? 10_600_000);
const LOADS = Number(values.loads ?? 20);
const DAYS = 365;
/** bench/query's sessions hold about 1.45 events per pageview (engagement, custom events). */
const EVENTS_PER_PAGEVIEW = 1.45;
const TOKEN = 'bench-admin-token-0123456789';
const PASSWORD = 'bench password 0123';

/**
 * Runs in the page before its scripts: records performance.now() (milliseconds from navigation
 * start) the first time the overview, the chart and the five panels all hold an answer.
 */
const FILLED_PROBE = `
  const filled = () => {
    const parts = document.querySelectorAll('[data-panel]');
    return parts.length >= 7 && Array.prototype.every.call(parts, (p) => p.getAttribute('data-state') !== 'loading');
  };
  new MutationObserver((_, observer) => {
    if (window.__filledAt === undefined && filled()) {
      window.__filledAt = performance.now();
      observer.disconnect();
    }
  }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-state'] });
`;

/** The bytes of the body the server sends for `url` to a client that accepts `encoding` (node:http does not decode). */
function bytesSent(url: string, encoding: string): Promise<number> {
  return new Promise((done, fail) => {
    get(url, { headers: { 'accept-encoding': encoding } }, (res) => {
      let n = 0;
      res.on('data', (chunk: Buffer) => (n += chunk.length));
      res.on('end', () => done(n));
      res.on('error', fail);
    }).on('error', fail);
  });
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-bench-dashboard-'));
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    SVC_DATA_DIR: dataDir,
    SVC_ADMIN_TOKEN: TOKEN,
    SVC_APP_RATE_LIMIT: '1000000/60s',
    SVC_LOG_LEVEL: 'silent',
  });
  // No maintenance timers: the loader runs the rollups once the year is in (a timer firing mid-load would roll up, then drop, raw days of a year half loaded).
  const service = await startService(config, { log: { info() {}, warn() {}, error() {} }, maintenanceTimers: false });
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'] });
  try {
    const admin = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${service.url}/admin/v1${path}`, { method, headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
      return (await res.json()) as any;
    };
    const pageviewsPerDay = Math.max(10, Math.round(EVENTS / DAYS / EVENTS_PER_PAGEVIEW));
    const year = await loadYearSite(service, admin, { pageviewsPerDay, days: DAYS });
    (globalThis as { gc?: () => void }).gc?.();
    console.log(`loaded ${year.rows.toLocaleString()} events (${year.pageviews.toLocaleString()} pageviews, ${DAYS} days) in ${(year.loadMs / 1000).toFixed(1)} s; rollups in ${(year.rollupMs / 1000).toFixed(1)} s`);

    const user = await admin('POST', '/users', { email: 'bench@example.com', password: PASSWORD, name: 'Bench' });
    await admin('PUT', `/orgs/${year.orgId}/members/${user.id}`, { role: 'viewer' });
    const signIn = await fetch(`${service.url}/app/v1/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'bench@example.com', password: PASSWORD }) });
    const cookie = /svc_session=([^;]+)/.exec(signIn.headers.get('set-cookie') ?? '')?.[1];
    if (!cookie) throw new Error(`sign-in failed: ${signIn.status} ${await signIn.text()}`);
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.addCookies([{ name: 'svc_session', value: cookie, url: service.url }]);
    await context.addInitScript(FILLED_PROBE);

    const dashboard = `${service.url}/sites/${year.siteId}`;
    console.log(`\n${'view'.padEnd(8)}${'p50 ms'.padStart(9)}${'p95 ms'.padStart(9)}   (navigation start to every panel filled, ${LOADS} loads after one cold load)`);
    for (const period of ['30d', 'year']) {
      const samples: number[] = [];
      for (let i = 0; i <= LOADS; i++) {
        const page = await context.newPage();
        await page.goto(`${dashboard}?period=${period}`);
        const filledAt = await page.waitForFunction(() => (window as unknown as { __filledAt?: number }).__filledAt, undefined, { timeout: 60_000 });
        const ms = Number(await filledAt.jsonValue());
        const errors = await page.locator('[data-panel] .error').count();
        if (errors > 0) throw new Error(`${period}: ${errors} panel(s) show an error: ${await page.locator('[data-panel] .error').first().textContent()}`);
        if (i > 0) samples.push(ms);
        await page.close();
      }
      samples.sort((a, b) => a - b);
      console.log(`${period.padEnd(8)}${quantile(samples, 0.5).toFixed(0).padStart(9)}${quantile(samples, 0.95).toFixed(0).padStart(9)}`);
    }

    // What the page loads from /assets, measured as the server sends it to a gzip-only client.
    const page = await context.newPage();
    await page.goto(`${dashboard}?period=30d`);
    await page.waitForFunction(() => (window as unknown as { __filledAt?: number }).__filledAt);
    const assets = await page.evaluate(() => performance.getEntriesByType('resource').map((e) => e.name).filter((name) => new URL(name).pathname.startsWith('/assets/')));
    let raw = 0;
    let gzip = 0;
    for (const url of assets) {
      raw += await bytesSent(url, 'identity');
      gzip += await bytesSent(url, 'gzip');
    }
    console.log(`\nJS + CSS the site dashboard loads: ${assets.length} files, ${(raw / 1024).toFixed(1)} KB raw, ${(gzip / 1024).toFixed(1)} KB gzip`);
    console.log('targets: year view filled in under 1 s; JS + CSS under 60 KB gzip');
  } finally {
    await browser.close();
    await service.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
