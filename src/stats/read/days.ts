// What several endpoints share: running the daily measure and goal statements of some days into
// per-day maps, summing days, and the percent change of a comparison.
import type { EventReader } from '../../storage/events/types.js';
import { dailyGoalStatements, dailyMeasureStatements, settlementCheckStatement, type GoalRef } from '../compile.js';
import type { Settlement } from '../settlement.js';
import {
  addMeasures,
  GOAL_MEASURES,
  measuresOf,
  round,
  TRAFFIC_MEASURES,
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

/**
 * Per-day measures of some days of a plan, from rollups up to the watermark and raw events after it,
 * and imported aggregates on the days they hold (a day's rows of several sources add up).
 * Readers of visitors only skip the per-session part (bounces, duration) of raw reads.
 */
export function dailyMeasures(events: EventReader, q: PlannedQuery, days: DaySources, need = { sessions: true }): Promise<Map<string, Measures>> {
  return withSettlement(events, q.siteId, days, (read) => measuresOfDays(events, q, read, need.sessions));
}

async function measuresOfDays(events: EventReader, q: PlannedQuery, days: DaySources, sessions: boolean): Promise<Map<string, Measures>> {
  const statements = dailyMeasureStatements(events.dialect, q, days, sessions);
  const out = new Map<string, Measures>();
  for (const rows of await Promise.all(statements.map((s) => events.query<Record<string, unknown>>(s)))) {
    for (const r of rows) {
      const day = String(r.b);
      const m = measuresOf(TRAFFIC_MEASURES, r);
      const before = out.get(day);
      out.set(day, before ? addMeasures(before, m) : m);
    }
  }
  return out;
}

/**
 * `read` of some days with their settlement, beside the check that it still holds
 * (`settlementCheckStatement`); where it no longer does, `read` again without it.
 */
async function withSettlement<T>(events: EventReader, siteId: string, days: DaySources, read: (days: DaySources) => Promise<T>): Promise<T> {
  const s = days.settled;
  if (s === null || days.raw === null) return read(days);
  const [answer, holds] = await Promise.all([read(days), settlementHolds(events, siteId, s)]);
  return holds ? answer : read({ ...days, settled: null });
}

async function settlementHolds(events: EventReader, siteId: string, s: Settlement): Promise<boolean> {
  const [found] = await events.query<Record<string, unknown>>(settlementCheckStatement(events.dialect, siteId, s));
  return found !== undefined && Number(found.events) === s.events && Number(found.session_events) === s.sessionEvents && Number(found.conversions) === s.conversions;
}

export function sumDays(days: Map<string, Measures>, from: string, to: string): Measures {
  let total = ZERO_MEASURES;
  for (const [day, m] of days) if (day >= from && day <= to) total = addMeasures(total, m);
  return total;
}

/** Per-day conversions of each goal. */
export function dailyGoals(events: EventReader, q: PlannedQuery, days: DaySources, goals: readonly GoalRef[]): Promise<Map<string, Map<number, GoalCounts>>> {
  return withSettlement(events, q.siteId, days, (read) => goalsOfDays(events, q, read, goals));
}

async function goalsOfDays(events: EventReader, q: PlannedQuery, days: DaySources, goals: readonly GoalRef[]): Promise<Map<string, Map<number, GoalCounts>>> {
  const statements = dailyGoalStatements(events.dialect, q.siteId, days, goals);
  const out = new Map<string, Map<number, GoalCounts>>();
  for (const rows of await Promise.all(statements.map((s) => events.query<{ b: string; goal_id: unknown } & Record<string, unknown>>(s)))) {
    for (const r of rows) {
      let day = out.get(r.b);
      if (!day) out.set(r.b, (day = new Map()));
      const id = Number(r.goal_id);
      const counts = measuresOf(GOAL_MEASURES, r);
      const before = day.get(id);
      day.set(id, before ? addMeasures(before, counts) : counts);
    }
  }
  return out;
}

export function sumGoal(daily: Map<string, Map<number, GoalCounts>>, from: string, to: string, goalId?: number): GoalCounts {
  let total = zeroOf(GOAL_MEASURES);
  for (const [day, goals] of daily) {
    if (day < from || day > to) continue;
    for (const [id, c] of goals) {
      if (goalId === undefined || id === goalId) total = addMeasures(total, c);
    }
  }
  return total;
}
