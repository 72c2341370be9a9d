import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { freePort } from '../support/ports.js';
import { admin, spawnSvc, spawnNode, waitHealthy, stopProcess } from './processes.js';

function threads(pid: number) {
  const out: Record<string, number> = {};
  for (const t of readdirSync(`/proc/${pid}/task`)) {
    try {
      const s = readFileSync(`/proc/${pid}/task/${t}/stat`, 'utf8');
      const name = s.slice(s.indexOf('(') + 1, s.lastIndexOf(')'));
      const f = s.split(') ')[1]!.split(' ');
      const key = t === String(pid) ? 'main' : name;
      out[key] = (out[key] ?? 0) + (Number(f[11]) + Number(f[12])) / 100; out[key+':sys'] = (out[key+':sys'] ?? 0) + Number(f[12]) / 100;
    } catch {}
  }
  return out;
}
function proc(pid: number) { const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' '); return (Number(f[11]) + Number(f[12])) / 100; }
function machine() { const [, u, n, s, idle, io, irq, sirq, st] = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).map(Number); return { busy: (u!+n!+s!+irq!+sirq!+st!)/100, all: (u!+n!+s!+idle!+io!+irq!+sirq!+st!)/100 }; }

const dataDir = mkdtempSync(join(tmpdir(), 'svc-exp-'));
const port = await freePort();
const url = `http://127.0.0.1:${port}`;
const bare = process.env.BARE === '1';
const svc = bare ? spawnNode(process.env.PROF ? ["--cpu-prof", "--cpu-prof-dir=/tmp/profb", "bench/bare-server.mjs"] : [process.env.BUSY_US ? "bench/_bare-busy.mjs" : "bench/bare-server.mjs"], { PORT: String(port) }) : process.env.PROF ? spawnNode(["--max-semi-space-size=8", "--expose-gc", "--cpu-prof", "--cpu-prof-dir=/tmp/prof", "dist/main.js"], { SVC_ADMIN_TOKEN: "bench-admin-token-0123456789", SVC_LOG_LEVEL: "warn", PORT: String(port), HOST: "127.0.0.1", SVC_DATA_DIR: dataDir }) : spawnSvc({ PORT: String(port), HOST: '127.0.0.1', SVC_DATA_DIR: dataDir, ...(process.env.SVC_ENV ? JSON.parse(process.env.SVC_ENV) : {}) });
let env: Record<string,string> = { BENCH_SITE: 'x', BENCH_RELAY_KEY: 'x', BENCH_DOMAIN: 'x' };
if (!bare) {
  await waitHealthy(`${url}/healthz`);
  const org = await admin(url, 'POST', '/orgs', { name: 'bench' });
  const site = await admin(url, 'POST', `/orgs/${org.id}/sites`, { domain: 'bench.example', name: 'Bench', timezone: 'Europe/Paris' });
  const relay = await admin(url, 'POST', '/relay-keys', { name: 'bench' });
  env = { BENCH_SITE: site.id, BENCH_RELAY_KEY: relay.key, BENCH_DOMAIN: 'bench.example' };
} else await new Promise((r) => setTimeout(r, 1500));
const secs = Number(process.env.SECS ?? 8);
const run = async (s: number) => {
  const wrk = spawn('wrk', ['-t1', '-c64', `-d${s}s`, '-s', 'bench/collect.lua', url], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  let out = ''; wrk.stdout!.on('data', (d) => (out += d));
  await new Promise((r) => setTimeout(r, 300));
  const t0 = threads(svc.pid!), w0 = proc(wrk.pid!), m0 = machine(), c0 = performance.now();
  await new Promise((r) => setTimeout(r, (s - 0.6) * 1000));
  const t1 = threads(svc.pid!), w1 = proc(wrk.pid!), m1 = machine(), el = (performance.now() - c0) / 1000;
  await new Promise((r) => wrk.once('exit', r));
  const line = out.split('\n').find((l) => l.startsWith('BENCH_RESULT '))!;
  const r = JSON.parse(line.slice(13));
  return { r, el, t0, t1, w: w1 - w0, m: { busy: m1.busy - m0.busy, all: m1.all - m0.all } };
};
await run(2);
const { r, el, t0, t1, w, m } = await run(secs);
const rps = r.requests / r.seconds;
console.log(`rps ${rps.toFixed(0)} p50 ${r.p50} p99 ${r.p99}`);
const cores = (x: number) => (x / el).toFixed(2);
let total = 0;
for (const k of Object.keys(t1)) { const d = t1[k]! - (t0[k] ?? 0); total += d; if (d > 0.01) console.log(`  svc ${k}: ${cores(d)} cores, ${(d / (rps * el) * 1e6).toFixed(1)} µs/ev`); }
console.log(`  svc total ${cores(total)} cores ${(total / (rps * el) * 1e6).toFixed(1)} µs/ev; wrk ${cores(w)} cores ${(w / (rps * el) * 1e6).toFixed(1)} µs/req; machine busy ${(m.busy / el).toFixed(2)} of ${(m.all/el).toFixed(2)}`);
if (bare) { svc.kill("SIGINT"); await new Promise((r) => svc.once("exit", r)); } else await stopProcess(svc);
