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
  logLevel: string;
  duckdbMemoryLimit: string; // SVC_DUCKDB_MEMORY_LIMIT
  alertHistoryDays: number; // SVC_ALERT_HISTORY_DAYS
  /** SVC_PUBLIC_URL: where browsers and people reach the service (the snippet, printed links); no trailing slash. */
  publicUrl: string | undefined;
  databaseUrl: string | undefined; // SVC_DATABASE_URL: metadata in PostgreSQL instead of SQLite
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

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

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

  const duckdbMemoryLimit = value('SVC_DUCKDB_MEMORY_LIMIT') ?? '512MB';
  if (!/^\d{1,6}(MB|GB)$/.test(duckdbMemoryLimit)) problems.push(`SVC_DUCKDB_MEMORY_LIMIT must look like 512MB or 2GB, got ${JSON.stringify(duckdbMemoryLimit)}`);

  const historyText = value('SVC_ALERT_HISTORY_DAYS') ?? String(DEFAULT_ALERT_HISTORY_DAYS);
  const alertHistoryDays = Number(historyText);
  if (!/^\d{1,4}$/.test(historyText) || alertHistoryDays < 1 || alertHistoryDays > 3650) {
    problems.push(`SVC_ALERT_HISTORY_DAYS must be a number of days 1..3650, got ${JSON.stringify(historyText)}`);
  }

  // ---- SVC_PUBLIC_URL ----
  const publicUrl = value('SVC_PUBLIC_URL');
  const publicUrlProblem = publicUrl === undefined ? undefined : checkPublicUrl(publicUrl);
  if (publicUrlProblem) problems.push(`SVC_PUBLIC_URL ${publicUrlProblem}, got ${JSON.stringify(publicUrl)}`);
  // ---- end SVC_PUBLIC_URL ----
  const databaseUrl = value('SVC_DATABASE_URL');
  if (databaseUrl !== undefined && !/^postgres(ql)?:\/\/./.test(databaseUrl)) {
    problems.push('SVC_DATABASE_URL must be a PostgreSQL URL (postgres://user@host:port/database)');
  }

  const logLevel = value('SVC_LOG_LEVEL') ?? 'info';
  if (!LOG_LEVELS.includes(logLevel)) problems.push(`SVC_LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`);

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
    logLevel,
    duckdbMemoryLimit,
    alertHistoryDays,
    publicUrl: publicUrl?.replace(/\/+$/, ''),
    databaseUrl,
  };
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
