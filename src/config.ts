// Configuration from the environment, validated at start with one clear message per bad value.
// Every variable has a default that works on a laptop; docs/configuration.md lists them all.
import { isIP } from 'node:net';
import { resolve } from 'node:path';

export interface RateLimit {
  count: number;
  windowMs: number;
}

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  adminToken: string | undefined; // undefined: generated and stored in dataDir on first start
  apiRateLimit: RateLimit;
  collectRateLimit: RateLimit;
  appRateLimit: RateLimit; // SVC_APP_RATE_LIMIT: the dashboard's /app/v1, per user
  /** SVC_TRUSTED_PROXIES: socket peers whose X-Forwarded-For names the client (sign-in lockout). */
  trustedProxies: string[];
  webhookAllowPrivate: boolean;
  geoipDb: string | undefined; // SVC_GEOIP_DB: a MaxMind/DB-IP City .mmdb file
  smtpUrl: string | undefined;
  /** SVC_MAIL_FROM: the address the service's emails come from; else reports@ the host of SVC_PUBLIC_URL (or localhost). */
  mailFrom: string;
  logLevel: string;
  /** SVC_LOG_FORMAT: JSON lines, one readable line per request, or (undefined) by whether stdout is a terminal. */
  logFormat: LogFormat | undefined;
  duckdbMemoryLimit: string; // DuckDB's memory_limit: its share of SVC_MEMORY_BUDGET_MB, or SVC_DUCKDB_MEMORY_LIMIT
  duckdbImportMemoryLimit: string; // DuckDB's memory_limit while an import rolls up (importPoolMb)
  sessionCacheBytes: number; // the live-session cache's bound: the rest of SVC_MEMORY_BUDGET_MB
  alertHistoryDays: number; // SVC_ALERT_HISTORY_DAYS
  /** SVC_PUBLIC_URL: where browsers and people reach the service (the snippet, printed links); no trailing slash. */
  publicUrl: string | undefined;
  http: ConnectionLimits;
  reads: ReadLimits;
  stopTimeoutMs: number; // SVC_STOP_TIMEOUT_MS: a graceful stop ends within it
  flushIntervalMs: number; // SVC_FLUSH_INTERVAL_MS: the write buffer's period, what kill -9 loses without the event log
  eventLogSyncMs: number; // SVC_EVENT_LOG_SYNC_MS: the event log's sync period, what kill -9 can lose; 0 = no event log
  databaseUrl: string | undefined; // SVC_DATABASE_URL: metadata in PostgreSQL instead of SQLite
  clickhouseUrl: string | undefined; // SVC_CLICKHOUSE_URL: raw events and rollups in ClickHouse instead of DuckDB
  redisUrl: string | undefined; // SVC_REDIS_URL: live sessions, rate-limit counters and caches in Redis
  /** SVC_ROLE: the parts of the service this process runs, each once, in PROCESS_ROLES order. */
  role: readonly ProcessRole[];
  /** SVC_OIDC_*: the OpenID Connect provider of single sign-on, if the operator configured one. */
  oidc: OidcConfig | undefined;
  /** SVC_GOOGLE_TOKEN_URL, SVC_GOOGLE_ANALYTICS_DATA_URL: the Google endpoints of the GA4 import (docs/imports.md). */
  google: GoogleEndpoints;
}

export interface GoogleEndpoints {
  /** Where a service account's signed assertion is traded for an access token (also the assertion's audience). */
  tokenUrl: string;
  /** The Google Analytics Data API's base URL, before `/v1beta/properties/…:runReport`. */
  dataUrl: string;
}

export const GOOGLE_ENDPOINTS: GoogleEndpoints = { tokenUrl: 'https://oauth2.googleapis.com/token', dataUrl: 'https://analyticsdata.googleapis.com' };

/** Single sign-on's provider (docs/accounts.md): SVC_OIDC_ISSUER, SVC_OIDC_CLIENT_ID, SVC_OIDC_CLIENT_SECRET, SVC_OIDC_NAME. */
export interface OidcConfig {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The sign-in button's name: `Sign in with <name>`. */
  name: string;
  /** `<SVC_PUBLIC_URL>/login/oidc/callback`, as registered at the provider. */
  redirectUri: string;
}

/**
 * What a process runs (SVC_ROLE): `collect` the tracker and the collection endpoint, `api` the read
 * API, the admin API, the dashboard and its API, `worker` the maintenance tasks and webhook
 * deliveries. `all` is the three.
 */
export const PROCESS_ROLES = ['collect', 'api', 'worker'] as const;
export type ProcessRole = (typeof PROCESS_ROLES)[number];

/** Whether the process runs `role`. */
export function runsRole(config: Pick<Config, 'role'>, role: ProcessRole): boolean {
  return config.role.includes(role);
}

/** The variables of the shared stores, which every process of a split deployment needs. */
const SHARED_STORE_VARIABLES = ['SVC_DATABASE_URL', 'SVC_CLICKHOUSE_URL', 'SVC_REDIS_URL'] as const;

/** How long a client may take and how many connections may be open (docs/operations.md). */
export interface ConnectionLimits {
  headersTimeoutMs: number; // SVC_HEADERS_TIMEOUT_MS: a request's headers, from its first byte (or the connection's start)
  bodyTimeoutMs: number; // SVC_BODY_TIMEOUT_MS: a request's body, from its headers (an import call's: requestTimeoutMs)
  requestTimeoutMs: number; // SVC_REQUEST_TIMEOUT_MS: an import call's body: the time spent waiting for its bytes, summed
  keepAliveTimeoutMs: number; // SVC_KEEP_ALIVE_TIMEOUT_MS: an idle connection between requests
  sendTimeoutMs: number; // SVC_SEND_TIMEOUT_MS: an answer its client takes none of
  maxConnections: number; // SVC_MAX_CONNECTIONS: connections past it are closed on accept
  maxConnectionsPerAddress: number; // SVC_MAX_CONNECTIONS_PER_ADDRESS: the same, per client (clientGroup); SVC_TRUSTED_PROXIES are exempt
}

/** How much one statistics request may take of the event store (docs/configuration.md). */
export interface ReadLimits {
  statementTimeoutMs: number; // SVC_STATEMENT_TIMEOUT_MS: a read statement is cancelled past it
  longReadsPerReader: number; // SVC_LONG_READS_PER_READER: long raw reads one key or user may run at once
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

export function parseRateLimit(text: string): RateLimit | undefined {
  const m = /^(\d{1,9})\/(\d{1,7})s$/.exec(text.trim());
  if (!m) return undefined;
  const count = Number(m[1]);
  const seconds = Number(m[2]);
  if (count < 1 || seconds < 1) return undefined;
  return { count, windowMs: seconds * 1000 };
}

/** Days a closed webhook delivery stays in its rule's history. */
export const DEFAULT_ALERT_HISTORY_DAYS = 90;

/** The least of the memory budget the live-session cache may have (about 50 000 sessions). */
const MIN_SESSION_CACHE_MB = 16;

/** What a rollup pass of 1 000 000 events needs of DuckDB's pool (src/stats/rollups/passes.ts). */
const ROLLUP_PASS_MB = 112;
/**
 * What an import's rollups hold beside DuckDB's pool, in allocations the pool does
 * not manage: about 100 MB over the process at rest beside a 112 MB pool in the 2 000 000-line
 * import test (docs/performance.md#memory). A rollup pass's size bounds it, not the pool's.
 */
const IMPORT_BESIDE_POOL_MB = 112;

/**
 * DuckDB's pool while an import rolls up: its limit less what those hold beside the
 * pool, so that the two stay within the pool's share of the budget, but never under what a rollup
 * pass needs.
 */
function importPoolMb(duckdbMb: number): number {
  return Math.min(duckdbMb, Math.max(duckdbMb - IMPORT_BESIDE_POOL_MB, ROLLUP_PASS_MB));
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
export const LOG_FORMATS = ['json', 'pretty'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const problems: string[] = [];
  const value = (name: string) => {
    const v = env[name];
    return v === undefined || v === '' ? undefined : v;
  };

  let port = 8000;
  const portText = value('PORT');
  if (portText !== undefined) {
    port = Number(portText);
    if (!/^\d+$/.test(portText) || port < 0 || port > 65535) problems.push(`PORT must be a port number 0..65535, got ${JSON.stringify(portText)}`);
  }

  const host = value('HOST') ?? '0.0.0.0';
  if (isIP(host) === 0 && !/^[a-zA-Z0-9.-]{1,253}$/.test(host)) problems.push(`HOST must be an IP address or host name, got ${JSON.stringify(host)}`);

  const adminToken = value('SVC_ADMIN_TOKEN');
  if (adminToken !== undefined && adminToken.length < 16) problems.push('SVC_ADMIN_TOKEN must be at least 16 characters');

  const rate = (name: string, fallback: string) => {
    const text = value(name) ?? fallback;
    const parsed = parseRateLimit(text);
    if (!parsed) problems.push(`${name} must look like <count>/<seconds>s (for example ${fallback}), got ${JSON.stringify(text)}`);
    return parsed ?? (parseRateLimit(fallback) as RateLimit);
  };
  const apiRateLimit = rate('SVC_API_RATE_LIMIT', '10/60s');
  const collectRateLimit = rate('SVC_COLLECT_RATE_LIMIT', '100/10s');
  const appRateLimit = rate('SVC_APP_RATE_LIMIT', '600/60s');

  const trustedProxies = (value('SVC_TRUSTED_PROXIES') ?? '').split(',').map((p) => p.trim()).filter((p) => p !== '');
  for (const proxy of trustedProxies) {
    if (isIP(proxy) === 0) problems.push(`SVC_TRUSTED_PROXIES must be a comma list of IP addresses, got ${JSON.stringify(proxy)}`);
  }

  const allowText = value('SVC_WEBHOOK_ALLOW_PRIVATE');
  if (allowText !== undefined && !['0', '1', 'true', 'false'].includes(allowText)) {
    problems.push(`SVC_WEBHOOK_ALLOW_PRIVATE must be 1 or 0, got ${JSON.stringify(allowText)}`);
  }

  const smtpUrl = value('SVC_SMTP_URL');
  if (smtpUrl !== undefined && !/^smtps?:\/\//.test(smtpUrl)) problems.push('SVC_SMTP_URL must start with smtp:// or smtps://');
  const mailFrom = value('SVC_MAIL_FROM');
  // A bare address: no display name, space or line break that could add a header.
  if (mailFrom !== undefined && !(mailFrom.length <= 254 && /^[^\s@<>"]+@[A-Za-z0-9.-]+$/.test(mailFrom))) {
    problems.push(`SVC_MAIL_FROM must be an email address such as reports@example.com, got ${JSON.stringify(mailFrom)}`);
  }


  const historyText = value('SVC_ALERT_HISTORY_DAYS') ?? String(DEFAULT_ALERT_HISTORY_DAYS);
  const alertHistoryDays = Number(historyText);
  if (!/^\d{1,4}$/.test(historyText) || alertHistoryDays < 1 || alertHistoryDays > 3650) {
    problems.push(`SVC_ALERT_HISTORY_DAYS must be a number of days 1..3650, got ${JSON.stringify(historyText)}`);
  }

  const integer = (name: string, fallback: number, min: number, max: number) => {
    const text = value(name) ?? String(fallback);
    const parsed = Number(text);
    if (/^\d{1,9}$/.test(text) && parsed >= min && parsed <= max) return parsed;
    problems.push(`${name} must be a whole number ${min}..${max}, got ${JSON.stringify(text)}`);
    return fallback;
  };
  const maxConnections = integer('SVC_MAX_CONNECTIONS', 4096, 1, 1_000_000);
  const http: ConnectionLimits = {
    headersTimeoutMs: integer('SVC_HEADERS_TIMEOUT_MS', 10_000, 100, 600_000),
    bodyTimeoutMs: integer('SVC_BODY_TIMEOUT_MS', 10_000, 100, 600_000),
    requestTimeoutMs: integer('SVC_REQUEST_TIMEOUT_MS', 300_000, 100, 3_600_000),
    keepAliveTimeoutMs: integer('SVC_KEEP_ALIVE_TIMEOUT_MS', 5_000, 100, 600_000),
    sendTimeoutMs: integer('SVC_SEND_TIMEOUT_MS', 10_000, 100, 600_000),
    maxConnections,
    // A thirty-second of the default cap: one address cannot take every slot, while a few hundred
    // browsers behind one NAT still fit (each holds one connection for the keep-alive timeout).
    maxConnectionsPerAddress: integer('SVC_MAX_CONNECTIONS_PER_ADDRESS', Math.min(128, maxConnections), 1, 1_000_000),
  };
  const reads: ReadLimits = {
    statementTimeoutMs: integer('SVC_STATEMENT_TIMEOUT_MS', 15_000, 100, 600_000),
    longReadsPerReader: integer('SVC_LONG_READS_PER_READER', 2, 1, 1000),
  };
  if (http.maxConnectionsPerAddress > maxConnections) problems.push('SVC_MAX_CONNECTIONS_PER_ADDRESS must not exceed SVC_MAX_CONNECTIONS');
  if (http.headersTimeoutMs > http.requestTimeoutMs) problems.push('SVC_HEADERS_TIMEOUT_MS must not exceed SVC_REQUEST_TIMEOUT_MS');
  if (http.bodyTimeoutMs > http.requestTimeoutMs) problems.push('SVC_BODY_TIMEOUT_MS must not exceed SVC_REQUEST_TIMEOUT_MS');
  // SVC_MEMORY_BUDGET_MB (MiB) is shared by the two holders of memory that grow with traffic: DuckDB
  // (seven eighths, or SVC_DUCKDB_MEMORY_LIMIT) and the live-session cache (the rest).
  const budgetMb = integer('SVC_MEMORY_BUDGET_MB', 512, 64, 1_048_576);
  let duckdbMb = budgetMb - Math.floor(budgetMb / 8);
  const duckdbText = value('SVC_DUCKDB_MEMORY_LIMIT');
  if (duckdbText !== undefined) {
    const m = /^(\d{1,7})(MB|GB)$/.exec(duckdbText);
    if (!m) problems.push(`SVC_DUCKDB_MEMORY_LIMIT must look like 512MB or 2GB, got ${JSON.stringify(duckdbText)}`);
    else duckdbMb = Number(m[1]) * (m[2] === 'GB' ? 1024 : 1);
  }
  const sessionCacheMb = budgetMb - duckdbMb;
  if (sessionCacheMb < MIN_SESSION_CACHE_MB) {
    problems.push(`SVC_DUCKDB_MEMORY_LIMIT (${duckdbMb} MB) leaves ${sessionCacheMb} MB of SVC_MEMORY_BUDGET_MB (${budgetMb}) for live sessions; they need ${MIN_SESSION_CACHE_MB}: raise the budget or lower the limit`);
  }
  const stopTimeoutMs = integer('SVC_STOP_TIMEOUT_MS', 10_000, 1_000, 600_000);
  const flushIntervalMs = integer('SVC_FLUSH_INTERVAL_MS', 1_000, 10, 60_000);
  const eventLogSyncMs = integer('SVC_EVENT_LOG_SYNC_MS', 100, 0, 1_000);
  // ---- SVC_PUBLIC_URL ----
  const publicUrl = value('SVC_PUBLIC_URL');
  const publicUrlProblem = publicUrl === undefined ? undefined : checkPublicUrl(publicUrl);
  if (publicUrlProblem) problems.push(`SVC_PUBLIC_URL ${publicUrlProblem}, got ${JSON.stringify(publicUrl)}`);
  // ---- end SVC_PUBLIC_URL ----
  const databaseUrl = value('SVC_DATABASE_URL');
  if (databaseUrl !== undefined && !/^postgres(ql)?:\/\/./.test(databaseUrl)) {
    problems.push('SVC_DATABASE_URL must be a PostgreSQL URL (postgres://user@host:port/database)');
  }
  const clickhouseUrl = value('SVC_CLICKHOUSE_URL');
  if (clickhouseUrl !== undefined && !isClickHouseUrl(clickhouseUrl)) {
    problems.push('SVC_CLICKHOUSE_URL must be a ClickHouse HTTP URL naming its database (http(s)://[user:password@]host:port/database)');
  }
  const redisUrl = value('SVC_REDIS_URL');
  if (redisUrl !== undefined && !isRedisUrl(redisUrl)) {
    problems.push('SVC_REDIS_URL must be a Redis URL (redis://[user:password@]host:port[/db] or rediss://… for TLS)');
  }
  const role = parseRole(value('SVC_ROLE') ?? 'all', problems);
  // A process that runs only some roles shares its stores with the processes that run the others.
  if (role.length < PROCESS_ROLES.length) {
    const missing = SHARED_STORE_VARIABLES.filter((name) => value(name) === undefined);
    if (missing.length > 0) {
      problems.push(`SVC_ROLE=${role.join(',')} runs part of the service, whose other processes share its stores: set ${missing.join(', ')} (every process of a split deployment needs SVC_DATABASE_URL, SVC_CLICKHOUSE_URL and SVC_REDIS_URL)`);
    }
  }

  const oidc = parseOidc(value, publicUrlProblem === undefined ? publicUrl?.replace(/\/+$/, '') : undefined, problems);
  // The import sends a signed assertion and bearer tokens there: HTTPS only.
  const googleUrl = (name: string, fallback: string) => {
    const text = value(name) ?? fallback;
    if (/^https:\/\/[^\s?#]+$/.test(text) && URL.canParse(text)) return text.replace(/\/+$/, '');
    problems.push(`${name} must be an https:// URL without query, got ${JSON.stringify(text)}`);
    return fallback;
  };
  const google = { tokenUrl: googleUrl('SVC_GOOGLE_TOKEN_URL', GOOGLE_ENDPOINTS.tokenUrl), dataUrl: googleUrl('SVC_GOOGLE_ANALYTICS_DATA_URL', GOOGLE_ENDPOINTS.dataUrl) };

  const logLevel = value('SVC_LOG_LEVEL') ?? 'info';
  if (!LOG_LEVELS.includes(logLevel)) problems.push(`SVC_LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`);
  const logFormat = value('SVC_LOG_FORMAT');
  const isLogFormat = (text: string): text is LogFormat => (LOG_FORMATS as readonly string[]).includes(text);
  if (logFormat !== undefined && !isLogFormat(logFormat)) problems.push(`SVC_LOG_FORMAT must be one of ${LOG_FORMATS.join(', ')}`);

  if (problems.length > 0) throw new ConfigError(problems);
  return {
    port,
    host,
    dataDir: resolve(value('SVC_DATA_DIR') ?? './data'),
    adminToken,
    apiRateLimit,
    collectRateLimit,
    appRateLimit,
    trustedProxies,
    webhookAllowPrivate: allowText === '1' || allowText === 'true',
    geoipDb: value('SVC_GEOIP_DB'),
    smtpUrl,
    mailFrom: mailFrom ?? `reports@${publicUrl !== undefined && publicUrlProblem === undefined ? new URL(publicUrl).hostname : 'localhost'}`,
    logLevel,
    logFormat: logFormat !== undefined && isLogFormat(logFormat) ? logFormat : undefined,
    duckdbMemoryLimit: `${duckdbMb}MiB`,
    duckdbImportMemoryLimit: `${importPoolMb(duckdbMb)}MiB`,
    sessionCacheBytes: sessionCacheMb * 1024 * 1024,
    alertHistoryDays,
    http,
    reads,
    stopTimeoutMs,
    flushIntervalMs,
    eventLogSyncMs,
    publicUrl: publicUrl?.replace(/\/+$/, ''),
    databaseUrl,
    clickhouseUrl,
    redisUrl,
    role,
    oidc,
    google,
  };
}

/**
 * SVC_OIDC_*: all three of issuer, client id and secret, or none; the redirect URI is built from
 * SVC_PUBLIC_URL, which the provider must know in advance, so single sign-on needs it.
 */
function parseOidc(value: (name: string) => string | undefined, publicUrl: string | undefined, problems: string[]): OidcConfig | undefined {
  const issuer = value('SVC_OIDC_ISSUER');
  const clientId = value('SVC_OIDC_CLIENT_ID');
  const clientSecret = value('SVC_OIDC_CLIENT_SECRET');
  if (issuer === undefined && clientId === undefined && clientSecret === undefined) return undefined;
  if (issuer === undefined || clientId === undefined || clientSecret === undefined) {
    problems.push('single sign-on needs SVC_OIDC_ISSUER, SVC_OIDC_CLIENT_ID and SVC_OIDC_CLIENT_SECRET together');
    return undefined;
  }
  // Over plain http the provider's keys and tokens could be swapped on the way, and oauth4webapi refuses it anyway.
  if (!/^https:\/\/[^\s]+$/.test(issuer) || URL.canParse(issuer) === false) {
    problems.push(`SVC_OIDC_ISSUER must be the provider's https:// issuer URL, got ${JSON.stringify(issuer)}`);
    return undefined;
  }
  if (publicUrl === undefined) {
    problems.push('single sign-on (SVC_OIDC_ISSUER) needs SVC_PUBLIC_URL: the provider sends browsers back to <SVC_PUBLIC_URL>/login/oidc/callback');
    return undefined;
  }
  const name = value('SVC_OIDC_NAME') ?? 'single sign-on';
  if (name.length > 64 || /[\u0000-\u001f\u007f]/.test(name)) problems.push('SVC_OIDC_NAME must be one line of at most 64 characters');
  return { issuer, clientId, clientSecret, name, redirectUri: `${publicUrl}/login/oidc/callback` };
}

/** SVC_ROLE: a comma list of process roles or `all`; an unknown name or an empty list is a problem. */
function parseRole(text: string, problems: string[]): ProcessRole[] {
  const names = text.split(',').map((name) => name.trim()).filter((name) => name !== '');
  const unknown = names.filter((name) => name !== 'all' && !(PROCESS_ROLES as readonly string[]).includes(name));
  if (names.length === 0 || unknown.length > 0) {
    problems.push(`SVC_ROLE must be a comma list of ${PROCESS_ROLES.join(', ')}, or all, got ${JSON.stringify(text)}`);
    return [...PROCESS_ROLES];
  }
  return PROCESS_ROLES.filter((role) => names.includes('all') || names.includes(role));
}

/** A redis:// or rediss:// URL with a host (and a database number, if any). */
function isRedisUrl(text: string): boolean {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return false;
  }
  return (url.protocol === 'redis:' || url.protocol === 'rediss:') && url.hostname !== '' && /^(\/\d{0,2})?$/.test(url.pathname);
}

/** An http(s) URL whose path is one database name (letters, digits, _), without query or fragment. */
function isClickHouseUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return (url.protocol === 'http:' || url.protocol === 'https:') && /^\/[A-Za-z_][A-Za-z0-9_]*$/.test(url.pathname) && url.search === '' && url.hash === '';
  } catch {
    return false;
  }
}

/** Why a public URL is unusable (an http(s) origin with an optional path, nothing else), or undefined. */
function checkPublicUrl(text: string): string | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'must be an absolute URL such as https://stats.example.com';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'must start with http:// or https://';
  if (url.username || url.password || url.search || url.hash) return 'must not carry credentials, a query or a fragment';
  return undefined;
}
