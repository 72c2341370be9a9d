// GET /v1/sites/:id/timeseries: one metric per hour, day, week or month of the period (and of the
// previous period when compared).
import type { EventReader } from '../../storage/events/types.js';
import type { Goal } from '../../entities/goals.js';
import { localDay } from '../../core/localtime.js';
import { dayBuckets, hourBuckets, type Period } from '../../core/period.js';
import { METRIC_REGISTRY, type TrafficComputation } from '../../core/metric-registry.js';
import type { Point } from '../../core/answers.js';
import { dailyMeasureStatements, hourlyMeasures } from '../sql/daily.js';
import { metricValue, needsSessions, trafficOf, ZERO_MEASURES, type Measures } from '../measures.js';
import type { DaySources, PlannedQuery } from '../planner.js';
import { dailyGoals, dailyMeasures, goalsRead, sumDays, sumGoal } from './days.js';
import { addBaseVisitors, goalFilterComputation, withoutGoalFilter } from './goal-filter.js';
import { goalFilterOf } from '../../core/vocabulary.js';

/** Compiles the day, week or month points of a period; running them gives null for future buckets and days not computable. */
function dayPoints(events: EventReader, q: PlannedQuery, period: Period, days: DaySources, goals: readonly Goal[]): () => Promise<Point[]> {
  const grain = q.grain === 'hour' ? 'day' : q.grain;
  const buckets = dayBuckets(period, grain, q.tz);
  const firstComputable = days.firstComputable;
  const c = computationOf(q);
  const goalRows = c.kind === 'goals' && goals.length > 0 ? goalsRead(events.dialect, q, days, goals) : null;
  const measureRows = c.kind !== 'goals' ? dailyMeasureStatements(events.dialect, q, days, needsSessions(c) || q.plan.visits) : null;
  const baseRows = readsBase(q) ? dailyMeasureStatements(events.dialect, withoutGoalFilter(q), days, false) : null;
  return async () => {
    let valueOf: (from: string, to: string) => number | null = () => null;
    if (c.kind === 'goals' && goalRows) {
      const daily = await dailyGoals(events, goalRows);
      valueOf = (from, to) => sumGoal(daily, from, to)[c.measure];
    } else if (c.kind !== 'goals') {
      const [daily, base] = await Promise.all([dailyMeasures(events, measureRows!), baseRows && dailyMeasures(events, baseRows)]);
      if (base) addBaseVisitors(daily, base);
      valueOf = (from, to) => metricValue(c, sumDays(daily, from, to));
    }
    return buckets.map((b) => {
      const from = firstComputable !== null && firstComputable > b.from ? firstComputable : b.from;
      const to = b.to < q.today ? b.to : q.today;
      if (firstComputable === null || from > to) return { t: b.t, value: null };
      return { t: b.t, value: valueOf(from, to) };
    });
  };
}

/** Compiles the hourly points of a period, from raw events; hours before the raw window or retention, or in the future, are null. */
function hourPoints(events: EventReader, q: PlannedQuery, period: Period, days: DaySources): () => Promise<Point[]> {
  const { starts, end } = hourBuckets(period, q.tz);
  const firstComputable = days.firstComputable;
  const statement = hourlyMeasures(events.dialect, q, period, starts, end);
  const baseStatement = readsBase(q) ? hourlyMeasures(events.dialect, withoutGoalFilter(q), period, starts, end) : null;
  return async () => {
    type Rows = Array<{ b: string | number | null } & Record<string, unknown>>;
    const byHour = (rows: Rows) => new Map(rows.flatMap((r) => (r.b === null ? [] : [[Number(r.b), trafficOf(r)] as const])));
    const [rows, baseRows] = await Promise.all([events.query<Rows[number]>(statement), baseStatement && events.query<Rows[number]>(baseStatement)]);
    const byBucket = byHour(rows);
    if (baseRows) addBaseVisitors(byBucket, byHour(baseRows));
    // The planner refuses hourly conversions but under a goal filter, where they are its completions.
    const c = computationOf(q) as TrafficComputation;
    return starts.map((t, i) => {
      const day = localDay(t, q.tz);
      if (t > q.now || firstComputable === null || day < firstComputable) return { t, value: null };
      return { t, value: metricValue(c, byBucket.get(i) ?? ZERO_MEASURES) };
    });
  };
}

/** How the query's metric is computed: as the registry says, or as a goal filter computes it. */
const computationOf = (q: PlannedQuery) => (goalFilterOf(q.filters) ? goalFilterComputation(q.metric) : METRIC_REGISTRY[q.metric].computation);

/** Whether the metric divides by the visitors without the goal filter (a conversion rate), read apart. */
const readsBase = (q: PlannedQuery) => q.metric === 'conversionRate';

export async function computeTimeseries(events: EventReader, q: PlannedQuery, goals: readonly Goal[]): Promise<{ points: Point[]; prev: Point[] | null }> {
  const series = (period: Period, days: DaySources) =>
    q.grain === 'hour' ? hourPoints(events, q, period, days) : dayPoints(events, q, period, days, goals);
  // A read clipped to the raw window has no previous points where its compared period lies outside it.
  const compared = q.compare && (q.plan.clippedFrom === null || q.plan.previousComplete);
  // Both series compiled before either runs.
  const current = series(q.period, q.plan.period);
  const previous = compared ? series(q.previous, q.plan.previous) : null;
  const [points, prev] = await Promise.all([current(), previous ? previous() : Promise.resolve(null)]);
  return { points, prev };
}
