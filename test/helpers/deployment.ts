// deploy/compose.yml run as local processes: every svc service with the command and environment
// the file declares, and nginx with deploy/nginx.conf, the addresses alone replaced by the test's
// (a fresh PostgreSQL database, a fresh database on the test process's private ClickHouse behind a
// gate the test can shut, a Redis database index of its own, free ports, temp data dirs). Each
// process's data dir is a temp dir of its own, as each service's volume is its own: the processes
// share only PostgreSQL, ClickHouse and Redis (import uploads included).
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { projectRoot } from '../../src/core/paths.js';
import { until } from '../alerts/helpers/process.js';
import { spawnLogged, type LoggedProcess } from './child.js';
import { clickhouseServer } from '../../support/clickhouse.js';
import { NGINX_CONF, readCompose, svcServices, volumeMounts, type ComposeFile, type ComposeService } from './compose.js';
import { sumOfSamples } from './metrics.js';
import { startNginx, type NginxProcess } from './nginx.js';
import { freePort } from '../../support/ports.js';
import { createTestDatabase, type TestDatabase } from '../../support/postgres.js';
import { testRedis } from '../../support/counters.js';
import { ADMIN_TOKEN } from './server.js';
import { startTcpGate, type TcpGate } from './tcp-gate.js';

/** The variables of compose.yml's svc services that hold an address: the only ones a test replaces. */
export const ADDRESS_VARIABLES = ['HOST', 'PORT', 'SVC_DATA_DIR', 'SVC_DATABASE_URL', 'SVC_CLICKHOUSE_URL', 'SVC_REDIS_URL', 'SVC_PUBLIC_URL', 'SVC_TRUSTED_PROXIES'] as const;

/** What deploy/.env holds in a real deployment; the passwords only reach addresses the test replaces. */
const DOT_ENV: Record<string, string> = {
  POSTGRES_PASSWORD: 'replaced-by-the-test-database',
  CLICKHOUSE_PASSWORD: 'replaced-by-the-test-database',
  SVC_ADMIN_TOKEN: ADMIN_TOKEN,
};

const REDIS = 'redis://127.0.0.1:6379';

export interface SvcInstance {
  /** The compose service it runs (`collect-1`, `worker`, …). */
  service: string;
  /** The service's name, with `#2`, `#3` … for further instances of it. */
  name: string;
  url: string;
  env: Record<string, string>;
  process: LoggedProcess;
  /** Sends `signal` and resolves with how the process ended. */
  stop(signal?: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export interface Deployment {
  compose: ComposeFile;
  /** The proxy: the deployment's only public address. */
  url: string;
  instances: SvcInstance[];
  instance(name: string): SvcInstance;
  /** Starts one more process of a compose service (a second worker, say), with a data dir of its own. */
  start(service: string): Promise<SvcInstance>;
  /** Between every svc process and ClickHouse: shut, it stands for a stopped ClickHouse. */
  clickhouseGate: TcpGate;
  /** `/admin/v1` through the proxy. */
  admin<T = any>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }>;
  /** The sum of the samples of one process's /metrics whose line `line` matches (0 when none does). */
  metric(instance: SvcInstance, line: RegExp): Promise<number>;
  /** Raw events in the deployment's ClickHouse database, read from the server itself. */
  storedEvents(): Promise<{ events: number; sessions: number; visitors: number }>;
  /** SIGTERM to every process still running; drops the databases and removes the data dirs. */
  stop(): Promise<void>;
}

export interface DeploymentOptions {
  /** Variables the test adds to every svc process beyond compose.yml's (a test CA, say). */
  extraEnv?: Record<string, string>;
}

/** ClickHouse's HTTP answer to `query` (FORMAT JSON) on `serverUrl`, database `database`. */
async function clickhouseRows(serverUrl: string, database: string, query: string): Promise<Array<Record<string, string>>> {
  const res = await fetch(`${serverUrl}/?database=${database}`, { method: 'POST', body: `${query} FORMAT JSON` });
  const text = await res.text();
  if (!res.ok) throw new Error(`ClickHouse: ${text}`);
  return (JSON.parse(text) as { data: Array<Record<string, string>> }).data;
}

/**
 * deploy/nginx.conf as the proxy runs it: `${NAME}` of the proxy's environment filled in (as the
 * nginx image does for the variables NGINX_ENVSUBST_FILTER matches), each upstream `server
 * host:port` and the `listen` port replaced through `addresses`.
 */
export function renderProxyConfig(proxy: ComposeService, addresses: Map<string, string>): string {
  const filter = new RegExp(proxy.environment.NGINX_ENVSUBST_FILTER ?? '');
  const filled = readFileSync(NGINX_CONF, 'utf8').replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (whole, name: string) =>
    name in proxy.environment && filter.test(name) ? proxy.environment[name]! : whole,
  );
  const address = (declared: string) => {
    const replacement = addresses.get(declared);
    if (replacement === undefined) throw new Error(`deploy/nginx.conf names ${declared}, which is no address of compose.yml`);
    return replacement;
  };
  return filled
    .replace(/^(\s*server\s+)([\w.-]+:\d+)/gm, (whole, head: string, declared: string) => head + address(declared))
    .replace(/^(\s*listen\s+)(\d+)/gm, (whole, head: string, port: string) => head + address(port));
}

/** How long a deployment's hold on a Redis database lasts unless released (a test process that died). */
const REDIS_LEASE_SECONDS = 30 * 60;

/**
 * A Redis database (1 to 15) no other running deployment holds, emptied: svc's keys have one prefix,
 * so two deployments on one database would share their sessions and rate-limit windows (one's
 * requests could be refused for the other's), and a database used before holds what that left.
 * Held by a key in database 0 until `release`; a deployment waits while all fifteen are held.
 */
async function leaseRedisDatabase(): Promise<{ index: number; release(): Promise<void> }> {
  const redis = await testRedis();
  const holder = `${process.pid}:${randomBytes(4).toString('hex')}`;
  try {
    for (let round = 0; ; round++) {
      for (let index = 1; index <= 15; index++) {
        const key = `svc-test:deployment-db:${index}`;
        if ((await redis.set(key, holder, 'EX', REDIS_LEASE_SECONDS, 'NX')) !== 'OK') continue;
        await redis.select(index);
        await redis.flushdb();
        await redis.select(0);
        return {
          index,
          release: async () => {
            if ((await redis.get(key)) === holder) await redis.del(key);
            redis.disconnect();
          },
        };
      }
      if (round === 600) throw new Error('every Redis database 1 - 15 is held by another deployment');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } catch (err) {
    redis.disconnect();
    throw err;
  }
}

export async function startDeployment(options: DeploymentOptions = {}): Promise<Deployment> {
  const clickhouse = await clickhouseServer();
  const clickhousePort = Number(new URL(clickhouse.url).port);
  const clickhouseDatabase = `svc_scaleout_${randomBytes(6).toString('hex')}`;
  const redisDb = await leaseRedisDatabase();
  const [database, clickhouseGate, proxyPort] = await Promise.all([createTestDatabase(), startTcpGate(clickhousePort), freePort()]);
  const proxyUrl = `http://127.0.0.1:${proxyPort}`;
  const compose = readCompose(DOT_ENV);
  const dirs: string[] = [];
  const instances: SvcInstance[] = [];
  let nginx: NginxProcess | undefined;

  const addresses = async (): Promise<Record<(typeof ADDRESS_VARIABLES)[number], string>> => {
    const dataDir = mkdtempSync(join(tmpdir(), 'svc-scaleout-'));
    dirs.push(dataDir);
    return {
      HOST: '127.0.0.1',
      PORT: String(await freePort()),
      SVC_DATA_DIR: dataDir,
      SVC_DATABASE_URL: database.url,
      SVC_CLICKHOUSE_URL: `http://127.0.0.1:${clickhouseGate.port}/${clickhouseDatabase}`,
      SVC_REDIS_URL: `${REDIS}/${redisDb.index}`,
      SVC_PUBLIC_URL: proxyUrl,
      SVC_TRUSTED_PROXIES: '127.0.0.1',
    };
  };

  /** A service's volumes are one named volume at SVC_DATA_DIR, which the process's own temp data dir stands for. */
  const checkVolumes = (service: ComposeService) => {
    for (const mount of volumeMounts(compose, service)) {
      if (!mount.named || mount.target !== service.environment.SVC_DATA_DIR) throw new Error(`${service.name} mounts ${mount.source} at ${mount.target}: the tests run one named volume at SVC_DATA_DIR per process, shared with none`);
    }
  };

  const run = async (argv: string[], env: Record<string, string>): Promise<number | null> => {
    const [program, ...args] = argv;
    const child = spawn(program === 'node' ? process.execPath : program!, args, { env: { PATH: process.env.PATH, ...env }, stdio: 'ignore' });
    return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
  };

  const start = async (serviceName: string): Promise<SvcInstance> => {
    const service = compose.services.get(serviceName);
    if (!service) throw new Error(`compose.yml has no service ${serviceName}`);
    const env = { ...service.environment, ...(await addresses()), ...options.extraEnv };
    checkVolumes(service);
    const [program, ...args] = service.command;
    // The image's WORKDIR is the project's root; PATH and HOME are the image's own variables.
    const started = spawnLogged([program === 'node' ? process.execPath : program!, ...args], { PATH: process.env.PATH, HOME: process.env.HOME, ...env }, projectRoot());
    const count = instances.filter((i) => i.service === serviceName).length;
    const url = `http://127.0.0.1:${env.PORT}`;
    const instance: SvcInstance = {
      service: serviceName,
      name: count === 0 ? serviceName : `${serviceName}#${count + 1}`,
      url,
      env,
      process: started,
      async stop(signal = 'SIGTERM') {
        if (started.child.exitCode === null && started.child.signalCode === null) started.child.kill(signal);
        return started.exited;
      },
    };
    instances.push(instance);
    let exitedEarly = false;
    void started.exited.then(() => (exitedEarly = true));
    await until(
      `${instance.name} to answer /healthz`,
      async () => {
        if (exitedEarly) throw new Error(`${instance.name} exited before it was healthy:\n${started.logs()}`);
        return fetch(`${url}/healthz`).then((r) => (r.ok ? true : undefined), () => undefined);
      },
      60_000,
    );
    // The compose health check itself passes too.
    const test = service.healthcheck?.test ?? [];
    if (test[0] !== 'CMD') throw new Error(`${serviceName}: the health check is not in CMD form`);
    const code = await run(test.slice(1), env);
    if (code !== 0) throw new Error(`${instance.name}: compose.yml's health check exited ${code}`);
    return instance;
  };

  const stop = async () => {
    await Promise.all(instances.map((instance) => instance.stop('SIGTERM')));
    await nginx?.stop();
    await clickhouseGate.close();
    await database.drop();
    await clickhouseRows(clickhouse.url, 'default', `DROP DATABASE IF EXISTS ${clickhouseDatabase}`).catch(() => undefined);
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    await redisDb.release();
  };

  try {
    for (const service of svcServices(compose)) await start(service.name);
    const api = instances.find((i) => i.env.SVC_ROLE === 'api');
    if (!api) throw new Error('compose.yml runs no api process');
    // The operator's first step (docs/scale-out.md): a relay key for the proxy, made on the api.
    const relay = await fetch(`${api.url}/admin/v1/relay-keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'proxy' }),
    });
    if (relay.status !== 201) throw new Error(`relay key: ${relay.status} ${await relay.text()}`);
    const relayKey = ((await relay.json()) as { key: string }).key;
    const proxy = readCompose({ ...DOT_ENV, SVC_RELAY_KEY: relayKey }).services.get('proxy');
    if (!proxy) throw new Error('compose.yml has no proxy service');
    const published = /^(?:.*:)?(\d+)$/.exec(proxy.ports[0] ?? '')?.[1];
    if (published === undefined) throw new Error('the proxy publishes no port');
    const upstreams = new Map<string, string>([[published, `127.0.0.1:${proxyPort}`]]);
    for (const instance of instances) upstreams.set(`${instance.service}:${compose.services.get(instance.service)!.environment.PORT}`, `127.0.0.1:${instance.env.PORT}`);
    nginx = await startNginx(renderProxyConfig(proxy, upstreams), [proxyPort]);
  } catch (err) {
    const logs = instances.map((i) => `--- ${i.name}\n${i.process.logs().slice(-4000)}`).join('\n');
    await stop();
    throw new Error(`${err instanceof Error ? err.message : String(err)}\n${logs}`);
  }

  return {
    compose,
    url: proxyUrl,
    instances,
    instance(name) {
      const found = instances.find((i) => i.name === name);
      if (!found) throw new Error(`no process ${name} (${instances.map((i) => i.name).join(', ')})`);
      return found;
    },
    start,
    clickhouseGate,
    async admin(method, path, body) {
      const res = await fetch(`${proxyUrl}/admin/v1${path}`, {
        method,
        headers: { authorization: `Bearer ${ADMIN_TOKEN}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : undefined };
    },
    async metric(instance, line) {
      const res = await fetch(`${instance.url}/metrics`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
      return sumOfSamples(await res.text(), line);
    },
    async storedEvents() {
      const [row] = await clickhouseRows(
        clickhouse.url,
        clickhouseDatabase,
        'SELECT count() AS events, count(DISTINCT session_id) AS sessions, count(DISTINCT visitor_id) AS visitors FROM events',
      );
      return { events: Number(row?.events ?? 0), sessions: Number(row?.sessions ?? 0), visitors: Number(row?.visitors ?? 0) };
    },
    stop,
  };
}
