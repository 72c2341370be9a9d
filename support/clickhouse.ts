// A private ClickHouse for the tests of one file: a child process of the test, in a temporary
// directory of its own, listening on 127.0.0.1 only on a free port. Two engines: Debian's
// clickhouse-server 18.16 (the native TCP port is also free-chosen, the server needs one), and the
// current ClickHouse, 26.7, as the library of the npm package `chdb` behind a stand-in of the HTTP
// interface (./clickhouse-chdb.ts). A missing engine fails the test that asked: it never skips.
//
// `clickhouseServer()` starts one per test process (node --test runs each file in its own), on the
// engine SVC_TEST_CLICKHOUSE names (`server`, Debian's 18.16, unless it says `chdb`), on first call, and kills it (its
// own PID) when the process exits; each caller takes fresh databases from it (`freshDatabaseUrl`).
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from './ports.js';

/** The engines a test's ClickHouse runs on: the current one in the chdb library, and Debian's server. */
export const CLICKHOUSE_ENGINES = {
  chdb: 'ClickHouse 26.7 (npm package chdb) behind support/clickhouse-chdb.ts',
  server: "ClickHouse 18.16 (Debian's clickhouse-server)",
} as const;
export type ClickHouseEngine = keyof typeof CLICKHOUSE_ENGINES;

/** The engine of this test process: SVC_TEST_CLICKHOUSE, Debian's server when unset. */
export function testEngine(): ClickHouseEngine {
  const named = process.env.SVC_TEST_CLICKHOUSE ?? 'server';
  if (!Object.hasOwn(CLICKHOUSE_ENGINES, named)) throw new Error(`SVC_TEST_CLICKHOUSE is chdb or server, not ${JSON.stringify(named)}`);
  return named as ClickHouseEngine;
}

const BINARY = '/usr/sbin/clickhouse-server';

export interface ClickHouseServer {
  /** `http://127.0.0.1:port` of the server, user `default` without password. */
  url: string;
  /** The server's process id (a bench reads its CPU time from /proc). */
  pid: number;
  stop(): Promise<void>;
  /** Stops it at once (SIGKILL to its own PID) and removes its directory: for the process's exit. */
  kill(): void;
}

/**
 * The server's configuration, tuned to start fast and stay small: no part log, statements logged
 * only by a server started to log them, small caches, no background pools beyond what MergeTree
 * needs, loopback only.
 */
function configXml(dir: string, httpPort: number, tcpPort: number): string {
  return `<?xml version="1.0"?>
<yandex>
  <logger><level>warning</level><console>1</console></logger>
  <listen_host>127.0.0.1</listen_host>
  <http_port>${httpPort}</http_port>
  <tcp_port>${tcpPort}</tcp_port>
  <path>${dir}/data/</path>
  <tmp_path>${dir}/tmp/</tmp_path>
  <user_files_path>${dir}/user_files/</user_files_path>
  <format_schema_path>${dir}/format_schemas/</format_schema_path>
  <users_config>${dir}/users.xml</users_config>
  <default_profile>default</default_profile>
  <default_database>default</default_database>
  <timezone>UTC</timezone>
  <mark_cache_size>67108864</mark_cache_size>
  <uncompressed_cache_size>67108864</uncompressed_cache_size>
  <max_concurrent_queries>64</max_concurrent_queries>
  <background_pool_size>2</background_pool_size>
  <mlock_executable>false</mlock_executable>
  <builtin_dictionaries_reload_interval>0</builtin_dictionaries_reload_interval>
  <keep_alive_timeout>3</keep_alive_timeout>
  <max_session_timeout>3600</max_session_timeout>
  <default_session_timeout>60</default_session_timeout>
</yandex>
`;
}

/** The users' configuration: user `default`, on 2 threads a statement, its statements logged to `system.query_log` only when asked. */
const usersXml = (logQueries: boolean) => `<?xml version="1.0"?>
<yandex>
  <profiles><default><max_threads>2</max_threads><log_queries>${logQueries ? 1 : 0}</log_queries></default></profiles>
  <users>
    <default>
      <password></password>
      <networks><ip>127.0.0.1</ip></networks>
      <profile>default</profile>
      <quota>default</quota>
    </default>
  </users>
  <quotas><default><interval><duration>3600</duration><queries>0</queries><errors>0</errors><result_rows>0</result_rows><read_rows>0</read_rows><execution_time>0</execution_time></interval></default></quotas>
</yandex>
`;

async function answers(url: string): Promise<boolean> {
  try {
    const res = await fetch(`${url}/?query=SELECT%201`, { signal: AbortSignal.timeout(1000) });
    return res.ok && (await res.text()).trim() === '1';
  } catch {
    return false;
  }
}

/**
 * Starts a ClickHouse of its own on `engine` (SVC_TEST_CLICKHOUSE's unless told: a bench run with
 * SVC_TEST_CLICKHOUSE=chdb measures the current engine) and waits until it
 * answers a query (at most `timeoutMs`). With `logQueries` (the server only), each statement's run is
 * in `system.query_log` (a bench's measure of the server's own CPU time). With `dir`, it keeps its
 * files in that folder and leaves them at its stop: a later start on the same folder holds the same
 * databases (a bench's data kept between runs).
 */
export async function startClickHouse(options: StartOptions = {}): Promise<ClickHouseServer> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnce(options);
    } catch (error) {
      // A port found free can be taken before the server binds it (by another process's outgoing
      // connection, whose port comes from the same range): the server exits, and starts on new ports.
      if (!(error instanceof PortTaken) || attempt === 3) throw error;
    }
  }
}

interface StartOptions {
  engine?: ClickHouseEngine;
  timeoutMs?: number;
  logQueries?: boolean;
  dir?: string;
}

class PortTaken extends Error {}

/** An engine's process, and its HTTP port once known. */
interface Spawned {
  child: ChildProcess;
  port(): number | null;
}

async function spawnServer(dir: string, logQueries: boolean): Promise<Spawned> {
  if (!existsSync(BINARY)) throw new Error(`ClickHouse server binary ${BINARY} is missing: these tests need it (Debian package clickhouse-server)`);
  for (const sub of ['tmp', 'user_files', 'format_schemas']) mkdirSync(join(dir, sub), { recursive: true });
  const [httpPort, tcpPort] = [await freePort(), await freePort()];
  writeFileSync(join(dir, 'config.xml'), configXml(dir, httpPort, tcpPort));
  writeFileSync(join(dir, 'users.xml'), usersXml(logQueries));
  const child = spawn(BINARY, [`--config-file=${join(dir, 'config.xml')}`], { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
  return { child, port: () => httpPort };
}

/** The stand-in's script, run by this Node with tsx from the project's folder. */
const STAND_IN = fileURLToPath(new URL('./clickhouse-chdb.ts', import.meta.url));
const PROJECT = fileURLToPath(new URL('..', import.meta.url));

/** The chdb stand-in on `dir`/data, on the port the system gives it, which its first line says. */
function spawnChdb(dir: string): Spawned {
  const env: NodeJS.ProcessEnv = { ...process.env, TZ: 'UTC' };
  delete env.NODE_TEST_CONTEXT;
  // Its stdin stays open as long as this process lives: a test process killed takes its stand-in with it.
  const child = spawn(process.execPath, ['--import', 'tsx', STAND_IN, join(dir, 'data')], { cwd: PROJECT, env, stdio: ['pipe', 'pipe', 'pipe'] });
  (child.stdin as unknown as { unref(): void }).unref();
  let port: number | null = null;
  let said = '';
  child.stdout!.on('data', (d) => {
    if (port !== null) return;
    said += d;
    const line = /^listening on (\d+)$/m.exec(said);
    if (line) port = Number(line[1]);
  });
  (child.stdout as unknown as { unref(): void }).unref();
  return { child, port: () => port };
}

async function startOnce({ engine = testEngine(), timeoutMs = 60_000, logQueries = false, dir: keptDir }: StartOptions): Promise<ClickHouseServer> {
  if (logQueries && engine !== 'server') throw new Error('only the server engine logs statements to system.query_log (the chdb stand-in keeps none)');
  const dir = keptDir ?? mkdtempSync(join(tmpdir(), 'svc-clickhouse-'));
  mkdirSync(join(dir, 'data'), { recursive: true });
  const removeDir = () => {
    if (keptDir === undefined) rmSync(dir, { recursive: true, force: true });
  };
  let spawned: Spawned;
  try {
    spawned = engine === 'server' ? await spawnServer(dir, logQueries) : spawnChdb(dir);
  } catch (err) {
    removeDir();
    throw err;
  }
  const { child, port } = spawned;
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr = (stderr + d).slice(-8000)));
  // The engine never keeps the test process alive: it is stopped, or killed at the process's exit.
  child.unref();
  (child.stderr as unknown as { unref(): void }).unref();
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let gone = false;
  void exited.then(() => (gone = true));
  const stop = async () => {
    if (!gone) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    }
    removeDir();
  };
  const kill = () => {
    if (!gone) child.kill('SIGKILL');
    removeDir();
  };
  const deadline = Date.now() + timeoutMs;
  const url = () => `http://127.0.0.1:${port()}`;
  while (port() === null || !(await answers(url()))) {
    if (gone || Date.now() > deadline) {
      await stop();
      const message = `ClickHouse (${CLICKHOUSE_ENGINES[engine]}) did not start (${gone ? 'exited' : 'timed out'}):\n${stderr}`;
      throw gone && stderr.includes('Address already in use') ? new PortTaken(message) : new Error(message);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { url: url(), pid: child.pid!, stop, kill };
}

let shared: Promise<ClickHouseServer> | null = null;

/** The ClickHouse of this test process (so of one test file), on the engine of `testEngine()`, started on first call, stopped at exit. */
export function clickhouseServer(): Promise<ClickHouseServer> {
  if (shared === null) {
    shared = startClickHouse({ engine: testEngine() });
    void shared.then((server) => process.once('exit', () => server.kill()), () => undefined);
  }
  return shared;
}

/** The URL of a new, not yet created database on the process's server (the store creates it). */
export async function freshDatabaseUrl(): Promise<string> {
  const server = await clickhouseServer();
  return `${server.url}/svc_test_${randomBytes(6).toString('hex')}`;
}
