// bench/collect-threads: where a collection server's CPU time goes under wrk, thread by thread.
// Starts svc (as `npm start` does) or the bare route of bench/ingest (BENCH_TARGET=bare, with
// BARE_WORK_US of work a request if set), drives it with wrk (1 thread, 64 connections,
// bench/collect.lua) for 2 s of warm-up and BENCH_SECONDS (8) of measure, and prints per thread
// (the main thread apart, the others grouped by name) its CPU time a request and its system part,
// beside wrk's own and the machine's.
//
//   node --import tsx bench/collect-threads.ts
//   BENCH_TARGET=bare BARE_WORK_US=15 node --import tsx bench/collect-threads.ts
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../support/ports.js';
import { benchSite, cpuSeconds, hasWrk, machineBusySeconds, spawnSvc, startBareServer, startWrk, stopBareServer, stopProcess, waitHealthy } from './processes.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const bare = process.env.BENCH_TARGET === 'bare';
if (!hasWrk) throw new Error('bench/collect-threads needs wrk (Debian package wrk)');

/** CPU seconds of each thread of `pid` (the main thread as `main`, others summed by name), user + system and system alone. */
function threadCpu(pid: number): Map<string, { total: number; system: number }> {
  const threads = new Map<string, { total: number; system: number }>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
    } catch {
      continue; // the thread ended meanwhile
    }
    const name = tid === String(pid) ? 'main' : stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const [user, system] = [Number(fields[11]) / 100, Number(fields[12]) / 100];
    const sum = threads.get(name) ?? { total: 0, system: 0 };
    threads.set(name, { total: sum.total + user + system, system: sum.system + system });
  }
  return threads;
}

const dataDir = mkdtempSync(join(tmpdir(), 'svc-bench-threads-'));
const port = await freePort();
const url = `http://127.0.0.1:${port}`;
const server = bare ? await startBareServer(port, Number(process.env.BARE_WORK_US ?? 0)) : spawnSvc({ PORT: String(port), HOST: '127.0.0.1', SVC_DATA_DIR: dataDir });
try {
  // The bare route takes any body: bench/collect.lua's variables need no site there.
  let env: Record<string, string> = { BENCH_SITE: 'bare', BENCH_RELAY_KEY: 'bare', BENCH_DOMAIN: 'bench.example' };
  if (!bare) {
    await waitHealthy(`${url}/healthz`);
    env = (await benchSite(url)).wrkEnv;
  }
  await startWrk(url, env, 2).result;
  // The measure leaves out wrk's first and last 300 ms (connections opening and closing).
  const run = startWrk(url, env, SECONDS);
  await new Promise((r) => setTimeout(r, 300));
  const [before, wrkBefore, machineBefore, started] = [threadCpu(server.pid!), cpuSeconds(run.child.pid!), machineBusySeconds(), performance.now()];
  await new Promise((r) => setTimeout(r, (SECONDS - 0.6) * 1000));
  const [after, wrkAfter, machineAfter, seconds] = [threadCpu(server.pid!), cpuSeconds(run.child.pid!), machineBusySeconds(), (performance.now() - started) / 1000];
  const result = await run.result;
  const rate = result.requests / result.seconds;
  const perRequest = (cpu: number) => `${((cpu / (rate * seconds)) * 1e6).toFixed(1)} µs`;
  console.log(`${bare ? `bare route${process.env.BARE_WORK_US ? ` + ${process.env.BARE_WORK_US} µs of work` : ''}` : 'svc POST /api/e'}: ${Math.round(rate)} requests/s`);
  let total = 0;
  for (const [name, cpu] of after) {
    const was = before.get(name) ?? { total: 0, system: 0 };
    const used = cpu.total - was.total;
    total += used;
    if (used / seconds >= 0.01) console.log(`  thread ${name.padEnd(16)} ${(used / seconds).toFixed(2)} cores, ${perRequest(used)} a request (system ${perRequest(cpu.system - was.system)})`);
  }
  console.log(`  process            ${(total / seconds).toFixed(2)} cores, ${perRequest(total)} a request`);
  console.log(`  wrk                ${((wrkAfter - wrkBefore) / seconds).toFixed(2)} cores, ${perRequest(wrkAfter - wrkBefore)} a request`);
  console.log(`  machine busy       ${((machineAfter - machineBefore) / seconds).toFixed(2)} cores`);
} finally {
  await (bare ? stopBareServer(server) : stopProcess(server));
  rmSync(dataDir, { recursive: true, force: true });
}
