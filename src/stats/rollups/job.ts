// Daily rollups (docs/api.md, "How answers are computed"): site_daily, dim_daily (capped per site,
// day and dimension, the rest folded into `(other)`), goal_daily and funnel_daily (per funnel
// version), written exactly from raw events by the same measure builders that answer raw reads
// (src/stats/compile.ts). dim_monthly sums
// dim_daily per calendar month, so that long breakdowns group a few rows per key instead of one per
// day (every measure is a sum of daily values, so the sums are exact).
//
// Every column of a `rows` query carries a name of its own: ClickHouse merges two columns of one
// unnamed expression text (two equal literals) into one.
//
// Crash safety without multi-statement transactions: a range of days is rewritten (each table's
// rows replaced, `EventStore.replaceRows`) before the site's watermark moves past it, and readers
// use rollups only up to the watermark, so a half-written range is never read and is simply
// rewritten on the next run. Days already under the watermark that must be rewritten (imports) are
// first recorded as pending, and cleared only once rewritten. The watermark and the pending days
// are the MetaStore's (small transactional state); the rollup rows are the EventStore's.
import type { EventStore } from '../../storage/events/types.js';
import type { Site } from '../../entities/sites.js';
import { goalPropsField } from '../../entities/goals.js';
import type { MetaStore, RollupKey, RollupState } from '../../storage/meta/types.js';
import { withLease } from '../../storage/meta/leases.js';
import type { MaintenanceRegistry } from '../../core/maintenance.js';
import { addDays, localDay, startOfLocalDay } from '../../core/localtime.js';
import { SESSION_GAP_MS } from '../../core/session-gap.js';
import { addMonths, firstOfMonth, MAX_PERIOD_DAYS, type Period } from '../../core/period.js';
import { funnelKey, goalKey } from '../../core/answers.js';
import { DIMENSIONS, isPropertyDimension, NONE_KEY, OTHER_KEY, PROPERTY_PREFIX, scopeOf, type QueryDimension } from '../../core/vocabulary.js';
import { measurePropertyNones, sessionPartDays, sessionPartsOfEvents, sessionRowsOfParts } from './sql.js';
import { viewsColumn } from '../sql/breakdown.js';
import { sessionRowKey } from '../sql/events.js';
import { asRepeated, dayRange, integerLiteral, repeatedKeyExpr, scopedPropertyKey } from '../sql/filters.js';
import { funnelEvents, measureGoals } from '../sql/goals.js';
import { measureEvents, measureSessionRows } from '../sql/measures.js';
import { measurePropertyPairs } from '../sql/properties.js';
import { measureScrollDepth } from '../sql/scroll.js';
import { definitionKeys, parseComputed, SESSION_ROWS_KEY, type Backfill, type ComputedDefinitions, type Definitions } from './coverage.js';
import { walkFunnel, type FunnelEventRow } from '../funnel.js';
import { GOAL_MEASURES, measureColumns, TRAFFIC_MEASURES } from '../measures.js';
import { rawWindowStart, retentionStart } from '../windows.js';
import { forgetImportedDays } from '../imported-days.js';
import { joinSql, sql, trusted, type Sql } from '../../sql/sql.js';
import { DAILY_TABLES, DIM_DAILY, DIM_MONTHLY, DIM_TOP_KEYS, FUNNEL_DAILY, GOAL_DAILY, IMPORTED_TABLES, ROLLUP_TABLES, SCROLL_DAILY, SESSION_PARTS, SESSION_ROWS, SITE_DAILY } from './tables.js';
import { EVENTS_TABLE } from '../../storage/events/schema.js';
import { SETTLE_MIN_EVENTS } from '../settlement.js';
import { settleSite } from './settle.js';

export interface RollupDeps {
  events: EventStore;
  meta: MetaStore;
}

export interface RollupOptions {
  /** Keys kept per site, day and dimension; the rest fold into `(other)`. */
  dimensionKeyCap?: number;
  /** Days a run backfills for new goals and funnel versions (`BACKFILL_DAYS`). */
  backfillDays?: number;
  /** The fewest events before a settlement's cut for which a site's raw days are settled (`SETTLE_MIN_EVENTS`). */
  settleMinEvents?: number;
}

export const DEFAULT_DIMENSION_KEY_CAP = 10_000;
/** Days rewritten per pass; bounds statement size while catching up on long histories. */
const CHUNK_DAYS = 31;
/**
 * Events a pass rewrites at most (a larger day is a pass of its own): a pass's statements hold its
 * sessions and keys in memory (its session rows also read the parts of the day either side), which
 * must fit DuckDB's share of SVC_MEMORY_BUDGET_MB however busy the site. Measured in
 * docs/performance.md#memory: passes of 1 000 000 events fit in 112 MB.
 */
const CHUNK_EVENTS = 1_000_000;
/** Days of goal and funnel rollups a run recounts for new definitions: the whole raw window at once. */
export const BACKFILL_DAYS = 31;

const TRAFFIC_COLUMNS = trusted(measureColumns(TRAFFIC_MEASURES).join(', '));

export function createRollupTables(events: EventStore): Promise<void> {
  return events.createTables(ROLLUP_TABLES);
}

function read<T>(events: EventStore, query: Sql): Promise<T[]> {
  return events.query<T>(query);
}

export async function loadDefinitions(meta: MetaStore, site: Site): Promise<Definitions> {
  const goals = (await meta.listGoals(site.internalId)).map((g) => ({ goalId: g.goalId, kind: g.kind, pattern: g.pattern, ...goalPropsField(g.props), currency: g.currency }));
  const funnels: Definitions['funnels'] = [];
  for (const summary of await meta.listFunnels(site.internalId)) {
    for (let version = 1; version <= summary.version; version++) {
      const f = await meta.getFunnel(site.internalId, summary.id, version);
      if (f) funnels.push({ id: f.id, version: f.version, windowMinutes: f.windowMinutes, steps: f.steps });
    }
  }
  return { goals, funnels, sessionRows: true };
}

/** The last site-local day that has ended, sessions included. */
export function lastClosedDay(now: number, timeZone: string): string {
  const today = localDay(now, timeZone);
  // A day is rolled up once it has ended and its last sessions have too.
  return now >= startOfLocalDay(today, timeZone) + SESSION_GAP_MS ? addDays(today, -1) : addDays(today, -2);
}

/**
 * dim_daily rows of dimensions, in one query, each key passed through `fold` (the cap).
 * Session-scoped dimensions are counted over the session rows of the same days
 * (`writeSessionRows`), event-scoped ones over raw events, their keys typed as the session rows'.
 */
function dimensionRows(events: EventStore, siteId: string, days: Period, dimensions: readonly QueryDimension[], fold = (key: Sql) => key): Sql {
  const d = events.dialect;
  const parts = dimensions.map((dimension) => {
    const scope = { siteId, days, filters: [], exit: false };
    const measures = isPropertyDimension(dimension)
      ? measureEvents(d, { ...scope, property: dimension }, { bucket: trusted('day'), key: fold(asRepeated(d, scopedPropertyKey(d))), sessions: false })
      : scopeOf(dimension) === 'session'
        ? measureSessionRows(d, siteId, days, [], fold(sessionRowKey(dimension)))
        : measureEvents(d, scope, { bucket: trusted('day'), key: fold(repeatedKeyExpr(d, dimension)), sessions: false });
    return sql`SELECT ${siteId} AS site, b, ${dimension} AS dim, k, ${TRAFFIC_COLUMNS} FROM (${measures}) m`;
  });
  return joinSql(parts, ' UNION ALL ');
}

/**
 * dim_daily rows of every custom property the days' events carry (dimensions `prop.<key>`), uncapped,
 * with their `(none)` rows and each day's `prop.` row (`measurePropertyNones`).
 */
function propertyRows(events: EventStore, siteId: string, days: Period): Sql {
  const d = events.dialect;
  return sql`SELECT ${siteId} AS site, b, dim, k, ${TRAFFIC_COLUMNS} FROM (${measurePropertyPairs(d, siteId, days)}) m
    UNION ALL SELECT ${siteId} AS site, b, dim, k, ${TRAFFIC_COLUMNS} FROM (${measurePropertyNones(d, siteId, days)}) n`;
}

/**
 * Writes the session rows of the days, from the parts of their sessions over the days and one day
 * either side: the site's and the session-scoped dimensions' rollups are counted over them.
 */
async function writeSessionRows(events: EventStore, siteId: string, days: Period): Promise<void> {
  const d = events.dialect;
  const around = { siteId, days: sessionPartDays(days) };
  await events.replaceRows(SESSION_PARTS, around, sessionPartsOfEvents(d, siteId, days));
  await events.replaceRows(SESSION_ROWS, { siteId, days }, sessionRowsOfParts(d, siteId, days));
  await events.replaceRows(SESSION_PARTS, around, null);
}

/**
 * Folds the keys beyond the cap into `(other)`, recomputing that day and dimension exactly. A
 * property's `(none)` row is none of its values: it neither counts toward the cap nor folds.
 */
async function capDimensions(events: EventStore, siteId: string, days: Period, cap: number): Promise<void> {
  const d = events.dialect;
  const propertyNone = sql`key = ${NONE_KEY} AND dimension LIKE ${`${PROPERTY_PREFIX}%`}`;
  // Aliases never take a column's name: ClickHouse resolves the name to the alias in WHERE too.
  const crowded = await read<{ d: string; dimension: QueryDimension }>(
    events,
    sql`SELECT ${trusted(d.dayText('day'))} AS d, dimension FROM ${trusted(DIM_DAILY.name)} WHERE site_id = ${siteId} AND ${dayRange(d, 'day', days)}
      GROUP BY day, dimension HAVING sum(CASE WHEN ${propertyNone} THEN 0 ELSE 1 END) > ${cap}`,
  );
  for (const { d: day, dimension } of crowded) {
    const one = { from: day, to: day };
    const scope = { siteId, days: one, where: { dimension } };
    const where = sql`site_id = ${siteId} AND ${dayRange(d, 'day', one)} AND dimension = ${dimension}`;
    await events.replaceRows(
      DIM_TOP_KEYS,
      scope,
      sql`SELECT site_id, day, dimension, key FROM ${trusted(DIM_DAILY.name)} WHERE ${where} AND NOT (${propertyNone})
        ORDER BY visitors DESC, ${trusted(viewsColumn(dimension))} DESC, key ASC LIMIT ${cap}`,
    );
    const top = sql`(SELECT key FROM ${trusted(DIM_TOP_KEYS.name)} WHERE ${where})`;
    const kept = isPropertyDimension(dimension) ? (key: Sql) => sql`${key} IN ${top} OR ${key} = ${NONE_KEY}` : (key: Sql) => sql`${key} IN ${top}`;
    const fold = (key: Sql) => sql`(CASE WHEN ${kept(key)} THEN ${key} ELSE ${OTHER_KEY} END)`;
    await events.replaceRows(DIM_DAILY, scope, dimensionRows(events, siteId, one, [dimension], fold));
    await events.replaceRows(DIM_TOP_KEYS, scope, null);
  }
}

/** The goal_daily rows of the days, or null when the site has no goals. */
function goalRows(events: EventStore, siteId: string, days: Period, defs: Definitions): Sql | null {
  if (defs.goals.length === 0) return null;
  const measures = measureGoals(events.dialect, trusted('day'), siteId, days, defs.goals);
  return sql`SELECT ${siteId} AS site, b, goal_id, ${trusted(measureColumns(GOAL_MEASURES).join(', '))} FROM (${measures}) g`;
}

/** The funnel_daily rows of the days (walked here from the matching events), or null when none. */
async function funnelRows(events: EventStore, siteId: string, days: Period, defs: Definitions): Promise<Sql | null> {
  const d = events.dialect;
  const rows: Sql[] = [];
  for (const funnel of defs.funnels) {
    const matching = await read<FunnelEventRow>(events, funnelEvents(d, siteId, days, funnel.steps));
    for (const [day, counts] of walkFunnel(matching, funnel.steps, funnel.windowMinutes)) {
      counts.forEach((visitors, i) => {
        rows.push(
          sql`SELECT ${siteId} AS site, ${trusted(d.dateLiteral(day))} AS d, ${integerLiteral(funnel.id)} AS funnel, ${integerLiteral(funnel.version)} AS v, ${integerLiteral(i + 1)} AS s, ${visitors} AS n`,
        );
      });
    }
  }
  return rows.length > 0 ? joinSql(rows, ' UNION ALL ') : null;
}

async function writeGoalsAndFunnels(events: EventStore, siteId: string, days: Period, defs: Definitions): Promise<void> {
  await events.replaceRows(GOAL_DAILY, { siteId, days }, goalRows(events, siteId, days, defs));
  await events.replaceRows(FUNNEL_DAILY, { siteId, days }, await funnelRows(events, siteId, days, defs));
}

/** A day that holds raw events of the site, and how many. */
export interface EventDay {
  day: string;
  events: number;
}

/** The days of a range that hold raw events of the site, ascending. */
async function eventDays(events: EventStore, siteId: string, days: Period): Promise<EventDay[]> {
  const d = events.dialect;
  const rows = await read<{ d: string; n: number | bigint | string }>(
    events,
    sql`SELECT ${trusted(d.dayText('day'))} AS d, count(*) AS n FROM events WHERE site_id = ${siteId} AND ${dayRange(d, 'day', days)} GROUP BY d ORDER BY d`,
  );
  return rows.map((r) => ({ day: r.d, events: Number(r.n) }));
}

/** Rewrites every rollup of a range of days from raw events (`hasEvents`: whether it holds any). */
async function rewriteDays(events: EventStore, siteId: string, days: Period, defs: Definitions, cap: number, hasEvents: boolean): Promise<void> {
  const scope = { siteId, days };
  // Days without events have no rollup rows: a sparse or new site skips twenty-odd statements.
  if (!hasEvents) {
    for (const table of DAILY_TABLES) await events.replaceRows(table, scope, null);
    await rewriteMonths(events, siteId, days);
    return;
  }
  await writeSessionRows(events, siteId, days);
  const site = measureSessionRows(events.dialect, siteId, days, []);
  await events.replaceRows(SITE_DAILY, scope, sql`SELECT ${siteId} AS site, b, ${TRAFFIC_COLUMNS} FROM (${site}) m`);
  await events.replaceRows(DIM_DAILY, scope, sql`${dimensionRows(events, siteId, days, DIMENSIONS)} UNION ALL ${propertyRows(events, siteId, days)}`);
  await capDimensions(events, siteId, days, cap);
  await rewriteMonths(events, siteId, days);
  const scroll = measureScrollDepth(events.dialect, trusted('day'), siteId, days, null);
  await events.replaceRows(SCROLL_DAILY, scope, sql`SELECT ${siteId} AS site, b, k, depth_sum, depth_visitors FROM (${scroll}) s`);
  await writeGoalsAndFunnels(events, siteId, days, defs);
}

/**
 * Re-sums dim_monthly for the months a range of days touches (a month only read once complete). A
 * property's `(none)` row of a month also counts the days its events do not carry it: the month's
 * `prop.` row, less the `prop.` rows of the days it has rows on, plus its days' `(none)` rows; a
 * month where every event carries the property has none.
 */
function rewriteMonths(events: EventStore, siteId: string, days: Period): Promise<void> {
  const d = events.dialect;
  const months = { from: firstOfMonth(days.from), to: firstOfMonth(days.to) };
  const allDays = { from: months.from, to: addDays(addMonths(months.to, 1), -1) };
  const columns = measureColumns(TRAFFIC_MEASURES);
  const sums = trusted(columns.map((c) => `sum(${c})`).join(', '));
  const daily = (...where: Sql[]) => sql`${trusted(DIM_DAILY.name)} WHERE ${joinSql([sql`site_id = ${siteId}`, dayRange(d, 'day', allDays), ...where], ' AND ')}`;
  const properties = daily(sql`dimension LIKE ${`${PROPERTY_PREFIX}%`} AND dimension <> ${PROPERTY_PREFIX}`);
  const totals = daily(sql`dimension = ${PROPERTY_PREFIX}`);
  const signed = (sign: string, prefix: string) => trusted(columns.map((c) => `${sign}${prefix}${c} AS ${c}`).join(', '));
  const taken = sql`SELECT p.p_day AS day, p.p_dim AS dimension, ${NONE_KEY} AS key, ${signed('-', 't.t_')}
    FROM (SELECT DISTINCT day AS p_day, dimension AS p_dim FROM ${properties}) p
    JOIN (SELECT day AS t_day, ${trusted(columns.map((c) => `${c} AS t_${c}`).join(', '))} FROM ${totals}) t ON p.p_day = t.t_day`;
  const month = (column: string) => trusted(d.monthStart(column));
  const added = sql`SELECT m.m_month AS day, m.m_dim AS dimension, ${NONE_KEY} AS key, ${signed('', 't.t_')}
    FROM (SELECT DISTINCT ${month('day')} AS m_month, dimension AS m_dim FROM ${properties}) m
    JOIN (SELECT ${month('day')} AS t_month, ${trusted(columns.map((c) => `CAST(sum(${c}) AS BIGINT) AS t_${c}`).join(', '))} FROM ${totals} GROUP BY t_month) t
    ON m.m_month = t.t_month`;
  const rows = sql`SELECT day, dimension, key, ${trusted(columns.join(', '))} FROM ${daily()} UNION ALL ${taken} UNION ALL ${added}`;
  return events.replaceRows(
    DIM_MONTHLY,
    { siteId, days: months },
    sql`SELECT ${siteId} AS site, ${month('day')} AS month, dimension, key, ${sums}
      FROM (${rows}) u GROUP BY month, dimension, key
      HAVING NOT (key = ${NONE_KEY} AND dimension LIKE ${`${PROPERTY_PREFIX}%`} AND sum(${trusted(TRAFFIC_MEASURES.events.column)}) = 0)`,
  );
}

/**
 * The passes over a range: consecutive days, at most CHUNK_DAYS of them and CHUNK_EVENTS events
 * (`withEvents`: the range's days that hold events), in order.
 */
export function chunks(range: Period, withEvents: readonly EventDay[]): Period[] {
  const out: Period[] = [];
  let next = 0;
  for (let from = range.from; from <= range.to; ) {
    const longest = addDays(from, CHUNK_DAYS - 1);
    let to = longest < range.to ? longest : range.to;
    let events = 0;
    while (next < withEvents.length && withEvents[next]!.day < from) next++;
    for (let i = next; i < withEvents.length && withEvents[i]!.day <= to; i++) {
      events += withEvents[i]!.events;
      // A pass ends before the day that would take it past the bound, unless that day is its first.
      if (events > CHUNK_EVENTS && withEvents[i]!.day > from) {
        to = addDays(withEvents[i]!.day, -1);
        break;
      }
    }
    out.push({ from, to });
    from = addDays(to, 1);
  }
  return out;
}

async function earliestRawDay(events: EventStore, siteId: string, today: string): Promise<string | null> {
  const d = events.dialect;
  // The first row, not min(): engines differ on what an aggregate over no rows gives.
  const rows = await read<{ d: string }>(
    events,
    sql`SELECT ${trusted(d.dayText('day'))} AS d FROM events WHERE site_id = ${siteId}
      AND ${dayRange(d, 'day', { from: addDays(today, -MAX_PERIOD_DAYS), to: today })} ORDER BY day LIMIT 1`,
  );
  return rows[0]?.d ?? null;
}

// One run per site at a time, across every process on the MetaStore: the maintenance worker and
// imports may both ask.
function exclusive<T>(meta: MetaStore, siteId: string, work: () => Promise<T>): Promise<T> {
  return withLease(meta, `rollup:${siteId}`, work);
}

/**
 * Brings a site's rollups up to date: pending days first, then a bounded part of the backfill of
 * new goals and funnel versions, then every closed day after the watermark, advancing it chunk by
 * chunk, and last the days after it settled (./settle.ts). Idempotent; an interrupted run resumes
 * where it stopped.
 */
export function rollupSite(deps: RollupDeps, site: Site, now: number, options: RollupOptions = {}): Promise<void> {
  return exclusive(deps.meta, site.id, () => rollupSiteNow(deps, site, now, options, true));
}

/** The key of a site's rollup bookkeeping in the MetaStore: the site in this event store. */
export const rollupKey = (events: EventStore, siteId: string): RollupKey => ({ storeId: events.id, siteId });

/** Whether the site's rollups hold a day with data before `day`. */
async function rolledUpBefore(events: EventStore, siteId: string, day: string): Promise<boolean> {
  const d = events.dialect;
  const rows = await read<{ d: string }>(
    events,
    sql`SELECT ${trusted(d.dayText('day'))} AS d FROM ${trusted(SITE_DAILY.name)} WHERE site_id = ${siteId} AND day < ${trusted(d.dateLiteral(day))} LIMIT 1`,
  );
  return rows.length > 0;
}

/**
 * The bookkeeping of the current definitions, given what the rollups were computed for: the
 * definitions added since the watermark was set lack its days; those whose raw events the site
 * still keeps (from `firstRaw`) join the backfill, and the days before them are lost for good where
 * they hold data (`since`).
 */
async function nextComputed(events: EventStore, siteId: string, state: RollupState, defs: Definitions, firstRaw: string | null): Promise<ComputedDefinitions> {
  const known = parseComputed(state.definitions);
  const keys = definitionKeys(defs);
  const live = (key: string) => keys.includes(key);
  const since = Object.fromEntries(Object.entries(known.since ?? {}).filter(([key]) => live(key)));
  const old = known.backfill && { ...known.backfill, keys: known.backfill.keys.filter(live) };
  let backfill = old && old.keys.length > 0 ? old : undefined;
  const previous = definitionKeys(known);
  const added = keys.filter((key) => !previous.includes(key));
  const watermark = state.watermark;
  if (added.length > 0 && watermark !== null) {
    const start = firstRaw !== null && firstRaw <= watermark ? firstRaw : addDays(watermark, 1);
    if (await rolledUpBefore(events, siteId, start)) for (const key of added) since[key] = start;
    if (start <= watermark) {
      backfill = backfill
        ? { from: backfill.from < start ? backfill.from : start, to: watermark, keys: [...backfill.keys, ...added] }
        : { from: start, to: watermark, keys: added };
    }
  }
  return { ...defs, ...(backfill ? { backfill } : {}), since };
}

/** Removes every rollup row of the goals and funnel versions the rollups were computed for that are gone. */
async function dropRemoved(events: EventStore, siteId: string, known: Definitions, defs: Definitions, today: string): Promise<void> {
  const keys = definitionKeys(defs);
  const all = { from: null, to: today };
  for (const g of known.goals.filter((g) => !keys.includes(goalKey(g.goalId)))) {
    await events.replaceRows(GOAL_DAILY, { siteId, days: all, where: { goal_id: g.goalId } }, null);
  }
  for (const f of known.funnels.filter((f) => !keys.includes(funnelKey(f.id, f.version)))) {
    await events.replaceRows(FUNNEL_DAILY, { siteId, days: all, where: { funnel_id: f.id, version: f.version } }, null);
  }
}

/**
 * The first day of the latest pass of a range: as `chunks` bounds a pass, counted back from the
 * range's last day (backfills go latest first).
 */
export function latestPassStart(range: Period, withEvents: readonly EventDay[]): string {
  let events = 0;
  for (let i = withEvents.length - 1; i >= 0; i--) {
    const { day } = withEvents[i]!;
    if (day > range.to) continue;
    if (day < range.from) break;
    events += withEvents[i]!.events;
    if (events > CHUNK_EVENTS && day < range.to) return addDays(day, 1);
  }
  return range.from;
}

/** Recounts the goal and funnel rollups (and session rows) of the backfill's latest pass (at most `days` days); returns what remains of it. */
async function backfillPart(events: EventStore, siteId: string, defs: Definitions, backfill: Backfill, days: number): Promise<Backfill | undefined> {
  const first = addDays(backfill.to, -(days - 1));
  const latest = { from: first > backfill.from ? first : backfill.from, to: backfill.to };
  const from = latestPassStart(latest, await eventDays(events, siteId, latest));
  if (backfill.keys.includes(SESSION_ROWS_KEY)) await writeSessionRows(events, siteId, { from, to: backfill.to });
  await writeGoalsAndFunnels(events, siteId, { from, to: backfill.to }, defs);
  return from > backfill.from ? { ...backfill, to: addDays(from, -1) } : undefined;
}

/** `rollupSite` under the site's lease; `settle`: whether the run ends with the settlement step (imports leave it to the task). */
async function rollupSiteNow(deps: RollupDeps, site: Site, now: number, options: RollupOptions, settle: boolean): Promise<void> {
  const { events, meta } = deps;
  const cap = options.dimensionKeyCap ?? DEFAULT_DIMENSION_KEY_CAP;
  const key = rollupKey(events, site.id);
  const defs = await loadDefinitions(meta, site);
  const today = localDay(now, site.timezone);
  const closed = lastClosedDay(now, site.timezone);
  const state: RollupState = (await meta.getRollupState(key)) ?? { watermark: null, definitions: JSON.stringify(defs) };

  for (const day of await meta.listRollupPending(key)) {
    const one = { from: day, to: day };
    await rewriteDays(events, site.id, one, defs, cap, (await eventDays(events, site.id, one)).length > 0);
    await meta.clearRollupPending(key, day);
  }

  const firstRaw = await earliestRawDay(events, site.id, today);
  const computed = await nextComputed(events, site.id, state, defs, firstRaw);
  await dropRemoved(events, site.id, parseComputed(state.definitions), defs, today);
  if (JSON.stringify(computed) !== state.definitions) {
    state.definitions = JSON.stringify(computed);
    await meta.setRollupState(key, state);
  }
  if (computed.backfill) {
    computed.backfill = await backfillPart(events, site.id, defs, computed.backfill, options.backfillDays ?? BACKFILL_DAYS);
    if (!computed.backfill) delete computed.backfill;
    state.definitions = JSON.stringify(computed);
    await meta.setRollupState(key, state);
  }

  const from = state.watermark === null ? firstRaw : addDays(state.watermark, 1);
  if (from === null || from > closed) {
    // Nothing to roll up: the watermark still moves to the last closed day (those days are empty).
    if (state.watermark === null || state.watermark < closed) state.watermark = closed;
  } else {
    const withEvents = await eventDays(events, site.id, { from, to: closed });
    const holdsEvents = (p: Period) => withEvents.some(({ day }) => day >= p.from && day <= p.to);
    const all = chunks({ from, to: closed }, withEvents);
    for (let i = 0; i < all.length; i++) {
      let range = all[i]!;
      const hasEvents = holdsEvents(range);
      // Empty chunks in a row are cleared together: a long quiet stretch costs a few statements.
      while (!hasEvents && i + 1 < all.length && !holdsEvents(all[i + 1]!)) range = { from: range.from, to: all[++i]!.to };
      await rewriteDays(events, site.id, range, defs, cap, hasEvents);
      state.watermark = range.to;
      await meta.setRollupState(key, state);
    }
  }
  if (!settle) return;
  state.settlement = await settleSite(events, site, state.settlement, state.watermark, defs.goals, now, options.settleMinEvents ?? SETTLE_MIN_EVENTS);
  await meta.setRollupState(key, state);
}

/** Marks the rolled-up days (under the watermark) among `days` pending: the next run rewrites them. */
async function markImportedDays(deps: RollupDeps, siteId: string, days: readonly string[]): Promise<void> {
  const key = rollupKey(deps.events, siteId);
  const watermark = (await deps.meta.getRollupState(key))?.watermark ?? null;
  if (watermark === null) return;
  await deps.meta.addRollupPending(key, days.filter((day) => day <= watermark));
}

/**
 * An import's commit, under the site's rollup lease, its rolled-up days marked pending first: if the
 * process stops between the commit and their rewrite (`recomputeRollups`), the next run still
 * rewrites them, and no run can come between the marking and the commit (to clear the mark, or
 * move the watermark past an unmarked day, before the events are there). If the commit fails, the
 * days are rewritten for nothing, which changes nothing.
 */
export function commitImport(deps: RollupDeps, siteId: string, days: readonly string[], commit: () => Promise<void>): Promise<void> {
  return exclusive(deps.meta, siteId, async () => {
    await markImportedDays(deps, siteId, days);
    await commit();
  });
}

/**
 * Makes the given days' rollups exact again after events were added to them (imports): days under
 * the watermark are marked pending and rewritten, later closed days are rolled up as usual.
 */
export async function recomputeRollups(deps: RollupDeps, siteId: string, days: readonly string[], now: number, options: RollupOptions = {}): Promise<void> {
  const site = await deps.meta.getSite(siteId);
  if (!site) return;
  // Under the site's lease: a run under way may move the watermark past these days (even clear them
  // as empty, having looked before the events arrived), so the watermark is read once it is done.
  await exclusive(deps.meta, siteId, async () => {
    await markImportedDays(deps, siteId, days);
    await rollupSiteNow(deps, site, now, options, false);
  });
}

export async function runRollups(deps: RollupDeps, now: number, options: RollupOptions = {}): Promise<void> {
  for (const site of await deps.meta.listAllActiveSites()) await rollupSite(deps, site, now, options);
}

/**
 * Raw events and session rows older than the raw window (and already rolled up) are deleted; with
 * a retention setting, every row of the days before it goes.
 */
export async function runRetention(deps: RollupDeps, now: number): Promise<void> {
  const { events, meta } = deps;
  for (const site of await meta.listAllActiveSites()) {
    await exclusive(meta, site.id, async () => {
      const before = (day: string) => ({ siteId: site.id, days: { from: null, to: addDays(day, -1) } });
      const today = localDay(now, site.timezone);
      const state = await meta.getRollupState(rollupKey(events, site.id));
      if (state?.watermark) {
        // Raw events are kept while rolled-up days wait for a backfill of new goals or funnel versions.
        const backfillFrom = parseComputed(state.definitions).backfill?.from;
        const rawFrom = [addDays(state.watermark, 1), rawWindowStart(today, site.rawDays), ...(backfillFrom ? [backfillFrom] : [])].sort()[0]!;
        for (const table of [EVENTS_TABLE, SESSION_ROWS]) await events.replaceRows(table, before(rawFrom), null);
      }
      const keepFrom = retentionStart(today, site.retentionMonths);
      if (keepFrom !== null) {
        // A month that began before the cut is partly erased: its sums (dim_monthly, imported_dim_monthly) go too.
        for (const table of [EVENTS_TABLE, ...DAILY_TABLES, ...IMPORTED_TABLES]) await events.replaceRows(table, before(keepFrom), null);
        forgetImportedDays(site.id);
        // A month that began before the cut is partly erased: its sum goes too.
        await events.replaceRows(DIM_MONTHLY, before(keepFrom), null);
      }
    });
  }
}

/** Registers the `rollup` (every 10 minutes) and `retention` (hourly) maintenance tasks. */
export function registerRollupTasks(maintenance: MaintenanceRegistry, deps: RollupDeps, options: RollupOptions = {}): void {
  maintenance.register({ name: 'rollup', everyMs: 10 * 60_000, run: (now) => runRollups(deps, now, options) });
  maintenance.register({ name: 'retention', everyMs: 60 * 60_000, run: (now) => runRetention(deps, now) });
}
