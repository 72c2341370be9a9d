// The planner: a pure step Query → PlannedQuery that decides where each day's numbers come from
// (docs/read-path.md, "The planner") and rejects what cannot be answered. Its inputs
// (./inputs.ts) are gathered before it runs; its plan carries the day sources of every range an
// endpoint reads, so that nothing after it plans again.
//
// - at most one filter, and no breakdown or a breakdown of that filter's own dimension → rollups
//   up to the site's watermark, raw events after it (or from the first day in the raw window on
//   which the filter's key was folded into `(other)`, which rollups cannot count);
// - two or more filters, or a filter with another dimension's breakdown → the raw path: the whole
//   period must lie in the raw window (the site's last `rawDays` local days, 30 by default); where
//   every filter and the broken-down dimension are session-scoped, session rows answer the days up
//   to the watermark (once they cover them all) and raw events the days after it, else raw events
//   answer every day; a breakdown under one `is` filter that pair months hold reads them for the
//   whole months written from its first day (./rollups/pairs.ts), the days after them as above;
// - a filter `is_not` (`!:`) or `contains` (`~:`) → the raw path likewise, session rows included;
// - a page pattern (a shared link's lock on `page:/blog/**`), or a property filter on `(none)` →
//   the raw path too, on raw events only (session rows hold neither pages nor properties, a
//   property's rollups a `(none)` row only on the days some event carries it), within the raw window likewise;
// - custom properties (`prop.<key>`) are event-scoped dimensions like `page`: their rollups are
//   dim_daily's rows of dimension `prop.<key>`, capped and folded alike;
// - journeys → within the raw window likewise: where every filter is a key sessions carry,
//   session paths (each session's pages in order per day) answer the days up to the
//   watermark (once they cover them all) and raw events the days after it, else raw events answer every day;
// - goals under filters (the goals read, a goal metric's timeseries, the stats' conversions) → the
//   raw path too, within the raw window likewise: where every filter is a key sessions carry, goal
//   rows answer the days up to the watermark (once they cover them all), else raw events every day;
// - a goal filter → the raw path too, on raw events only (no rollup or session row holds goals);
// - hourly timeseries → raw events only (earlier hours are not computable and come out null);
// - imported aggregates (daily figures of another tool's export) answer their days where they are
//   exact: a daily read (stats, day-or-longer timeseries, breakdown, goals) with no filter, or one
//   filter and no breakdown or a breakdown of that filter's own dimension; any other read leaves
//   them out, and the plan says which (`imported`: included, excluded, or none in the days read).
import { addDays } from '../core/localtime.js';
import { apiError } from '../core/errors.js';
import { addMonths, firstOfMonth, periodDays, type Period } from '../core/period.js';
import { clippedQuery, type Query } from '../core/query.js';
import type { ImportedAnswer } from '../core/answer-headers.js';
import { METRIC_REGISTRY, metricTakesFilters } from '../core/metric-registry.js';
import { RAW_DAYS } from '../core/vocabulary.js';
import { countsVisits, goalRowsAnswer, goalsUnderFilters, hasGoalFilter, hasOperator, hasPagePattern, hasPropertyNone, needsRawEvents, pairsAnswer, rawOnlyByFilters, rawWindowStart, retentionStart, sessionPathsAnswer, sessionRowsAnswer, visitorsFromRollups } from './windows.js';

/** What the planner needs to know of a site's rollups, gathered by ./inputs.ts. */
export interface PlanInputs {
  /** Last day the site's rollups cover; null when none. */
  watermark: string | null;
  retentionMonths: number | null;
  /** How many local days, today included, the site keeps its raw events (`rawDays`). */
  rawDays: number;
  /** The first rolled-up day on which the single filter's key was folded into `(other)`, if any. */
  firstFoldedDay?: string | null;
  /**
   * The first rolled-up day from which session rows are written, up to the watermark (absent or
   * null: every rolled-up day's): days before it are still to be backfilled.
   */
  sessionRowsFrom?: string | null;
  /** Likewise, the first rolled-up day from which session paths are written (absent or null: every rolled-up day's). */
  sessionPathsFrom?: string | null;
  /** Likewise, the first rolled-up day from which goal rows are written for every goal (absent or null: every rolled-up day's). */
  goalRowsFrom?: string | null;
  /** The first and last day of the site's imported aggregates; absent or null when it has none. */
  importedDays?: Period | null;
  /** For a breakdown pair months answer (./windows.ts, pairsAnswer), the months of its period written (first days); absent: none. */
  pairMonths?: readonly string[];
}

/** Where the days of a range come from under a plan; days in neither part are not computable. */
export interface DaySources {
  readonly rollup: Period | null;
  /**
   * Days read from session rows (their goals from goal rows), or of journeys from session paths:
   * the raw path's days up to the watermark, where they answer.
   */
  readonly sessions: Period | null;
  readonly raw: Period | null;
  /** Days read from imported aggregates (they hold no day that rollups or raw events hold). */
  readonly imported: Period | null;
  /** The first computable day of the range, or null when none is. */
  readonly firstComputable: string | null;
}

/** A range of rolled-up days as whole calendar months (read from monthly sums) and the days around them. */
export interface MonthSplit {
  readonly head: Period | null;
  readonly months: Period | null; // first days of the first and last whole months
  readonly tail: Period | null;
}

/** A breakdown's whole months from its first day read from pair months, and the days after them as the plan reads them. */
export interface PairSplit {
  readonly months: Period; // first days of the first and last month
  readonly rest: DaySources;
}

/**
 * The days a journeys read reads: the sessions that start in `starts`, read over those days and the
 * next (a session may go on past midnight), from session paths up to the watermark where they
 * answer (`paths`) and from raw events after it (`raw`).
 */
export interface JourneyDays {
  readonly starts: Period;
  readonly paths: Period | null;
  readonly raw: Period | null;
}

/** What the planner decided, once per request: every read module takes its days from here. */
export interface Plan {
  /** `rollup`: rollups up to the watermark, raw events after it. `raw`: raw events only. */
  readonly path: 'rollup' | 'raw';
  /** Last day read from rollups (on the raw path, the site's watermark, unread); null when none. */
  readonly watermark: string | null;
  /** The days of the period. */
  readonly period: DaySources;
  /**
   * The days a breakdown's period visitors (its rows' shares) are read from: on the raw path, where
   * rollups answer the filters alone (./windows.ts, visitorsFromRollups), rollups up to the
   * watermark and raw events after it, imported aggregates left out as the rows leave them out;
   * else the period's own.
   */
  readonly periodVisitors: DaySources;
  /** The days of the compared period (none under comparison `off`). */
  readonly previous: DaySources;
  /**
   * The days of previous.from..period.to, which stats and goals read in one statement (the
   * period's own days under comparison `off`).
   */
  readonly span: DaySources;
  /**
   * How the last day of an elapsed compared part (`previousCut`) is counted: `raw`, its raw events up
   * to the cut; `share`, its whole-day figures in proportion to the cut (raw events of that day are
   * no longer kept); null without a cut.
   */
  readonly previousCut: 'raw' | 'share' | null;
  /** Whether every day of the compared period is computable: a comparison needs them all. */
  readonly previousComplete: boolean;
  /**
   * The days the stats count goals on (null for the other kinds). Without filters, the span. Under
   * filters, raw events, and goal rows (as `sessions`) where every filter is a key sessions carry
   * (no other rollup, nor any imported aggregate, holds goals by dimension): the span where the
   * raw window holds every day of both periods, the period where it holds only that one's; with
   * `raw=clip` the period's days inside the window where it starts before it (`goalsSince`); else null.
   */
  readonly goalSpan: DaySources | null;
  /** Where the goal span is clipped to the raw window: its first day, from which the conversions are counted (their counted-since header); else null. */
  readonly goalsSince: string | null;
  /** Whether the goal span holds the whole compared period: the conversions are compared. */
  readonly goalsCompared: boolean;
  /** On a read clipped to the raw window (`raw=clip`), the first day the request asked for; else null. */
  readonly clippedFrom: string | null;
  /** Whether the read counts visits under event filters (./windows.ts, `countsVisits`): from raw events, by ./sql/visits.ts. */
  readonly visits: boolean;
  /**
   * How many days of raw events or session rows the request reads at most: the span's days from
   * either that can hold data (inside the raw window, up to today). Past the default raw window it
   * is a long read (`isLongRead`).
   */
  readonly detailDaysRead: number;
  /** A journeys read's days (null for other kinds, or when none is computable). */
  readonly journeyDays: JourneyDays | null;
  /**
   * A raw-path breakdown's whole months from its period's first day that pair months answer
   * (./windows.ts, pairsAnswer), and the rest of its period; null where none does.
   */
  readonly breakdownPairs: PairSplit | null;
  /** A breakdown's rolled-up days of the period, split for the monthly sums; null for other kinds. */
  readonly breakdownMonths: MonthSplit | null;
  /**
   * A breakdown's period (after retention) split for the monthly sums of imported days, when it
   * reads any: a month whole in the period is read from them however few of its days were imported
   * (they hold only those), so that an import ending mid-month costs no days of daily rows.
   */
  readonly importedMonths: MonthSplit | null;
  /**
   * What the answer does with imported aggregates (the `Svc-Imported` header): `included`,
   * `excluded` (the read is one they cannot answer exactly), or `none` (no day read holds any).
   */
  readonly imported: ImportedAnswer;
}

/** A query with its plan: what the read modules (src/stats/read) take. */
export interface PlannedQuery extends Query {
  readonly plan: Plan;
}

export function planQuery(asked: Query, inputs: PlanInputs): PlannedQuery {
  let q = asked;
  if (q.kind === 'timeseries') {
    if (!metricTakesFilters(q.metric, q.filters, q.rawClip) || conversionsRefused(q)) {
      throw apiError('METRIC_NOT_FILTERABLE', 'metric', { metric: q.metric });
    }
    // Goals are counted per day (goal_daily and the raw goal reads): a metric summed over goals has no
    // hourly value. Under a goal filter conversions are its matching events, counted per hour too.
    if (METRIC_REGISTRY[q.metric].computation.kind === 'goals' && q.grain === 'hour' && !hasGoalFilter(q)) {
      throw apiError('HOURLY_CONVERSIONS_UNSUPPORTED', 'conversions');
    }
  }
  const windowStart = rawWindowStart(q.today, inputs.rawDays);
  // Raw events are kept `rawDays` days: the period must start inside that window and, reaching into
  // the future or not, last at most that many days (docs/api.md: the period is then limited to them).
  let clippedFrom: string | null = null;
  const exceeds = (p: Period) => p.from < windowStart || periodDays(p) > inputs.rawDays;
  if (rawOnlyByFilters(asked) && exceeds(asked.period)) {
    // `raw=clip` reads the period's days inside the window, where it starts before it and has any there.
    const inside = { from: windowStart, to: asked.period.to };
    if (!asked.rawClip || asked.period.from >= windowStart || inside.from > inside.to || exceeds(inside)) {
      const reason = asked.kind === 'journeys' ? 'journeys' : hasGoalFilter(asked) ? 'goalFilter' : hasPagePattern(asked) ? 'pagePattern' : asked.filters.length > 1 ? 'filters' : hasOperator(asked) ? 'operator' : hasPropertyNone(asked) ? 'propertyNone' : goalsUnderFilters(asked) ? 'goals' : 'filters';
      throw apiError('RAW_WINDOW_EXCEEDED', reason, { days: inputs.rawDays });
    }
    clippedFrom = asked.period.from;
    q = clippedQuery(asked, windowStart);
  }
  const path = needsRawEvents(q) ? ('raw' as const) : ('rollup' as const);
  const bounds: Bounds = {
    path,
    watermark: path === 'rollup' ? rollupWatermark(inputs, windowStart) : inputs.watermark,
    rawWindowStart: windowStart,
    retentionStart: retentionStart(q.today, inputs.retentionMonths),
    sessionRows: path !== 'raw' ? null : sessionRowsAnswer(q) ? { from: sessionRowsFrom(q, inputs) } : sessionPathsAnswer(q) ? { from: inputs.sessionPathsFrom ?? null } : null,
    imported: importedAnswers(q) ? (inputs.importedDays ?? null) : null,
  };
  const period = daySources(bounds, q.period);
  const periodVisitors = path === 'raw' && visitorsFromRollups(q) ? daySources(visitorBounds(bounds, inputs, windowStart), q.period) : period;
  const compared = q.comparison !== 'off';
  const previous = compared ? daySources(bounds, q.previous) : NO_DAYS;
  const span = compared ? daySources(bounds, { from: q.previous.from, to: q.period.to }) : period;
  const previousComplete = compared && previous.firstComputable === q.previous.from;
  // Only the stats count goals beside their other figures (a goals read or a conversions timeseries
  // reads them over its span): no other read reads the goal span, nor counts its days as read. Under
  // a goal filter, the stats count its conversions as their matching events, with the other figures.
  // A breakdown's whole months from pair months read a few rows each (and a breakdown reads no
  // compared period): its detail days are the rest's.
  const breakdownPairs = pairsAnswer(q) ? pairSplit(bounds, q.period, inputs.pairMonths ?? []) : null;
  const detailSpan = breakdownPairs ? breakdownPairs.rest : span;
  const goals =
    q.kind !== 'stats' || conversionsRefused(q) || hasGoalFilter(q) ? NO_GOAL_DAYS : q.filters.length === 0 ? { span, compared: previousComplete, since: null } : filteredGoalDays(q, bounds, inputs, previousComplete);
  return Object.freeze({
    ...q,
    plan: Object.freeze({
      path,
      watermark: bounds.watermark,
      period,
      periodVisitors,
      previous,
      span,
      detailDaysRead: Math.max(detailDays(detailSpan, windowStart, q.today), goals.span ? detailDays(goals.span, windowStart, q.today) : 0),
      previousCut: q.previousCut && (keptRaw(bounds, q.previousCut.day) ? 'raw' : 'share'),
      clippedFrom,
      visits: countsVisits(q),
      previousComplete,
      goalSpan: goals.span,
      goalsCompared: goals.compared,
      goalsSince: goals.since,
      journeyDays: q.kind === 'journeys' ? journeyDays(period, bounds.watermark) : null,
      breakdownPairs,
      breakdownMonths: q.kind === 'breakdown' && period.rollup ? splitMonths(period.rollup) : null,
      importedMonths: q.kind === 'breakdown' && period.imported ? splitMonths(keptDays(q.period, bounds.retentionStart)) : null,
      imported: importedAnswer(q, inputs.importedDays ?? null, compared ? { from: q.previous.from, to: q.period.to } : q.period, bounds.retentionStart),
    }),
  });
}

/**
 * Whether a read leaves conversions under its filters out, as the base API defines its requests (stats:
 * `null`; a conversions timeseries: 400). A request with `raw=clip` is the dashboard's kind (docs/api.md, the
 * dashboard's): conversions are counted under its filters from raw events; the goals read's filters
 * are the dashboard's extension already.
 */
function conversionsRefused(q: Query): boolean {
  return q.filters.length > 0 && !q.rawClip && q.kind !== 'goals' && (q.kind === 'stats' || METRIC_REGISTRY[q.metric].computation.kind === 'goals');
}

/**
 * The last day read from rollups. Rollups cannot count a filter's key on a day it was folded into
 * `(other)`: from the first such day inside the raw window on, raw events answer instead (they are
 * kept for those days). A folded day before the window has only its rollup, which reads 0 for the key.
 */
function rollupWatermark(inputs: PlanInputs, windowStart: string): string | null {
  const { watermark, firstFoldedDay: folded } = inputs;
  if (watermark === null || !folded || folded < windowStart || folded > watermark) return watermark;
  return addDays(folded, -1);
}

/**
 * Whether imported aggregates answer a query exactly: they hold whole days per table (the site's
 * figures, and per dimension key), so a daily read with no filter, or with one filter and at most a
 * breakdown of that filter's own dimension (the table that holds the filter's keys). Funnels walk
 * visitors' events, hourly grains cut days: neither can be told from daily sums.
 */
export function importedAnswers(q: Query): boolean {
  if (q.kind === 'funnel' || (q.kind === 'timeseries' && q.grain === 'hour')) return false;
  return !rawOnlyByFilters(q);
}

/** `none` when no day of the requested days (cut by retention) holds imported aggregates; else whether the plan reads them. */
function importedAnswer(q: Query, importedDays: Period | null, requested: Period, keptFrom: string | null): ImportedAnswer {
  if (importedDays === null) return 'none';
  const from = [requested.from, importedDays.from, keptFrom ?? requested.from].sort()[2]!;
  const to = requested.to < importedDays.to ? requested.to : importedDays.to;
  if (from > to) return 'none';
  return importedAnswers(q) ? 'included' : 'excluded';
}

/** A range from the retention's first day on. */
function keptDays(range: Period, retention: string | null): Period {
  return retention !== null && retention > range.from ? { from: retention, to: range.to } : range;
}

/** The days of raw events, session rows or goal rows a range's sources read that can hold data. */
function detailDays(days: DaySources, windowStart: string, today: string): number {
  return daysHoldingData(days.sessions, windowStart, today) + daysHoldingData(days.raw, windowStart, today);
}

/**
 * The first rolled-up day from which session rows answer a query: where it reads goals under
 * filters, the later of the days session rows and goal rows are written from.
 */
function sessionRowsFrom(q: Query, inputs: PlanInputs): string | null {
  const from = [inputs.sessionRowsFrom, goalsUnderFilters(q) ? inputs.goalRowsFrom : null].filter((day) => day !== null && day !== undefined).sort();
  return from.at(-1) ?? null;
}

/** The days of a range that can hold data: inside the raw window, up to today. */
function daysHoldingData(days: Period | null, windowStart: string, today: string): number {
  if (!days) return 0;
  return Math.max(0, periodDays({ from: days.from > windowStart ? days.from : windowStart, to: days.to < today ? days.to : today }));
}

/** What the days of any range are cut by: the path, the watermark, the raw window, retention and the session rows. */
interface Bounds {
  path: Plan['path'];
  watermark: string | null;
  rawWindowStart: string;
  retentionStart: string | null;
  /** On the raw path of a query session rows answer, the first day they are written from (`from` null: every day); else null. */
  sessionRows: { from: string | null } | null;
  /** The days holding imported aggregates where the query reads them; else null. */
  imported: Period | null;
}

/**
 * The bounds of a raw-path breakdown's period visitors read from rollups: the rollup path's
 * watermark under its filter, no session rows and no imported aggregates (the rows hold none).
 */
function visitorBounds(bounds: Bounds, inputs: PlanInputs, windowStart: string): Bounds {
  return { ...bounds, path: 'rollup', watermark: rollupWatermark(inputs, windowStart), sessionRows: null, imported: null };
}

/** Whether a day's raw events are kept: inside the raw window and not before retention. */
function keptRaw(bounds: Bounds, day: string): boolean {
  return day >= bounds.rawWindowStart && (bounds.retentionStart === null || day >= bounds.retentionStart);
}

const NO_DAYS: DaySources = Object.freeze({ rollup: null, sessions: null, raw: null, imported: null, firstComputable: null });

function clip(from: string, to: string): Period | null {
  return from <= to ? { from, to } : null;
}

function daySources(bounds: Bounds, range: Period): DaySources {
  let from = range.from;
  if (bounds.retentionStart !== null && bounds.retentionStart > from) from = bounds.retentionStart;
  if (bounds.path === 'raw' && bounds.rawWindowStart > from) from = bounds.rawWindowStart;
  const wm = bounds.watermark;
  // Rolled-up days: from rollups on the rollup path; on the raw path, from session rows where they
  // answer the query and are written for every such day, else from raw events like the rest.
  const rolledUp = wm === null ? null : clip(from, wm < range.to ? wm : range.to);
  const rows = bounds.sessionRows;
  const byRows = bounds.path === 'rollup' || (rows !== null && rolledUp !== null && (rows.from === null || rows.from <= rolledUp.from));
  const before = byRows ? rolledUp : null;
  const rawFrom = before ? addDays(before.to, 1) : from;
  const raw = clip(rawFrom, range.to);
  const rollup = bounds.path === 'rollup' ? before : null;
  const sessions = bounds.path === 'raw' ? before : null;
  const held = bounds.imported;
  const imported = held && clip(held.from > from ? held.from : from, held.to < range.to ? held.to : range.to);
  const firstRead = before?.from ?? raw?.from ?? null;
  const firstComputable = imported && (firstRead === null || imported.from < firstRead) ? imported.from : firstRead;
  return Object.freeze({ rollup, sessions, raw, imported, firstComputable });
}

/**
 * The whole months from a range's first day that pair months hold (`written`), one after another,
 * and the range's other days: none where the range starts within a month, or before retention.
 * Pair months are written for months rolled up and inside the raw window only.
 */
function pairSplit(bounds: Bounds, range: Period, written: readonly string[]): PairSplit | null {
  if (range.from !== firstOfMonth(range.from) || (bounds.retentionStart !== null && bounds.retentionStart > range.from)) return null;
  let next = range.from;
  while (written.includes(next) && addDays(addMonths(next, 1), -1) <= range.to) next = addMonths(next, 1);
  if (next === range.from) return null;
  return { months: { from: range.from, to: addMonths(next, -1) }, rest: daySources(bounds, { from: next, to: range.to }) };
}

/**
 * A journeys read's days from its period's sources: the day after the last is read too, from session
 * paths where they hold it (up to the watermark), else from raw events.
 */
function journeyDays(period: DaySources, watermark: string | null): JourneyDays | null {
  const first = period.sessions?.from ?? period.raw?.from;
  const last = period.raw?.to ?? period.sessions?.to;
  if (first === undefined || last === undefined) return null;
  const readTo = addDays(last, 1);
  if (period.sessions === null || watermark === null) return { starts: { from: first, to: last }, paths: null, raw: { from: first, to: readTo } };
  const pathsTo = readTo < watermark ? readTo : watermark;
  return { starts: { from: first, to: last }, paths: { from: period.sessions.from, to: pathsTo }, raw: clip(addDays(pathsTo, 1), readTo) };
}

/** Where the stats count goals: their days, whether the compared period is among them, and the day they are clipped to (`goalsSince`). */
interface GoalDays {
  span: DaySources | null;
  compared: boolean;
  since: string | null;
}

const NO_GOAL_DAYS: GoalDays = { span: null, compared: false, since: null };

/**
 * Under filters, where goals are counted: raw events, and goal rows on the rolled-up days where
 * every filter is a key sessions carry, of whole periods only (a conversion figure missing days
 * would read as a fall), the compared one where the comparison holds. With `raw=clip`, a period
 * that starts before the raw window is counted from its start, uncompared, and the answer says from
 * which day, as the breakdowns' clipped reads are.
 */
function filteredGoalDays(q: Query, bounds: Bounds, inputs: PlanInputs, previousComplete: boolean): GoalDays {
  const rows = goalRowsAnswer(q);
  const raw: Bounds = { ...bounds, path: 'raw', watermark: rows ? inputs.watermark : null, sessionRows: rows ? { from: inputs.goalRowsFrom ?? null } : null, imported: null };
  const whole = (p: Period) => daySources(raw, p).firstComputable === p.from;
  if (!whole(q.period)) {
    const inside = { from: bounds.rawWindowStart, to: q.period.to };
    if (!q.rawClip || q.period.from >= inside.from || inside.from > inside.to || !whole(inside)) return NO_GOAL_DAYS;
    return { span: daySources(raw, inside), compared: false, since: inside.from };
  }
  const compared = previousComplete && whole(q.previous);
  return { span: daySources(raw, compared ? { from: q.previous.from, to: q.period.to } : q.period), compared, since: null };
}

/** Whether a plan reads raw events or session rows of more days than the default raw window: the routes bound such reads per reader. */
export function isLongRead(plan: Plan): boolean {
  return plan.detailDaysRead > RAW_DAYS.default;
}

export function splitMonths(range: Period): MonthSplit {
  const firstWhole = range.from === firstOfMonth(range.from) ? range.from : addMonths(firstOfMonth(range.from), 1);
  const nextMonth = addMonths(firstOfMonth(range.to), 1);
  const lastWholeEnd = addDays(nextMonth, -1) === range.to ? range.to : addDays(firstOfMonth(range.to), -1);
  if (firstWhole > lastWholeEnd) return { head: range, months: null, tail: null };
  return {
    head: clip(range.from, addDays(firstWhole, -1)),
    months: { from: firstWhole, to: firstOfMonth(lastWholeEnd) },
    tail: clip(addDays(lastWholeEnd, 1), range.to),
  };
}
