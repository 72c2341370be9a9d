// GET /v1/sites/:id/stats: the KPIs of the period and of the compared one, read over the plan's span
// (previous.from..period.to) in one statement per source; the last day of an elapsed compared part
// is read apart, up to its cut.
import type { Dialect } from '../../sql/dialect.js';
import type { EventReader } from '../../storage/events/types.js';
import type { Goal } from '../../entities/goals.js';
import { type Metric, METRIC_REGISTRY, metricsUnder, metricTakesFilters } from '../../core/metric-registry.js';
import type { Kpi, Stats } from '../../core/answers.js';
import { cutDayStatements, dailyMeasureStatements } from '../sql/daily.js';
import { GOAL_MEASURES, measuresOf, metricValue, trafficOf, type GoalCounts, type Measures } from '../measures.js';
import type { PlannedQuery } from '../planner.js';
import { dailyGoals, dailyMeasures, deltaPct, goalsRead, sumDays, sumGoal } from './days.js';
import { goalFilterComputation, goalFilterRevenueRead, withoutGoalFilter } from './goal-filter.js';
import { goalFilterOf } from '../../core/vocabulary.js';

/** A figure and its change; `uncompared` (a read clipped to the raw window, its compared period outside it) has no change. */
function kpi(value: number | null, prev: number | null, uncompared = false): Kpi {
  return { value, prev, deltaPct: uncompared ? null : deltaPct(value, prev) };
}

/** Whole-day figures in proportion to a share of the day, as whole numbers; an unknown one stays unknown. */
function scaled<M extends Record<string, number | null>>(m: M, share: number): M {
  return Object.fromEntries(Object.entries(m).map(([name, v]) => [name, v === null ? null : Math.round(v * share)])) as M;
}

type DailyGoals = Map<string, Map<number, GoalCounts>>;

/** The statement of the compared period's cut day (q.previousCut) up to its cut, where its raw events are kept. */
function cutDayRead(d: Dialect, q: PlannedQuery, goals: readonly Goal[]): { day: string; statements: ReturnType<typeof cutDayStatements> } | null {
  const cut = q.previousCut;
  if (cut === null || q.plan.previousCut === null || q.plan.previousCut === 'share') return null;
  return { day: cut.day, statements: cutDayStatements(d, q, cut, q.plan.goalsCompared ? goals : []) };
}

/** The rows of the cut day's measures and goals. */
type CutDayRows = [Array<Record<string, unknown>>, Array<{ goal_id: unknown } & Record<string, unknown>>];

/**
 * The per-day figures of the span with the compared period's last day cut (q.previousCut): from its
 * raw events up to the cut (`cutDay`, run beside the span's), or its whole-day figures in proportion
 * where raw events are no longer kept. Copies: on a span longer than a year, the cut day of a
 * year-earlier part lies in the period too.
 */
function cutPrevious(q: PlannedQuery, days: Map<string, Measures>, goalDays: DailyGoals, cutDay: CutDayRows | null): [Map<string, Measures>, DailyGoals] {
  const cut = q.previousCut;
  if (cut === null || q.plan.previousCut === null) return [days, goalDays];
  const cutDays = new Map(days);
  const cutGoals = new Map(goalDays);
  if (q.plan.previousCut === 'share') {
    const whole = days.get(cut.day);
    if (whole) cutDays.set(cut.day, scaled(whole, cut.share));
    const wholeGoals = goalDays.get(cut.day);
    if (wholeGoals) cutGoals.set(cut.day, new Map([...wholeGoals].map(([id, c]) => [id, scaled(c, cut.share)])));
    return [cutDays, cutGoals];
  }
  const [measureRows, goalRows] = cutDay!;
  cutDays.delete(cut.day);
  for (const r of measureRows) cutDays.set(cut.day, trafficOf(r));
  const dayGoals = new Map<number, GoalCounts>();
  for (const r of goalRows) dayGoals.set(Number(r.goal_id), measuresOf(GOAL_MEASURES, r));
  cutGoals.set(cut.day, dayGoals);
  return [cutDays, cutGoals];
}

/** The per-day figures of a stats read's span, the compared period's last day cut where it is an elapsed part. */
interface SpanFigures {
  days: Map<string, Measures>;
  goalDays: DailyGoals;
  previousDays: Map<string, Measures>;
  previousGoalDays: DailyGoals;
}

/** Compiles a stats read's span (its measures, per-session ones where `sessions`, and with goals its conversions); running it gives its SpanFigures. */
function spanRead(events: EventReader, q: PlannedQuery, goals: readonly Goal[], sessions = true): () => Promise<SpanFigures> {
  const { plan } = q;
  const measures = dailyMeasureStatements(events.dialect, q, plan.span, sessions);
  const goalsRows = plan.goalSpan ? goalsRead(events.dialect, q, plan.goalSpan, goals) : null;
  const cutDay = plan.previousComplete ? cutDayRead(events.dialect, q, goals) : null;
  return async () => {
    const [days, goalDays, cutRows] = await Promise.all([
      dailyMeasures(events, measures),
      goalsRows ? dailyGoals(events, goalsRows) : Promise.resolve(new Map()),
      cutDay &&
        Promise.all([
          events.query<Record<string, unknown>>(cutDay.statements.measures),
          cutDay.statements.goals ? events.query<{ goal_id: unknown } & Record<string, unknown>>(cutDay.statements.goals) : Promise.resolve([]),
        ]),
    ]);
    const [previousDays, previousGoalDays] = plan.previousComplete ? cutPrevious(q, days, goalDays, cutRows as CutDayRows | null) : [days, goalDays];
    return { days, goalDays, previousDays, previousGoalDays };
  };
}

export async function computeStats(events: EventReader, q: PlannedQuery, goals: readonly Goal[]): Promise<Stats> {
  const { plan } = q;
  const goalFilter = goalFilterOf(q.filters);
  // Compiled whole before the first statement runs. Under a goal filter, the visitors of the same
  // read without it (its conversion rate's denominator) and the revenue of its revenue goals too.
  const span = spanRead(events, q, goals);
  const baseSpan = goalFilter ? spanRead(events, withoutGoalFilter(q), [], false) : null;
  const revenueOf = goalFilter ? goalFilterRevenueRead(events, q) : null;
  const [{ days, goalDays, previousDays, previousGoalDays }, base, revenue] = await Promise.all([span(), baseSpan?.(), revenueOf?.()]);
  const current = plan.period.firstComputable !== null;
  const previous = plan.previousComplete;
  const now = sumDays(days, q.period.from, q.period.to);
  const before = sumDays(previousDays, q.previous.from, q.previous.to);
  if (base) {
    now.baseVisitors = sumDays(base.days, q.period.from, q.period.to).visitors;
    before.baseVisitors = sumDays(base.previousDays, q.previous.from, q.previous.to).visitors;
  }
  const goalsNow = sumGoal(goalDays, q.period.from, q.period.to);
  const goalsBefore = sumGoal(previousGoalDays, q.previous.from, q.previous.to);
  const uncompared = plan.clippedFrom !== null && !previous;
  const pick = (metric: Metric): Kpi => {
    if (!metricTakesFilters(metric, q.filters, q.rawClip)) return kpi(null, null);
    const c = goalFilter ? goalFilterComputation(metric) : METRIC_REGISTRY[metric].computation;
    if (c.kind !== 'goals') return kpi(current ? metricValue(c, now) : null, previous ? metricValue(c, before) : null, uncompared);
    if (goals.length === 0 || !plan.goalSpan) return kpi(null, null);
    // Under filters whose compared period lies outside the raw window, the conversions have no change, as a clipped read's.
    const goalsUncompared = uncompared || (plan.previousComplete && !plan.goalsCompared);
    return kpi(current ? goalsNow[c.measure] : null, plan.goalsCompared ? goalsBefore[c.measure] : null, goalsUncompared);
  };
  // Time on page is the dashboard's figure (raw=clip), a conversion rate a goal filter's: the base API's answer keeps its six KPIs.
  const stats: Partial<Record<Metric, Kpi>> = {};
  for (const metric of metricsUnder(q.filters)) if (q.rawClip || metric !== 'timeOnPage') stats[metric] = pick(metric);
  return (revenue === undefined ? stats : { ...stats, revenue }) as Stats;
}
