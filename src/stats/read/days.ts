// What several endpoints share: running the daily measure and goal statements of some days into
// per-day maps, summing days, and the percent change of a comparison.
import type { GoalRef } from '../../entities/goals.js';
import { dailyGoalStatements } from '../sql/daily.js';
import type { Dialect } from '../../sql/dialect.js';
import type { Sql } from '../../sql/sql.js';
import type { EventReader } from '../../storage/events/types.js';
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

/** Compiles the per-day conversions of each goal, from the same sources as `dailyMeasureStatements` (under the query's filters, raw days alone: the planner's). */
export function goalsRead(d: Dialect, q: PlannedQuery, days: DaySources, goals: readonly GoalRef[]): Sql[] {
  return dailyGoalStatements(d, q.siteId, days, goals, q.filters);
}

/** Runs compiled `dailyMeasureStatements` into per-day measures (a day's rows of several sources add up). */
export async function dailyMeasures(events: EventReader, read: readonly Sql[]): Promise<Map<string, Measures>> {
  const out = new Map<string, Measures>();
  for (const r of await readDaily(events, read)) {
    const day = String(r.b);
    const m = trafficOf(r);
    const before = out.get(day);
    out.set(day, before ? addMeasures(before, m) : m);
  }
  return out;
}

/** Every row of a daily read's statements, run at once. */
async function readDaily(events: EventReader, statements: readonly Sql[]): Promise<Array<Record<string, unknown>>> {
  return (await Promise.all(statements.map((s) => events.query<Record<string, unknown>>(s)))).flat();
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
export async function dailyGoals(events: EventReader, read: readonly Sql[]): Promise<Map<string, Map<number, GoalCounts>>> {
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
