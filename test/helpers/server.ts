// A real listening svc on a temp data dir, for end-to-end tests. Small factory functions build the
// fixtures each test needs (org, site, key) through the admin API, as an operator would.
import { mkdtempSync, rmSync } from 'node:fs';
import type { FastifyBaseLogger } from 'fastify';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig, type Config } from '../../src/config.js';
import { ManualClock, type Clock } from '../../src/core/clock.js';
import type { ContextOptions } from '../../src/context.js';
import type { GeoLocator } from '../../src/ingest/geo.js';
import { startService, type RunningService } from '../../src/server.js';
import { sql } from '../../src/sql/sql.js';

export const ADMIN_TOKEN = 'test-admin-token-0123456789';
export const BROWSER_UA =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';

export interface TestServerOptions {
  clock?: Clock;
  geo?: GeoLocator;
  alerts?: ContextOptions['alerts'];
  /** What the service's EventStore is seen through (a store whose writes fail on demand). */
  events?: ContextOptions['events'];
  /** With SVC_REDIS_URL in `env`: the service's own Redis keys (support/counters.ts testKeyPrefix). */
  counterKeyPrefix?: string;
  env?: Record<string, string>;
  /** Reuse a data dir (restart tests); a fresh temp dir otherwise. */
  dataDir?: string;
  /** Fastify's request logger (the process logger of main.ts); none by default. */
  logger?: FastifyBaseLogger;
  /** What single sign-on is given: the test provider's CA, a shorter retry. */
  oidc?: ContextOptions['oidc'];
  /** The service's log (warnings of single sign-on among them); silent by default. */
  log?: ContextOptions['log'];
  /** What GA4 imports are given: the Google stand-in's CA, shorter waits, smaller pages. */
  ga4?: ContextOptions['ga4'];
}

export interface HttpResult<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export interface TestServer {
  url: string;
  dataDir: string;
  adminToken: string;
  service: RunningService;
  ctx: RunningService['ctx'];
  config: Config;
  admin<T = any>(method: string, path: string, body?: unknown): Promise<HttpResult<T>>;
  /** POST /api/e with a JSON (or raw string) body and headers. */
  collect(body: unknown, headers?: Record<string, string>): Promise<number>;
  /** Writes buffered events to storage now. */
  flush(): Promise<void>;
  /** Stored raw events of a site, oldest first. */
  storedEvents(siteId: string): Promise<Array<Record<string, any>>>;
  /** Graceful stop; removes the data dir unless `keepData`. */
  stop(options?: { keepData?: boolean }): Promise<void>;
}

/**
 * SVC_MAX_CONNECTIONS_PER_ADDRESS for a test's service: every test client connects from 127.0.0.1,
 * one client as the per-address cap counts, so the cap is the total one unless the test sets it.
 */
export function perAddressCap(env: Record<string, string> = {}): Record<string, string> {
  return { SVC_MAX_CONNECTIONS_PER_ADDRESS: env.SVC_MAX_CONNECTIONS_PER_ADDRESS ?? env.SVC_MAX_CONNECTIONS ?? '4096' };
}

export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'svc-test-'));
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    SVC_DATA_DIR: dataDir,
    SVC_ADMIN_TOKEN: ADMIN_TOKEN,
    ...options.env,
    ...perAddressCap(options.env),
  });
  const quiet = options.log ?? { info() {}, warn() {}, error() {} };
  // Tests run maintenance themselves (admin API or ctx.maintenance), at their clock's instant.
  const service = await startService(config, { clock: options.clock, geo: options.geo, alerts: options.alerts, events: options.events, counterKeyPrefix: options.counterKeyPrefix, logger: options.logger, log: quiet, oidc: options.oidc, ga4: options.ga4, maintenanceTimers: false });
  const url = service.url;

  const request = async (method: string, path: string, body: unknown, headers: Record<string, string>) => {
    const init: RequestInit = { method, headers: { ...headers } };
    if (body !== undefined) {
      init.body = typeof body === 'string' ? body : JSON.stringify(body);
      if (typeof body !== 'string') (init.headers as Record<string, string>)['content-type'] = 'application/json';
    }
    return fetch(url + path, init);
  };

  return {
    url,
    dataDir,
    adminToken: ADMIN_TOKEN,
    service,
    ctx: service.ctx,
    config,
    async admin(method, path, body) {
      const res = await request(method, '/admin/v1' + path, body, { authorization: `Bearer ${ADMIN_TOKEN}` });
      const text = await res.text();
      return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
    },
    async collect(body, headers = {}) {
      const res = await request('POST', '/api/e', typeof body === 'string' ? body : JSON.stringify(body), {
        'content-type': 'text/plain',
        ...headers,
      });
      await res.arrayBuffer();
      return res.status;
    },
    flush: () => service.ctx.ingest.flush(),
    async storedEvents(siteId) {
      await service.ctx.ingest.flush();
      return service.ctx.events.query(sql`SELECT *, CAST(day AS VARCHAR) AS local_day FROM events WHERE site_id = ${siteId} ORDER BY ts, session_id`);
    },
    async stop(stopOptions = {}) {
      await service.stop();
      if (!stopOptions.keepData && !options.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface SiteFixture {
  orgId: number;
  siteId: string;
  domain: string;
  timezone: string;
}

let fixtureCounter = 0;

/** A new org with one site (unique domain unless given). */
export async function createSite(
  server: TestServer,
  site: { domain?: string; timezone?: string; honorGpc?: boolean; retentionMonths?: number | null; rawDays?: number } = {},
): Promise<SiteFixture> {
  const org = await server.admin('POST', '/orgs', { name: `Org ${++fixtureCounter}` });
  const domain = site.domain ?? `site${fixtureCounter}-${process.pid}.example`;
  const timezone = site.timezone ?? 'UTC';
  const created = await server.admin('POST', `/orgs/${org.body.id}/sites`, { domain, name: `Site ${fixtureCounter}`, timezone, ...site });
  if (created.status !== 201) throw new Error(`site creation failed: ${JSON.stringify(created.body)}`);
  return { orgId: org.body.id, siteId: created.body.id, domain, timezone };
}

/** A service at a fixed instant, unbounded reads, with one site (UTC) and an API key of its org: what a read test needs. */
export async function startReadFixture(now: number): Promise<{ server: TestServer; site: SiteFixture; key: string }> {
  const server = await startTestServer({ clock: new ManualClock(now), env: { SVC_API_RATE_LIMIT: '100000/60s' } });
  const site = await createSite(server, { timezone: 'UTC' });
  return { server, site, key: await createApiKey(server, site.orgId) };
}

/** An API key for an org: the full `svc_…` secret. */
export async function createApiKey(server: TestServer, orgId: number): Promise<string> {
  const res = await server.admin('POST', `/orgs/${orgId}/keys`, { name: 'test' });
  return res.body.key;
}

/** A trusted-relay key. */
export async function createRelayKey(server: TestServer): Promise<string> {
  const res = await server.admin('POST', '/relay-keys', { name: 'test relay' });
  return res.body.key;
}

/** Headers of a real browser on the site's domain (passes origin and bot checks). */
export function browserHeaders(domain: string, extra: Record<string, string> = {}): Record<string, string> {
  return { origin: `https://${domain}`, 'user-agent': BROWSER_UA, ...extra };
}

/** POST an NDJSON import and return the report. */
export async function importEvents(server: TestServer, siteId: string, lines: Array<Record<string, unknown> | string>) {
  const body = lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n') + '\n';
  const res = await fetch(`${server.url}/admin/v1/sites/${siteId}/events/import`, {
    method: 'POST',
    headers: { authorization: `Bearer ${server.adminToken}`, 'content-type': 'application/x-ndjson' },
    body,
  });
  return { status: res.status, body: (await res.json()) as { accepted: number; rejected: number; errors: Array<{ line: number; reason: string }> } };
}
