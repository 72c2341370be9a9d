// bench/read-turns: the year questions of bench/query (stats, timeseries, page breakdown, no filter)
// asked of this checkout and of variants of another checkout in turn, on one loaded year: what a
// mechanism buys on a year's p95 is measured against a checkout with it switched off. Each round
// starts every variant's service on the same data in turn (the order rotated each round, so the
// machine's drift falls on all), times each question BENCH_REPEAT times, and stops it. Prints each
// round's p95, then per variant and question the p95 range over rounds and the range of the
// round-by-round ratios to this checkout.
//
//   BENCH_BASELINE=DIR               another checkout (e.g. `git worktree add DIR main`)
//   BENCH_BASELINE_ENVS='K=V;K=V'    one variant of DIR per entry, each run with that environment
//                                    variable set (absent: one variant, the environment as it is)
//   BENCH_PROFILE=embedded|clickhouse, BENCH_PAGEVIEWS_PER_DAY (8 000), BENCH_DAYS (365),
//                                    BENCH_ROUNDS (3), BENCH_REPEAT (30)
//
//   BENCH_BASELINE=../wt-off BENCH_BASELINE_ENVS='OFF=a;OFF=a,b' node --expose-gc --import tsx bench/read-turns.ts
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startClickHouse, type ClickHouseServer } from '../support/clickhouse.js';
import { variantAt, type Variant } from './checkouts.js';
import { timeInTurn } from './timing.js';
import { loadYearSite } from './year-site.js';

const PROFILE = process.env.BENCH_PROFILE ?? 'embedded';
const PAGEVIEWS_PER_DAY = Number(process.env.BENCH_PAGEVIEWS_PER_DAY ?? 8_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const REPEAT = Number(process.env.BENCH_REPEAT ?? 30);
/** Fewer loaded days load faster; the questions still ask for the year. */
const DAYS = Number(process.env.BENCH_DAYS ?? 365);
const TOKEN = 'bench-admin-token-0123456789';
const QUESTIONS: Array<[string, string]> = [
  ['stats year', '/stats?period=year'],
  ['timeseries year', '/timeseries?period=year'],
  ['breakdown page year', '/breakdown?dimension=page&period=year'],
];

/** A checkout, and the environment variable its rounds run with. */
interface Turn {
  name: string;
  variant: Variant;
  env: [string, string] | null;
}

async function turns(): Promise<Turn[]> {
  const here = await variantAt('this checkout', join(dirname(fileURLToPath(import.meta.url)), '..'));
  const list: Turn[] = [{ name: 'this checkout', variant: here, env: null }];
  if (!process.env.BENCH_BASELINE) throw new Error('BENCH_BASELINE: the checkout to compare with');
  const baseline = await variantAt('baseline', resolve(process.env.BENCH_BASELINE));
  const envs = process.env.BENCH_BASELINE_ENVS?.split(';') ?? [null];
  for (const entry of envs) {
    const at = entry?.indexOf('=') ?? -1;
    list.push({ name: entry ?? 'baseline', variant: baseline, env: entry && at > 0 ? [entry.slice(0, at), entry.slice(at + 1)] : null });
  }
  return list;
}

/** Starts `turn`'s service on the data, its environment variable set while it runs. */
async function startTurn(turn: Turn, env: Record<string, string>) {
  if (turn.env) process.env[turn.env[0]] = turn.env[1];
  const config = turn.variant.loadConfig({ PORT: '0', HOST: '127.0.0.1', SVC_ADMIN_TOKEN: TOKEN, SVC_API_RATE_LIMIT: '1000000/60s', SVC_LOG_LEVEL: 'silent', ...env });
  const service = await turn.variant.startService(config, { log: { info() {}, warn() {}, error() {} }, maintenanceTimers: false });
  return {
    service,
    stop: async () => {
      await service.stop();
      if (turn.env) delete process.env[turn.env[0]];
    },
  };
}

const range = (values: number[], digits: number) => `${Math.min(...values).toFixed(digits)} – ${Math.max(...values).toFixed(digits)}`;

async function run(env: Record<string, string>): Promise<void> {
  const list = await turns();
  const loading = await startTurn(list[0]!, env);
  let siteId: string;
  let key: string;
  try {
    const { service } = loading;
    const admin = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${service.url}/admin/v1${path}`, { method, headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
      return (await res.json()) as any;
    };
    const year = await loadYearSite(service, admin, { pageviewsPerDay: PAGEVIEWS_PER_DAY, days: DAYS });
    ({ siteId, key } = year);
    console.log(`${PROFILE}: ${year.rows.toLocaleString()} events (${PAGEVIEWS_PER_DAY} pageviews a day, ${DAYS} days)`);
  } finally {
    await loading.stop();
  }
  (globalThis as { gc?: () => void }).gc?.();
  // p95 (ms) per turn, question and round.
  const p95 = list.map(() => QUESTIONS.map((): number[] => []));
  for (let round = 0; round < ROUNDS; round++) {
    const order = list.map((_, i) => (i + round) % list.length);
    for (const t of order) {
      const { service, stop } = await startTurn(list[t]!, env);
      try {
        const get = async (path: string) => {
          const res = await fetch(`${service.url}/v1/sites/${siteId}${path}`, { headers: { authorization: `Bearer ${key}` } });
          if (res.status !== 200) throw new Error(`${list[t]!.name} ${path}: ${res.status} ${await res.text()}`);
          return res.json();
        };
        const measured = await timeInTurn(QUESTIONS.map(([, path]) => () => get(path)), REPEAT);
        measured.forEach((m, q) => p95[t]![q]!.push(m.p95));
        console.log(`round ${round + 1} ${list[t]!.name.padEnd(40)}${measured.map((m, q) => `${QUESTIONS[q]![0]} ${m.p95.toFixed(1)}`).join('; ')} ms (p95)`);
      } finally {
        await stop();
      }
    }
  }
  console.log(`\n${PROFILE}, p95 over ${ROUNDS} rounds of ${REPEAT} requests (ms); ratio: the variant's p95 / this checkout's, round by round`);
  for (const [t, turn] of list.entries()) {
    for (const [q, [question]] of QUESTIONS.entries()) {
      const ratios = p95[t]![q]!.map((v, r) => v / p95[0]![q]![r]!);
      console.log(`${turn.name.padEnd(40)}${question.padEnd(22)}${range(p95[t]![q]!, 1).padStart(16)}${t === 0 ? '' : `   ratio ${range(ratios, 2)}`}`);
    }
  }
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-bench-read-turns-'));
  let server: ClickHouseServer | null = null;
  try {
    if (PROFILE === 'clickhouse') server = await startClickHouse();
    else if (PROFILE !== 'embedded') throw new Error(`BENCH_PROFILE: unknown profile ${PROFILE} (embedded, clickhouse)`);
    await run({ SVC_DATA_DIR: dataDir, ...(server ? { SVC_CLICKHOUSE_URL: `${server.url}/svc_bench` } : {}) });
  } finally {
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
