import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { ConfigError, loadConfig, parseRateLimit } from '../../src/config.js';

test('defaults work on a laptop', () => {
  const c = loadConfig({});
  assert.equal(c.port, 8000);
  assert.equal(c.host, '0.0.0.0');
  assert.equal(c.dataDir, resolve('./data'));
  assert.equal(c.adminToken, undefined);
  assert.deepEqual(c.apiRateLimit, { count: 10, windowMs: 60_000 });
  assert.deepEqual(c.collectRateLimit, { count: 100, windowMs: 10_000 });
  assert.equal(c.webhookAllowPrivate, false);
});

test('every bad value is reported, one line each', () => {
  const env = { PORT: '80a', HOST: 'bad host!', SVC_ADMIN_TOKEN: 'short', SVC_API_RATE_LIMIT: '10 per minute', SVC_COLLECT_RATE_LIMIT: '0/10s', SVC_WEBHOOK_ALLOW_PRIVATE: 'yes', SVC_SMTP_URL: 'http://mail', SVC_LOG_LEVEL: 'loud' };
  try {
    loadConfig(env);
    assert.fail('expected a ConfigError');
  } catch (err) {
    assert.ok(err instanceof ConfigError);
    assert.equal(err.problems.length, 8);
    for (const name of ['PORT', 'HOST', 'SVC_ADMIN_TOKEN', 'SVC_API_RATE_LIMIT', 'SVC_COLLECT_RATE_LIMIT', 'SVC_WEBHOOK_ALLOW_PRIVATE', 'SVC_SMTP_URL', 'SVC_LOG_LEVEL']) {
      assert.ok(err.problems.some((p) => p.startsWith(name)), `no message for ${name}`);
    }
  }
});

test('rate limits parse as <count>/<seconds>s', () => {
  assert.deepEqual(parseRateLimit('600/3600s'), { count: 600, windowMs: 3_600_000 });
  for (const bad of ['10/60', '/60s', '10/0s', '-1/60s', '1e3/60s']) assert.equal(parseRateLimit(bad), undefined, bad);
  assert.equal(loadConfig({ SVC_WEBHOOK_ALLOW_PRIVATE: '1' }).webhookAllowPrivate, true);
});

test('SVC_MAIL_FROM: an address, else reports@ the host of SVC_PUBLIC_URL, else reports@localhost; a display name or line break refused', () => {
  assert.equal(loadConfig({}).mailFrom, 'reports@localhost');
  assert.equal(loadConfig({ SVC_PUBLIC_URL: 'https://stats.example.com:8443/svc' }).mailFrom, 'reports@stats.example.com');
  assert.equal(loadConfig({ SVC_PUBLIC_URL: 'https://stats.example.com', SVC_MAIL_FROM: 'noreply@example.org' }).mailFrom, 'noreply@example.org');
  for (const bad of ['svc <a@example.com>', 'a@example.com\r\nBcc: b@example.com', 'no-at-sign', 'a b@example.com']) {
    assert.throws(() => loadConfig({ SVC_MAIL_FROM: bad }), (err: unknown) => err instanceof ConfigError && err.problems[0]!.startsWith('SVC_MAIL_FROM'), bad);
  }
});

test('SVC_PUBLIC_URL: an http(s) URL kept without its trailing slash, anything else refused', () => {
  assert.equal(loadConfig({}).publicUrl, undefined);
  assert.equal(loadConfig({ SVC_PUBLIC_URL: 'https://stats.example.com/' }).publicUrl, 'https://stats.example.com');
  assert.equal(loadConfig({ SVC_PUBLIC_URL: 'https://example.com/stats/' }).publicUrl, 'https://example.com/stats');
  for (const bad of ['stats.example.com', 'ftp://stats.example.com', 'https://u:p@stats.example.com', 'https://stats.example.com/?a=1', 'https://stats.example.com/#x']) {
    assert.throws(() => loadConfig({ SVC_PUBLIC_URL: bad }), (err: unknown) => err instanceof ConfigError && err.problems.length === 1 && err.problems[0]!.startsWith('SVC_PUBLIC_URL'), bad);
  }
});

test('connection limits, the stop deadline and the flush interval: defaults, and out-of-range values refused', () => {
  const c = loadConfig({});
  assert.deepEqual(c.http, { headersTimeoutMs: 10_000, bodyTimeoutMs: 10_000, requestTimeoutMs: 300_000, keepAliveTimeoutMs: 5_000, sendTimeoutMs: 10_000, maxConnections: 4096, maxConnectionsPerAddress: 128 });
  assert.equal(c.stopTimeoutMs, 10_000);
  assert.equal(c.flushIntervalMs, 1_000);
  assert.equal(loadConfig({ SVC_FLUSH_INTERVAL_MS: '200' }).flushIntervalMs, 200);
  const bad = { SVC_HEADERS_TIMEOUT_MS: '10s', SVC_BODY_TIMEOUT_MS: '0', SVC_KEEP_ALIVE_TIMEOUT_MS: '-1', SVC_SEND_TIMEOUT_MS: '99', SVC_MAX_CONNECTIONS: '0', SVC_MAX_CONNECTIONS_PER_ADDRESS: '1e3', SVC_STOP_TIMEOUT_MS: '999', SVC_FLUSH_INTERVAL_MS: '1.5' };
  assert.throws(
    () => loadConfig(bad),
    (err: unknown) => err instanceof ConfigError && Object.keys(bad).every((name) => err.problems.some((p) => p.startsWith(`${name} must be a whole number`))),
  );
  assert.throws(
    () => loadConfig({ SVC_HEADERS_TIMEOUT_MS: '20000', SVC_REQUEST_TIMEOUT_MS: '15000' }),
    (err: unknown) => err instanceof ConfigError && err.problems.length === 1 && err.problems[0]!.startsWith('SVC_HEADERS_TIMEOUT_MS must not exceed'),
  );
});

test('SVC_MAX_CONNECTIONS_PER_ADDRESS: 128 or SVC_MAX_CONNECTIONS if lower by default; above SVC_MAX_CONNECTIONS refused', () => {
  const cases: Array<[Record<string, string>, number]> = [
    [{}, 128],
    [{ SVC_MAX_CONNECTIONS: '50' }, 50],
    [{ SVC_MAX_CONNECTIONS_PER_ADDRESS: '16' }, 16],
    [{ SVC_MAX_CONNECTIONS: '100', SVC_MAX_CONNECTIONS_PER_ADDRESS: '100' }, 100],
  ];
  for (const [env, perAddress] of cases) assert.equal(loadConfig(env).http.maxConnectionsPerAddress, perAddress, JSON.stringify(env));
  for (const [env, problem] of [
    [{ SVC_MAX_CONNECTIONS_PER_ADDRESS: '0' }, 'SVC_MAX_CONNECTIONS_PER_ADDRESS must be a whole number 1..1000000, got "0"'],
    [{ SVC_MAX_CONNECTIONS_PER_ADDRESS: 'many' }, 'SVC_MAX_CONNECTIONS_PER_ADDRESS must be a whole number 1..1000000, got "many"'],
    [{ SVC_MAX_CONNECTIONS: '100', SVC_MAX_CONNECTIONS_PER_ADDRESS: '200' }, 'SVC_MAX_CONNECTIONS_PER_ADDRESS must not exceed SVC_MAX_CONNECTIONS'],
  ] as const) {
    assert.throws(() => loadConfig(env), (err: unknown) => err instanceof ConfigError && err.problems.length === 1 && err.problems[0] === problem, JSON.stringify(env));
  }
});

test('SVC_DATABASE_URL: unset keeps SQLite; a PostgreSQL URL is taken; anything else is refused', () => {
  assert.equal(loadConfig({}).databaseUrl, undefined);
  assert.equal(loadConfig({ SVC_DATABASE_URL: 'postgres://svc@db:5432/svc' }).databaseUrl, 'postgres://svc@db:5432/svc');
  assert.equal(loadConfig({ SVC_DATABASE_URL: 'postgresql://db/svc' }).databaseUrl, 'postgresql://db/svc');
  for (const bad of ['mysql://db/svc', 'db:5432', 'postgres://']) {
    assert.throws(() => loadConfig({ SVC_DATABASE_URL: bad }), (err: unknown) => err instanceof ConfigError && err.problems[0]!.startsWith('SVC_DATABASE_URL'), bad);
  }
});

test('SVC_CLICKHOUSE_URL and SVC_REDIS_URL: unset keeps the embedded stores; http(s) and redis(s) URLs are taken; anything else is refused', () => {
  assert.equal(loadConfig({}).clickhouseUrl, undefined);
  assert.equal(loadConfig({}).redisUrl, undefined);
  assert.equal(loadConfig({ SVC_CLICKHOUSE_URL: 'https://svc:pw@ch:8443/svc' }).clickhouseUrl, 'https://svc:pw@ch:8443/svc');
  assert.equal(loadConfig({ SVC_REDIS_URL: 'rediss://cache:6380' }).redisUrl, 'rediss://cache:6380');
  for (const [name, bad] of [['SVC_CLICKHOUSE_URL', 'tcp://ch:9000'], ['SVC_CLICKHOUSE_URL', 'ch:8123'], ['SVC_REDIS_URL', 'http://cache:6379'], ['SVC_REDIS_URL', 'redis://']] as const) {
    assert.throws(() => loadConfig({ [name]: bad }), (err: unknown) => err instanceof ConfigError && err.problems[0]!.startsWith(name), bad);
  }
});

const SHARED_STORES = { SVC_DATABASE_URL: 'postgres://svc@db/svc', SVC_CLICKHOUSE_URL: 'http://ch:8123/svc', SVC_REDIS_URL: 'redis://cache:6379' };

test('SVC_ROLE: all by default; a comma list of collect, api and worker, in that order, each once; all is the three', () => {
  assert.deepEqual(loadConfig({}).role, ['collect', 'api', 'worker']);
  assert.deepEqual(loadConfig({ SVC_ROLE: 'all' }).role, ['collect', 'api', 'worker']);
  assert.deepEqual(loadConfig({ SVC_ROLE: 'worker, collect,worker', ...SHARED_STORES }).role, ['collect', 'worker']);
  assert.deepEqual(loadConfig({ SVC_ROLE: 'api', ...SHARED_STORES }).role, ['api']);
  assert.deepEqual(loadConfig({ SVC_ROLE: 'api,all' }).role, ['collect', 'api', 'worker']);
  for (const bad of ['collector', 'api,workers', ',', ' , ']) {
    assert.throws(
      () => loadConfig({ SVC_ROLE: bad, ...SHARED_STORES }),
      (err: unknown) => err instanceof ConfigError && err.problems.length === 1 && err.problems[0]!.startsWith('SVC_ROLE must be a comma list of collect, api, worker, or all'),
      bad,
    );
  }
});

test('a role other than all needs the three shared stores, and the message names every one missing', () => {
  const problemsOf = (env: Record<string, string>) => {
    try {
      loadConfig(env);
      return [];
    } catch (err) {
      assert.ok(err instanceof ConfigError);
      return err.problems;
    }
  };
  const [problem, ...others] = problemsOf({ SVC_ROLE: 'collect' });
  assert.deepEqual(others, []);
  assert.match(problem!, /^SVC_ROLE=collect .*set SVC_DATABASE_URL, SVC_CLICKHOUSE_URL, SVC_REDIS_URL \(/);
  assert.match(problemsOf({ SVC_ROLE: 'api,worker', SVC_DATABASE_URL: SHARED_STORES.SVC_DATABASE_URL })[0]!, /^SVC_ROLE=api,worker .*set SVC_CLICKHOUSE_URL, SVC_REDIS_URL \(/);
  assert.match(problemsOf({ SVC_ROLE: 'worker', SVC_DATABASE_URL: SHARED_STORES.SVC_DATABASE_URL, SVC_CLICKHOUSE_URL: SHARED_STORES.SVC_CLICKHOUSE_URL })[0]!, /set SVC_REDIS_URL \(/);
  assert.deepEqual(problemsOf({ SVC_ROLE: 'worker', ...SHARED_STORES }), []);
  // The embedded profile keeps working alone, and with metadata alone in PostgreSQL.
  assert.deepEqual(problemsOf({ SVC_DATABASE_URL: SHARED_STORES.SVC_DATABASE_URL }), []);
  assert.deepEqual(problemsOf({ SVC_ROLE: 'collect,api,worker' }), []);
});

test('SVC_REDIS_URL: unset keeps the counters in process; a redis:// or rediss:// URL is taken; anything else is refused', () => {
  assert.equal(loadConfig({}).redisUrl, undefined);
  for (const good of ['redis://127.0.0.1:6379', 'rediss://user:secret@cache.example:6380/2', 'redis://cache']) {
    assert.equal(loadConfig({ SVC_REDIS_URL: good }).redisUrl, good);
  }
  for (const bad of ['http://cache:6379', 'cache:6379', 'redis://', 'redis://cache/db', 'redis://cache:6379/0/1']) {
    assert.throws(() => loadConfig({ SVC_REDIS_URL: bad }), (err: unknown) => err instanceof ConfigError && err.problems[0]!.startsWith('SVC_REDIS_URL'), bad);
  }
});

test('SVC_CLICKHOUSE_URL: unset keeps DuckDB; an http(s) URL naming a database is taken; anything else is refused', () => {
  assert.equal(loadConfig({}).clickhouseUrl, undefined);
  assert.equal(loadConfig({ SVC_CLICKHOUSE_URL: 'http://ch:8123/svc' }).clickhouseUrl, 'http://ch:8123/svc');
  assert.equal(loadConfig({ SVC_CLICKHOUSE_URL: 'https://svc:secret@ch.example.com:8443/events_db' }).clickhouseUrl, 'https://svc:secret@ch.example.com:8443/events_db');
  for (const bad of ['clickhouse://ch:9000/svc', 'http://ch:8123', 'http://ch:8123/', 'http://ch:8123/a/b', 'http://ch:8123/svc?x=1', 'http://ch:8123/bad-name', 'ch:8123/svc']) {
    assert.throws(() => loadConfig({ SVC_CLICKHOUSE_URL: bad }), (err: unknown) => err instanceof ConfigError && err.problems[0]!.startsWith('SVC_CLICKHOUSE_URL'), bad);
  }
});

test('SVC_OIDC_*: all three with SVC_PUBLIC_URL make single sign-on (redirect URI from the public URL); one missing, or no public URL, stops the start with one line', () => {
  const oidc = { SVC_OIDC_ISSUER: 'https://login.example.com/realms/staff', SVC_OIDC_CLIENT_ID: 'svc', SVC_OIDC_CLIENT_SECRET: 'secret' };
  assert.equal(loadConfig({}).oidc, undefined);
  assert.deepEqual(loadConfig({ ...oidc, SVC_PUBLIC_URL: 'https://stats.example.com/' }).oidc, {
    issuer: 'https://login.example.com/realms/staff',
    clientId: 'svc',
    clientSecret: 'secret',
    name: 'single sign-on',
    redirectUri: 'https://stats.example.com/login/oidc/callback',
  });
  assert.equal(loadConfig({ ...oidc, SVC_PUBLIC_URL: 'https://example.com/stats', SVC_OIDC_NAME: 'Acme ID' }).oidc?.name, 'Acme ID');
  const refused: Array<[Record<string, string>, RegExp]> = [
    [oidc, /^single sign-on \(SVC_OIDC_ISSUER\) needs SVC_PUBLIC_URL/],
    [{ ...oidc, SVC_OIDC_CLIENT_SECRET: '', SVC_PUBLIC_URL: 'https://stats.example.com' }, /^single sign-on needs SVC_OIDC_ISSUER, SVC_OIDC_CLIENT_ID and SVC_OIDC_CLIENT_SECRET together/],
    [{ ...oidc, SVC_OIDC_ISSUER: 'login.example.com', SVC_PUBLIC_URL: 'https://stats.example.com' }, /^SVC_OIDC_ISSUER must be/],
    [{ ...oidc, SVC_OIDC_ISSUER: 'http://login.example.com', SVC_PUBLIC_URL: 'https://stats.example.com' }, /^SVC_OIDC_ISSUER must be the provider's https:\/\/ issuer URL, got "http:\/\/login.example.com"$/],
    [{ ...oidc, SVC_OIDC_NAME: 'two\nlines', SVC_PUBLIC_URL: 'https://stats.example.com' }, /^SVC_OIDC_NAME must be one line/],
  ];
  for (const [env, problem] of refused) {
    assert.throws(() => loadConfig(env), (err: unknown) => err instanceof ConfigError && err.problems.length === 1 && problem.test(err.problems[0]!), JSON.stringify(env));
  }
});
