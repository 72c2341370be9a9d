// The one entry of every statistics read: the read API (/v1), the dashboard's mount (/app/v1) and
// its shared links, and the digests all come through here. A read goes one way: parse (the Query,
// ../core/query.ts) → the plan's inputs (./inputs.ts) → plan (pure, ./planner.ts) → run and shape
// by kind (./read/*). The caller may act between plan and run (the HTTP routes wait for a long
// read's slot there), which is why planning and running are two calls.
import type { Goal } from '../entities/goals.js';
import type { FunnelVersion } from '../entities/goals.js';
import type { Site } from '../entities/sites.js';
import { goalFilterOf } from '../core/vocabulary.js';
import { parseQuery, resolveGoalFilter, type Query, type QueryExtensions, type QueryKind, type RawParams } from '../core/query.js';
import type { AnswerPeriod, BreakdownAnswer, FunnelAnswer, GoalsAnswer, JourneysAnswer, PropertyKeysAnswer, StatsAnswer, TimeseriesAnswer } from '../core/answers.js';
import type { EventReader, EventStore } from '../storage/events/types.js';
import type { MetaStore, RollupState } from '../storage/meta/types.js';
import { rollupKey } from './rollups/key.js';
import { querySite } from './first-data-day.js';
import { planInputs } from './inputs.js';
import { planQuery, type PlannedQuery } from './planner.js';
import { computeBreakdown } from './read/breakdown.js';
import { computeFunnel } from './read/funnels.js';
import { computeGoals } from './read/goals.js';
import { computeJourneys } from './read/journeys.js';
import { computePropertyKeys } from './read/properties.js';
import { computeStats } from './read/stats.js';
import { computeTimeseries } from './read/timeseries.js';

/** What a read is asked of: the event store as reads see it, a site's rollup bookkeeping and its goals. */
export interface ReadSource {
  readonly events: EventReader;
  rollupState(site: Site): Promise<RollupState | undefined>;
  goals(site: Site): Promise<readonly Goal[]>;
}

/** The read source of an event store and the metadata beside it, reading through `reader` (the store itself, or the store under a deadline). */
export function readSourceOf(store: EventStore, meta: Pick<MetaStore, 'getRollupState' | 'listGoals'>, reader: EventReader = store): ReadSource {
  return {
    events: reader,
    rollupState: (site) => meta.getRollupState(rollupKey(store, site.id)),
    goals: (site) => meta.listGoals(site.internalId),
  };
}

/** A request of a kind, as the client sent it. */
export interface ReadRequest {
  readonly kind: QueryKind;
  readonly params: RawParams;
  readonly site: Site;
  /** The request's clock (ms since the epoch). */
  readonly now: number;
  /** A shared link's filters, applied to every read and not removable by the request. */
  readonly lockedFilters?: readonly string[];
  /** What the mount adds to the read API's parameters (the dashboard's: goals under filters). */
  readonly extensions?: QueryExtensions;
}

/** A planned read: the query and its plan, with the site and the rollup bookkeeping it was planned with (read once). */
export interface PlannedRead {
  readonly q: PlannedQuery;
  readonly site: Site;
  readonly rollup: RollupState | undefined;
  /** The site's goals (kinds that count goals, or a goal filter; else none), read once for plan and run: a goal made in between is not counted from goal rows the plan did not check. */
  readonly goals: readonly Goal[];
  /**
   * A goals read's goal filter's goals: the goals it lists, each counted under the read's other
   * filters (the query, planned without the goal filter); absent without one.
   */
  readonly onlyGoals?: readonly number[];
}

/** The kinds of read whose answers count the site's goals (a stats read's conversions, a goal metric's timeseries). */
const COUNTS_GOALS: ReadonlySet<QueryKind> = new Set(['stats', 'timeseries', 'goals']);

/** Parses (with the site's first day with data where the period is `all`), gathers the plan's inputs (the only statements before the run) and plans. */
export async function planRead(source: ReadSource, request: ReadRequest): Promise<PlannedRead> {
  const { site } = request;
  const parsed = parseQuery(request.kind, request.params, await querySite(source.events, site, request.params), request.now, request.lockedFilters, request.extensions);
  // A goal filter's goals come from the site's definitions, resolved here: the planner and the compiler read no store.
  const goalFilter = goalFilterOf(parsed.filters);
  // Goals counted under filters may read goal rows: the plan asks whether they are written for every goal.
  const goals = goalFilter || COUNTS_GOALS.has(parsed.kind) ? await source.goals(site) : [];
  let q = goalFilter ? resolveGoalFilter(parsed, goals) : parsed;
  // The goals read lists the filter's goals, each as it counts under the other filters.
  const onlyGoals = goalFilter && q.kind === 'goals' ? goalFilter.values.map(Number) : undefined;
  if (onlyGoals) q = { ...q, filters: q.filters.filter((f) => f.dimension !== goalFilter!.dimension) };
  const rollup = await source.rollupState(site);
  const inputs = await planInputs(source.events, site, q, rollup, goals.map((g) => g.goalId));
  return { q: planQuery(q, inputs), site, rollup, goals, ...(onlyGoals ? { onlyGoals } : {}) };
}

const periodOut = (q: Query): AnswerPeriod => ({ from: q.period.from, to: q.period.to, grain: q.grain, tz: q.tz });
const daysOut = (q: Query) => ({ from: q.period.from, to: q.period.to });

/** Runs a planned read and shapes its answer, one function per kind. */
export const answers = {
  async stats(source: ReadSource, { q, goals }: PlannedRead): Promise<StatsAnswer> {
    return { period: periodOut(q), stats: await computeStats(source.events, q, goals) };
  },
  async timeseries(source: ReadSource, { q, goals }: PlannedRead): Promise<TimeseriesAnswer> {
    const { points, prev } = await computeTimeseries(source.events, q, goals);
    return { period: periodOut(q), grain: q.grain, tz: q.tz, points, ...(prev ? { prev } : {}) };
  },
  async breakdown(source: ReadSource, { q }: PlannedRead): Promise<BreakdownAnswer> {
    return { period: periodOut(q), dimension: q.breakdown!.dimension, ...(await computeBreakdown(source.events, q)) };
  },
  async goals(source: ReadSource, { q, goals, onlyGoals }: PlannedRead): Promise<GoalsAnswer> {
    return { period: daysOut(q), goals: await computeGoals(source.events, q, onlyGoals ? goals.filter((g) => onlyGoals.includes(g.goalId)) : goals) };
  },
  async properties(source: ReadSource, { q }: PlannedRead): Promise<PropertyKeysAnswer> {
    return { period: daysOut(q), keys: await computePropertyKeys(source.events, q) };
  },
  async journeys(source: ReadSource, { q }: PlannedRead): Promise<JourneysAnswer> {
    return { period: daysOut(q), steps: q.journey!.steps, ...(await computeJourneys(source.events, q)) };
  },
  async funnel(source: ReadSource, { q }: PlannedRead, funnel: FunnelVersion): Promise<FunnelAnswer> {
    return {
      period: daysOut(q),
      funnel: { id: funnel.id, name: funnel.name, version: funnel.version, windowMinutes: funnel.windowMinutes },
      ...(await computeFunnel(source.events, q, funnel)),
    };
  },
};

/** Plans and answers a read in one call, for callers with nothing to do in between (the digests). */
export async function read<K extends 'stats' | 'breakdown' | 'timeseries' | 'goals'>(
  source: ReadSource,
  request: ReadRequest & { kind: K },
): Promise<Awaited<ReturnType<(typeof answers)[K]>>> {
  const planned = await planRead(source, request);
  return (await answers[request.kind](source, planned)) as Awaited<ReturnType<(typeof answers)[K]>>;
}
