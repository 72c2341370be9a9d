// GET /v1/sites/:id/funnels/:funnelId: the visitors reaching each step of a funnel version over the
// period and the previous one; rolled-up days from funnel_daily, raw days walked in memory (../funnel.ts).
import type { EventReader } from '../../storage/events/types.js';
import type { FunnelVersion } from '../../entities/goals.js';
import type { FunnelReading, FunnelTotals } from '../../core/answers.js';
import { funnelStatements } from '../sql/goals.js';
import { walkFunnel, type FunnelEventRow } from '../funnel.js';
import { round } from '../measures.js';
import type { PlannedQuery } from '../planner.js';
import { deltaPct } from './days.js';

/** Visitors reaching each step over some days, from their compiled statements. */
async function funnelSteps(events: EventReader, statements: ReturnType<typeof funnelStatements>, funnel: FunnelVersion): Promise<number[]> {
  const totals = funnel.steps.map(() => 0);
  const [rollupRows, rawRows] = await Promise.all([
    statements.rollup ? events.query<{ step: unknown; visitors: unknown }>(statements.rollup) : Promise.resolve([]),
    statements.raw ? events.query<FunnelEventRow>(statements.raw) : Promise.resolve([]),
  ]);
  for (const r of rollupRows) {
    const i = Number(r.step) - 1;
    if (i >= 0 && i < totals.length) totals[i]! += Number(r.visitors);
  }
  for (const counts of walkFunnel(rawRows, funnel.steps.length, funnel.windowMinutes).values()) {
    counts.forEach((n, i) => (totals[i]! += n));
  }
  return totals;
}

function funnelTotals(counts: number[]): FunnelTotals {
  const entered = counts[0] ?? 0;
  const completed = counts[counts.length - 1] ?? 0;
  return { entered, completed, conversionRate: entered > 0 ? round(completed / entered, 4) : 0 };
}

export async function computeFunnel(events: EventReader, q: PlannedQuery, funnel: FunnelVersion): Promise<FunnelReading> {
  const periodStatements = funnelStatements(events.dialect, q.siteId, q.plan.period, funnel);
  const previousStatements = funnelStatements(events.dialect, q.siteId, q.plan.previous, funnel);
  const [now, before] = await Promise.all([funnelSteps(events, periodStatements, funnel), funnelSteps(events, previousStatements, funnel)]);
  const current = funnelTotals(now);
  const previous = funnelTotals(before);
  return {
    steps: now.map((visitors, i) => ({
      step: i + 1,
      visitors,
      rateFromPrevious: i === 0 ? null : now[i - 1]! > 0 ? round(visitors / now[i - 1]!, 4) : 0,
    })),
    ...current,
    previous,
    delta: deltaPct(current.conversionRate, previous.conversionRate),
  };
}
