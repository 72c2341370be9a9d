// What several endpoints share: running the daily measure and goal statements of some days into
// per-day maps, summing days, and the percent change of a comparison.
import type { GoalRef } from '../../entities/goals.js';
import { dailyGoalStatements, dailyMeasureStatements, type DailyStatements } from '../sql/daily.js';
import { settlementHeld, type Settlement } from '../settlement.js';
import { Held, type HeldPart, type HeldSumsCache, type StatsReader } from '../held-sums.js';
import { statementKey } from '../shared-reads.js';
import type { Dialect } from '../../sql/dialect.js';
import type { Sql } from '../../sql/sql.js';
import {
  addInto,
  addMeasures,
  GOAL_MEASURES,
  measuresOf,
  round,
  trafficOf,
  ZERO_MEASURES,
  zeroOf,
  type GoalCounts,
  type Measures,
} from '../measures.js';
import type { DaySources, PlannedQuery } from '../planner.js';

/** Rounded to 1 decimal; 0 when both are 0 or either is null; 100 from a zero base. */
export function deltaPct(value: number | null, prev: number | null): number {
  if (value === null || prev === null) return 0;
  if (prev === 0) return value > 0 ? 100 : 0;
  return round(((value - prev) / prev) * 100, 1);
}

/** A daily read compiled: its statements, and the settlement its days read with (if any). */
export interface DailyRead {
  readonly settlement: Settlement | null;
  readonly statements: DailyStatements;
}

/**
 * Compiles the per-day measures of some days of a plan: rollups up to the watermark, raw events
 * after it (with their settlement, where it holds) and imported aggregates on the days they hold.
 * Readers of visitors only skip the per-session part (bounces, duration) of raw reads, and read raw
 * days with their settlement only from what a reader holds.
 */
export function measuresRead(events: StatsReader, q: PlannedQuery, days: DaySources, sessions = true): DailyRead {
  // What a reader holds of a settlement answers visitors alone too, from the events since its cut
  // (the same statements as every measure's, which the stats of a dashboard's load share).
  const held = days.settled !== null && events.held?.takes(days.settled.rows) === true;
  return { settlement: days.settled, statements: dailyMeasureStatements(events.dialect, q, days, sessions || held) };
}

/** Compiles the per-day conversions of each goal, from the same sources as `measuresRead` (under the query's filters, raw days alone: the planner's). */
export function goalsRead(d: Dialect, q: PlannedQuery, days: DaySources, goals: readonly GoalRef[]): DailyRead {
  return { settlement: days.settled, statements: dailyGoalStatements(d, q.siteId, days, goals, q.filters) };
}

/** Runs a compiled `measuresRead` into per-day measures (a day's rows of several sources add up). */
export async function dailyMeasures(events: StatsReader, read: DailyRead): Promise<Map<string, Measures>> {
  const out = new Map<string, Measures>();
  for (const r of await readDaily(events, read)) {
    const day = String(r.b);
    const m = trafficOf(r);
    const before = out.get(day);
    out.set(day, before ? addMeasures(before, m) : m);
  }
  return out;
}

/**
 * Every row of a daily read's statements, run at once. Where its settlement no longer held
 * (`settlementHeld`), the days are read from its `unsettled` statements instead, and only those
 * that differ run. A settlement's part (../held-sums.ts) is added up by the engine, or, by a reader
 * that holds sums, from what the reader holds (or fills now) and the rows since the cut
 * (`holdAfterCheck`); a part the reader declined is read without the settlement.
 */
async function readDaily(events: StatsReader, { settlement, statements }: DailyRead): Promise<Array<Record<string, unknown>>> {
  type Rows = Array<Record<string, unknown>>;
  const { sources, check, settled, unsettled } = statements;
  const ask = (s: Sql) => events.query<Record<string, unknown>>(s);
  const cache = settled && events.held;
  const held = cache && cache.takes(settlement!.rows) ? settled : undefined;
  if (held && cache!.declined(held.key)) return (await Promise.all(unsettled!.map(ask))).flat();
  const found = held && cache!.get(held.key);
  const [checked, counted, open, recent, ...rows] = await Promise.all([
    check && ask(check),
    held && !found ? ask(held.settled) : null,
    held?.open && !found ? ask(held.open.rows) : null,
    held ? ask(held.recent) : null,
    ...sources.map(ask),
    ...(settled && !held ? [ask(settled.whole)] : []),
  ]);
  const holds = !checked || settlementHeld(settlement!, checked);
  if (holds && !held) return (rows as Rows[]).flat();
  const sums = held && holdAfterCheck(cache!, held, holds, found, () => Held.of(held, counted!, open));
  if (sums) return [...(rows as Rows[]).flat(), ...sums.plus(recent!)];
  const ran = new Map(sources.map((s, i) => [statementKey(s), rows[i]!]));
  return (await Promise.all(unsettled!.map((s) => ran.get(statementKey(s)) ?? ask(s)))).flat();
}

/**
 * What a reader holds of a part after a read's check: what it found, or what it fills now (`fill`,
 * null where the rows are not worth holding), kept; null where the check no longer held. A part it
 * does not hold is declined until the site's next cut: the check cannot hold again at that cut (its
 * events before the cut only grow), and its rows stay as many.
 */
function holdAfterCheck(cache: HeldSumsCache, part: HeldPart, checkHeld: boolean, found: Held | undefined, fill: () => Held | null): Held | null {
  const held = checkHeld ? (found ?? fill()) : null;
  if (!held) cache.decline(part);
  else if (!found) cache.keep(part, held);
  return held;
}

/**
 * The measures of the days from `from` to `to`: 0 without any day's rows (nothing counted), null
 * where every day read lacks the measure (imported days of a table without it).
 */
export function sumDays(days: Map<string, Measures>, from: string, to: string): Measures {
  let total: Measures | null = null;
  for (const [day, m] of days) {
    if (day < from || day > to) continue;
    if (total) addInto(total, m);
    else total = { ...m };
  }
  return total ?? { ...ZERO_MEASURES };
}

/** Runs a compiled `goalsRead` into per-day conversions of each goal. */
export async function dailyGoals(events: StatsReader, read: DailyRead): Promise<Map<string, Map<number, GoalCounts>>> {
  const out = new Map<string, Map<number, GoalCounts>>();
  for (const r of await readDaily(events, read)) {
    const b = String(r.b);
    let day = out.get(b);
    if (!day) out.set(b, (day = new Map()));
    const id = Number(r.goal_id);
    const counts = measuresOf(GOAL_MEASURES, r);
    const before = day.get(id);
    day.set(id, before ? addMeasures(before, counts) : counts);
  }
  return out;
}

export function sumGoal(daily: Map<string, Map<number, GoalCounts>>, from: string, to: string, goalId?: number): GoalCounts {
  const total = zeroOf(GOAL_MEASURES);
  for (const [day, goals] of daily) {
    if (day < from || day > to) continue;
    for (const [id, c] of goals) {
      if (goalId === undefined || id === goalId) addInto(total, c);
    }
  }
  return total;
}
