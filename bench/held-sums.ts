// bench/held-sums: what a read of a busy site's today costs the process beyond its statements: a
// settlement's held traffic sums (src/stats/held-sums.ts, `Held.plus`) with the rows since the cut
// added, for 300, 3 000 and 30 000 sessions open at the cut (10 000 settled visitors, 100 sessions
// since the cut, half of them open ones extended). Prints the time of a read (the rows since the cut
// made anew for each, as a statement's are) and the answer, which must be the same for every
// checkout. With BENCH_BASELINE (another checkout's folder), its held-sums.ts runs beside this
// one's, in turn, and the bench prints the ratio.
//
//   node --import tsx bench/held-sums.ts
//   BENCH_BASELINE=../old node --import tsx bench/held-sums.ts
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { sql } from '../src/sql/sql.js';
import { Held, type HeldForm, type HeldPart } from '../src/stats/held-sums.js';

const READS = Number(process.env.BENCH_READS ?? 2000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const BASELINE = process.env.BENCH_BASELINE;

const MEASURES: HeldForm = { group: ['b'], visitors: 'visitors', sums: ['pageviews', 'events', 'sessions', 'bounces', 'duration_ms'] };
const CUT = 10_000_000;
const OPEN_AT = CUT - 1_800_000;
const DAYS = { from: '2026-03-04', to: '2026-03-05' };
const PART: HeldPart = { site: 's', cut: CUT, key: 'measures', form: MEASURES, settled: sql`SELECT 1`, recent: sql`SELECT 1`, open: { rows: sql`SELECT 1`, at: OPEN_AT, days: DAYS } };

/** A part row of one day, session and visitor, as the statements of open sessions and of the rows since the cut read them. */
const part = (session: number, visitor: number, starts: number, pageviews: number, engages: number, first: number, last: number) => ({
  b: '2026-03-05',
  session_id: BigInt(session),
  visitor_id: BigInt(visitor),
  starts,
  events: pageviews + engages,
  f_pageviews: pageviews,
  f_customs: 0,
  f_engaged_ms: engages * 1000,
  f_engages: engages,
  f_first_ts: first,
  f_last_ts: last,
});

const settled = Array.from({ length: 10_000 }, (_, i) => ({ b: '2026-03-05', visitor_id: BigInt(i * 7919), pageviews: 2, events: 3, sessions: 1, bounces: 0, duration_ms: 10 }));
/** The rows since the cut of read `r`: 100 sessions, every other one open at the cut (ids below the open sessions' count). */
const recentOf = (r: number) => Array.from({ length: 100 }, (_, i) => part(i * 3 + (r % 2), i * 93, i % 2, 1, 1, CUT + i, CUT + i + 5));

type HeldClass = { of(part: HeldPart, settled: readonly Record<string, unknown>[], open: readonly Record<string, unknown>[] | null): { plus(recent: readonly Record<string, unknown>[]): readonly Record<string, unknown>[] } };

/** µs a read, and the last answer. */
function timeReads(H: HeldClass, openSessions: number): { us: number; answer: string } {
  const open = Array.from({ length: openSessions }, (_, i) => part(i, i * 31, 1, 1 + (i % 3), 0, OPEN_AT + i, OPEN_AT + i + 100));
  const held = H.of(PART, settled, open);
  let answer: readonly Record<string, unknown>[] = [];
  const started = performance.now();
  for (let r = 0; r < READS; r++) answer = held.plus(recentOf(r));
  return { us: ((performance.now() - started) / READS) * 1000, answer: JSON.stringify(answer, (_, v: unknown) => (typeof v === 'bigint' ? `${v}` : v)) };
}

const checkouts: Array<[string, HeldClass]> = [['current', Held]];
if (BASELINE) {
  const module = (await import(pathToFileURL(resolve(BASELINE, 'src/stats/held-sums.ts')).href)) as { Held: HeldClass };
  checkouts.push([BASELINE, module.Held]);
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;
for (const openSessions of [300, 3_000, 30_000]) {
  const times = new Map(checkouts.map(([name]) => [name, [] as number[]]));
  const answers = new Set<string>();
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, H] of round % 2 === 0 ? checkouts : [...checkouts].reverse()) {
      const { us, answer } = timeReads(H, openSessions);
      times.get(name)!.push(us);
      answers.add(answer);
    }
  }
  const current = median(times.get('current')!);
  const line = checkouts.map(([name]) => `${name} ${median(times.get(name)!).toFixed(0)} µs`).join(', ');
  const ratio = BASELINE ? `; current / baseline ${(current / median(times.get(BASELINE)!)).toFixed(2)}` : '';
  console.log(`${String(openSessions).padStart(6)} sessions open at the cut: a read ${line}${ratio}; ${answers.size === 1 ? 'the same answer' : 'ANSWERS DIFFER'}`);
  if (answers.size !== 1) process.exitCode = 1;
}
