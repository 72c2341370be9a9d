// What the collection benches share: svc started as `npm start` starts it, in a process of its own,
// wrk as the load generator, and the admin API and /metrics of a running process.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';

export const TOKEN = 'bench-admin-token-0123456789';

export async function waitHealthy(url: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} never became healthy`);
}

export function spawnNode(args: string[], env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'inherit'] });
}

/** svc as `npm start` starts it (its node flags included), without npm's own process. */
export function spawnSvc(env: Record<string, string>): ChildProcess {
  const startArgs = (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: { start: string } }).scripts.start.split(/\s+/).slice(1);
  return spawnNode(startArgs, { SVC_ADMIN_TOKEN: TOKEN, SVC_LOG_LEVEL: 'warn', ...env });
}

/** Sends SIGTERM and resolves with the exit code once the process has ended. */
export function stopProcess(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null) return Promise.resolve(child.exitCode);
  const exited = new Promise<number | null>((r) => child.once('exit', r));
  child.kill('SIGTERM');
  return exited;
}

/** Resident memory of a process: now (VmRSS) or at its peak so far (VmHWM), in MB. */
export function rssMb(pid: number, which: 'VmRSS' | 'VmHWM'): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(new RegExp(`${which}:\\s+(\\d+) kB`).exec(status)![1]) / 1024;
}

/** CPU seconds (user + system) a process has used so far. */
export function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** CPU seconds the whole machine has been busy so far (every core, every process: /proc/stat). */
export function machineBusySeconds(): number {
  const [, user, nice, system, , , irq, softirq, steal] = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).map(Number);
  return (user! + nice! + system! + irq! + softirq! + steal!) / 100;
}

export const hasWrk = spawnSync('wrk', ['--version']).error === undefined;

export interface WrkResult {
  rps: number;
  p50: number;
  p99: number;
  answered: number;
  non2xx: number;
  errors: number;
}

/** A wrk run under way: its process, and its figures once it ends. */
export interface WrkRun {
  child: ChildProcess;
  result: Promise<{ requests: number; seconds: number; p50: number; p99: number; socketErrors: number; statuses: Record<string, number> }>;
}

/**
 * Load with wrk: 1 thread (one core), `connections` connections, the events of bench/collect.lua
 * (`env`: BENCH_SITE, BENCH_RELAY_KEY, BENCH_DOMAIN, BENCH_VISITOR_BASE to give concurrent
 * generators visitors of their own, and BENCH_RATE to pace them; without it, as fast as answered).
 */
export function startWrk(url: string, env: Record<string, string>, seconds: number, connections = 64): WrkRun {
  const child = spawn('wrk', ['-t1', `-c${connections}`, `-d${seconds}s`, '-s', 'bench/collect.lua', url], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  const result: WrkRun['result'] = new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', () => {
      const line = out.split('\n').find((l) => l.startsWith('BENCH_RESULT '));
      if (!line) return reject(new Error(`wrk printed no result:\n${out}`));
      resolve(JSON.parse(line.slice('BENCH_RESULT '.length)));
    });
  });
  return { child, result };
}

/** A wrk run's figures: answered 202s a second, latency, and what was not answered 202. */
export async function wrkLoad(url: string, env: Record<string, string>, seconds: number, connections = 64): Promise<WrkResult> {
  const r = await startWrk(url, env, seconds, connections).result;
  const answered = r.statuses['202'] ?? 0;
  return { rps: answered / r.seconds, p99: Number(r.p99.toFixed(1)), p50: Number(r.p50.toFixed(1)), answered, non2xx: r.requests - answered, errors: r.socketErrors };
}

/** An organisation, a site and a relay key on a running svc: the variables bench/collect.lua reads. */
export async function benchSite(base: string, domain = 'bench.example'): Promise<{ orgId: string; siteId: string; relayKey: string; wrkEnv: Record<string, string> }> {
  const org = await admin(base, 'POST', '/orgs', { name: 'bench' });
  const site = await admin(base, 'POST', `/orgs/${org.id}/sites`, { domain, name: 'Bench', timezone: 'Europe/Paris' });
  const relay = await admin(base, 'POST', '/relay-keys', { name: 'bench' });
  return { orgId: org.id, siteId: site.id, relayKey: relay.key, wrkEnv: { BENCH_SITE: site.id, BENCH_RELAY_KEY: relay.key, BENCH_DOMAIN: domain } };
}

/** The bare route of bench/ingest (bench/bare-server.mjs), `workUs` of work a request if given, once it listens. */
export async function startBareServer(port: number, workUs?: number): Promise<ChildProcess> {
  const bare = spawnNode(['bench/bare-server.mjs'], { PORT: String(port), ...(workUs ? { BARE_WORK_US: String(workUs) } : {}) });
  await new Promise((r) => setTimeout(r, 1500));
  return bare;
}

/** Stops the bare route (it exits on SIGINT). */
export async function stopBareServer(bare: ChildProcess): Promise<void> {
  if (bare.exitCode !== null) return;
  const exited = new Promise((r) => bare.once('exit', r));
  bare.kill('SIGINT');
  await exited;
}

export async function admin(base: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${base}/admin/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return res.json() as Promise<any>;
}

/** The sum of a metric's lines whose name starts with `name` (collection's source only, where lines name a source). */
export async function metric(base: string, name: string): Promise<number> {
  const text = await (await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).text();
  return text
    .split('\n')
    .filter((l) => l.startsWith(name) && (!l.includes('source=') || l.includes('source="collect"')))
    .reduce((sum, l) => sum + Number(l.split(' ').at(-1)), 0);
}
