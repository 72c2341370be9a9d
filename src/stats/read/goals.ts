// GET /v1/sites/:id/goals: each goal's conversions over the period, its conversion rate among the
// period's visitors, and its change from the previous period (read with it over the plan's span).
import type { EventReader } from '../../storage/events/types.js';
import { goalPropsField, type Goal } from '../../entities/goals.js';
import type { GoalResult, GoalRevenue } from '../../core/answers.js';
import { majorUnits } from '../../core/money.js';
import { meanHalfUp, round, type GoalCounts } from '../measures.js';
import type { PlannedQuery } from '../planner.js';
import { dailyMeasureStatements } from '../sql/daily.js';
import { dailyGoals, dailyMeasures, deltaPct, goalsRead, sumDays, sumGoal } from './days.js';

export async function computeGoals(events: EventReader, q: PlannedQuery, goals: readonly Goal[]): Promise<GoalResult[]> {
  // The goals' rows as the stats read them (one statement for both on a dashboard's load): under
  // filters, the compared days only where the comparison is whole (else they would be read for
  // nothing: raw events of up to a year); the period's visitors under its filters alone, imported aggregates left out as from its conversions (rollups under one filter they answer).
  const goalDays = q.filters.length > 0 && !q.plan.previousComplete ? q.plan.period : q.plan.span;
  const goalRows = goalsRead(events.dialect, q, goalDays, goals);
  const visitorRows = dailyMeasureStatements(events.dialect, q, q.plan.periodVisitors, false);
  const [daily, days] = await Promise.all([dailyGoals(events, goalRows), dailyMeasures(events, visitorRows)]);
  const visitors = sumDays(days, q.period.from, q.period.to).visitors;
  return goals.map((g) => {
    const now = sumGoal(daily, q.period.from, q.period.to, g.goalId);
    const before = q.plan.previousComplete ? sumGoal(daily, q.previous.from, q.previous.to, g.goalId).conversions : 0;
    const result: GoalResult = {
      goalId: g.goalId,
      name: g.name,
      kind: g.kind,
      pattern: g.pattern,
      ...goalPropsField(g.props),
      conversions: now.conversions,
      uniqueConversions: now.uniqueConversions,
      conversionRate: visitors > 0 ? round(now.uniqueConversions / visitors, 4) : 0,
      delta: before > 0 ? deltaPct(now.conversions, before) : null,
    };
    if (g.currency !== null) result.revenue = goalRevenue(g.currency, now);
    return result;
  });
}

/** A revenue goal's revenue over summed goal measures, exact to the cent (docs/api.md, "Revenue"). */
export function goalRevenue(currency: string, m: GoalCounts): GoalRevenue {
  return {
    currency,
    total: majorUnits(m.revenueMinor),
    average: m.revenueConversions > 0 ? majorUnits(meanHalfUp(m.revenueMinor, m.revenueConversions)) : null,
    otherCurrency: m.otherCurrency,
  };
}
