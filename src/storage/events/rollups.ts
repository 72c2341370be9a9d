// Daily rollups (docs/api.md, "How answers are computed"): site_daily, dim_daily (capped per site, day and dimension, the rest
// folded into `(other)`), goal_daily and funnel_daily (per funnel version), written exactly from raw
// events by the same measure builders that answer raw reads (src/stats/compile.ts). dim_monthly sums
// dim_daily per calendar month, so that long breakdowns group a few rows per key instead of one per
// day (every measure is a sum of daily values, so the sums are exact).
//
// Crash safety without multi-statement transactions: a range of days is rewritten (delete, then
// insert) before the site's watermark moves past it, and readers use rollups only up to the
// watermark, so a half-written range is never read and is simply rewritten on the next run.
// Days already under the watermark that must be rewritten (imports) are first recorded in
// `rollup_pending`, and cleared only once rewritten.
import type { EventStore } from './types.js';
import type { MetaStore, Site } from '../meta/types.js';
import { withLease } from '../meta/leases.js';
import type { MaintenanceRegistry } from '../../core/maintenance.js';
import { addDays, localDay, startOfLocalDay } from '../../core/localtime.js';
import { SESSION_GAP_MS } from '../../core/session-gap.js';
import { addMonths, firstOfMonth, MAX_PERIOD_DAYS, type Period } from '../../core/period.js';
import { DIMENSIONS, OTHER_KEY, scopeOf, type Dimension } from '../../core/dimensions.js';
import type { Filter, Query } from '../../core/query.js';
import type { Matcher } from '../../core/patterns.js';
import {
  dayRange,
  funnelEvents,
  integerLiteral,
  keyExpr,
  measureEvents,
  measureGoals,
  needsExit,
  sessionFactsSelect,
  sessionKeyAggregate,
  viewsColumn,
  type GoalRef,
} from '../../stats/compile.js';
import { walkFunnel, type FunnelEventRow } from '../../stats/funnel.js';
import { needsRawEvents, rawWindowStart, retentionStart, type PlanInputs } from '../../stats/planner.js';
import { joinSql, sql, trusted, type Sql } from '../../stats/sql.js';

export interface RollupDeps {
  events: EventStore;
  meta: MetaStore;
}

export interface RollupOptions {
  /** Keys kept per site, day and dimension; the rest fold into `(other)`. */
  dimensionKeyCap?: number;
}

export const DEFAULT_DIMENSION_KEY_CAP = 10_000;
/** Days rewritten per pass; bounds statement size while catching up on long histories. */
const CHUNK_DAYS = 31;

const COUNT = 'BIGINT';
const SESSION_DIMENSIONS = DIMENSIONS.filter((dim) => scopeOf(dim) === 'session');
/** The column of rollup_sessions holding a session dimension's key. */
const factsKey = (dimension: Dimension) => `k_${dimension}`;
const TABLES = [
  `CREATE TABLE IF NOT EXISTS site_daily (site_id VARCHAR NOT NULL, day DATE NOT NULL, visitors ${COUNT}, pageviews ${COUNT}, events ${COUNT}, sessions ${COUNT}, bounces ${COUNT}, duration_ms ${COUNT})`,
  `CREATE TABLE IF NOT EXISTS dim_daily (site_id VARCHAR NOT NULL, day DATE NOT NULL, dimension VARCHAR NOT NULL, key VARCHAR NOT NULL, visitors ${COUNT}, pageviews ${COUNT}, events ${COUNT}, sessions ${COUNT}, bounces ${COUNT}, duration_ms ${COUNT})`,
  `CREATE TABLE IF NOT EXISTS dim_monthly (site_id VARCHAR NOT NULL, month DATE NOT NULL, dimension VARCHAR NOT NULL, key VARCHAR NOT NULL, visitors ${COUNT}, pageviews ${COUNT}, events ${COUNT}, sessions ${COUNT}, bounces ${COUNT}, duration_ms ${COUNT})`,
  `CREATE TABLE IF NOT EXISTS goal_daily (site_id VARCHAR NOT NULL, day DATE NOT NULL, goal_id BIGINT NOT NULL, conversions ${COUNT}, unique_conversions ${COUNT})`,
  `CREATE TABLE IF NOT EXISTS funnel_daily (site_id VARCHAR NOT NULL, day DATE NOT NULL, funnel_id BIGINT NOT NULL, version INTEGER NOT NULL, step INTEGER NOT NULL, visitors ${COUNT})`,
  'CREATE TABLE IF NOT EXISTS rollup_state (site_id VARCHAR NOT NULL, watermark DATE, definitions VARCHAR NOT NULL)',
  'CREATE TABLE IF NOT EXISTS rollup_pending (site_id VARCHAR NOT NULL, day DATE NOT NULL)',
  'CREATE TABLE IF NOT EXISTS dim_top_keys (site_id VARCHAR NOT NULL, day DATE NOT NULL, dimension VARCHAR NOT NULL, key VARCHAR NOT NULL)',
  // Scratch rows of one rewrite: the facts of every session, computed once for all dimensions.
  // Temporary (no log, no disk), which is why every statement that touches it goes through exec.
  `CREATE TEMPORARY TABLE IF NOT EXISTS rollup_sessions (site_id VARCHAR NOT NULL, session_id BIGINT NOT NULL, sb DATE NOT NULL,
    ${SESSION_DIMENSIONS.map((dim) => `${factsKey(dim)} VARCHAR`).join(', ')},
    pageviews ${COUNT}, customs ${COUNT}, engaged_ms ${COUNT}, engages ${COUNT}, first_ts BIGINT, last_ts BIGINT)`,
];
const ROLLUP_TABLES = ['site_daily', 'dim_daily', 'goal_daily', 'funnel_daily'] as const;

export async function createRollupTables(events: EventStore): Promise<void> {
  for (const ddl of TABLES) await events.exec(ddl);
}

function run(events: EventStore, statement: Sql): Promise<void> {
  return events.exec(statement.text, statement.params);
}

function remove(events: EventStore, table: string, where: Sql): Promise<void> {
  return run(events, sql`${trusted(events.dialect.deleteWhere(table))} ${where}`);
}

function read<T>(events: EventStore, query: Sql): Promise<T[]> {
  return events.query<T>(query.text, query.params);
}

export interface RollupState {
  watermark: string | null;
  definitions: string;
}

/**
 * The first day of `days` on which a filter's key was folded into `(other)` (the dimension has an
 * `(other)` row that day and the key none), or null. On such a day the rollups cannot answer the
 * filter: the key's own counts are inside `(other)`.
 */
export async function firstFoldedDay(events: EventStore, siteId: string, filter: Filter, days: Period): Promise<string | null> {
  const d = events.dialect;
  const rows = await read<{ day: string | null }>(
    events,
    sql`SELECT ${trusted(d.dayText('min(day)'))} AS day FROM dim_daily WHERE site_id = ${siteId} AND dimension = ${filter.dimension}
      AND key = ${OTHER_KEY} AND ${dayRange(d, 'day', days)}
      AND day NOT IN (SELECT day FROM dim_daily WHERE site_id = ${siteId} AND dimension = ${filter.dimension} AND key = ${filter.value} AND ${dayRange(d, 'day', days)})`,
  );
  return rows[0]?.day ?? null;
}

/**
 * What the planner needs to know of a site's rollups for a query: the watermark, and for a single
 * filter (other than on `(other)` itself) of a query that may read rollups, the first day of the raw
 * window, up to the watermark and within the period or its previous one, on which the filter's key
 * was folded.
 */
export async function planInputs(events: EventStore, site: Site, q: Query): Promise<PlanInputs> {
  const watermark = (await readRollupState(events, site.id))?.watermark ?? null;
  const inputs: PlanInputs = { watermark, retentionMonths: site.retentionMonths };
  const filter = q.filters.length === 1 ? q.filters[0]! : null;
  if (filter === null || filter.value === OTHER_KEY || watermark === null || needsRawEvents(q)) return inputs;
  const earliest = q.previous.from < q.period.from ? q.previous.from : q.period.from;
  const windowStart = rawWindowStart(q.today);
  const from = earliest > windowStart ? earliest : windowStart;
  const to = watermark < q.period.to ? watermark : q.period.to;
  return from <= to ? { ...inputs, firstFoldedDay: await firstFoldedDay(events, site.id, filter, { from, to }) } : inputs;
}

export async function readRollupState(events: EventStore, siteId: string): Promise<RollupState | null> {
  const d = events.dialect;
  const rows = await read<{ w: string | null; definitions: string }>(
    events,
    sql`SELECT ${trusted(d.dayText('watermark'))} AS w, definitions FROM rollup_state WHERE site_id = ${siteId}`,
  );
  const row = rows[0];
  return row ? { watermark: row.w, definitions: row.definitions } : null;
}

async function writeRollupState(events: EventStore, siteId: string, state: RollupState): Promise<void> {
  const d = events.dialect;
  const wm = state.watermark === null ? trusted('NULL') : trusted(d.dateLiteral(state.watermark));
  await remove(events, 'rollup_state', sql`site_id = ${siteId}`);
  await run(events, sql`INSERT INTO rollup_state VALUES (${siteId}, ${wm}, ${state.definitions})`);
}

/** The goals and funnel versions of a site, which goal_daily and funnel_daily are computed for. */
export interface Definitions {
  goals: GoalRef[];
  funnels: Array<{ id: number; version: number; windowMinutes: number; steps: Matcher[] }>;
}

export async function loadDefinitions(meta: MetaStore, site: Site): Promise<Definitions> {
  const goals = (await meta.listGoals(site.internalId)).map((g) => ({ goalId: g.goalId, kind: g.kind, pattern: g.pattern }));
  const funnels: Definitions['funnels'] = [];
  for (const summary of await meta.listFunnels(site.internalId)) {
    for (let version = 1; version <= summary.version; version++) {
      const f = await meta.getFunnel(site.internalId, summary.id, version);
      if (f) funnels.push({ id: f.id, version: f.version, windowMinutes: f.windowMinutes, steps: f.steps });
    }
  }
  return { goals, funnels };
}

/** The last site-local day that has ended, sessions included. */
export function lastClosedDay(now: number, timeZone: string): string {
  const today = localDay(now, timeZone);
  // A day is rolled up once it has ended and its last sessions have too.
  return now >= startOfLocalDay(today, timeZone) + SESSION_GAP_MS ? addDays(today, -1) : addDays(today, -2);
}

async function deleteDays(events: EventStore, tables: readonly string[], siteId: string, days: Period): Promise<void> {
  for (const table of tables) {
    await remove(events, table, sql`site_id = ${siteId} AND ${dayRange(events.dialect, 'day', days)}`);
  }
}

/**
 * Rows of dimensions into dim_daily, in one statement, each key passed through `fold` (the cap).
 * Session-scoped dimensions read bounces and duration from rollup_sessions (`writeSessionFacts`,
 * same days).
 */
function insertDimensions(events: EventStore, siteId: string, days: Period, dimensions: readonly Dimension[], fold = (key: Sql) => key): Promise<void> {
  if (dimensions.length === 0) return Promise.resolve();
  const d = events.dialect;
  const parts = dimensions.map((dimension) => {
    const measures = measureEvents(d, { siteId, days, filters: [], exit: needsExit([], dimension) }, {
      bucket: trusted('day'),
      key: fold(keyExpr(dimension)),
      sessions: scopeOf(dimension) === 'session' && { relation: sessionFacts(siteId), key: fold(trusted(factsKey(dimension))) },
    });
    return sql`SELECT ${siteId}, b, ${dimension}, k, visitors, pageviews, events, sessions, bounces, duration_ms FROM (${measures}) m`;
  });
  return run(events, sql`INSERT INTO dim_daily ${joinSql(parts, ' UNION ALL ')}`);
}

const sessionFacts = (siteId: string): Sql => sql`(SELECT * FROM rollup_sessions WHERE site_id = ${siteId}) f`;

/** Computes the facts and keys of every session that starts in the days, once for all dimensions. */
async function writeSessionFacts(events: EventStore, siteId: string, days: Period): Promise<void> {
  const d = events.dialect;
  const keys = SESSION_DIMENSIONS.map((dim) => ({ name: factsKey(dim), aggregate: sessionKeyAggregate(d, dim) }));
  const facts = sessionFactsSelect(d, { siteId, days, filters: [], exit: false }, trusted('day'), keys);
  await remove(events, 'rollup_sessions', sql`site_id = ${siteId}`);
  await run(events, sql`INSERT INTO rollup_sessions SELECT ${siteId}, x.* FROM (${facts}) x`);
}

/** Folds the keys beyond the cap into `(other)`, recomputing that day and dimension exactly. */
async function capDimensions(events: EventStore, siteId: string, days: Period, cap: number): Promise<void> {
  const d = events.dialect;
  const crowded = await read<{ day: string; dimension: Dimension }>(
    events,
    sql`SELECT ${trusted(d.dayText('day'))} AS day, dimension FROM dim_daily WHERE site_id = ${siteId} AND ${dayRange(d, 'day', days)}
      GROUP BY day, dimension HAVING count(*) > ${cap}`,
  );
  for (const { day, dimension } of crowded) {
    const one = trusted(`day = ${d.dateLiteral(day)}`);
    const where = sql`site_id = ${siteId} AND ${one} AND dimension = ${dimension}`;
    await remove(events, 'dim_top_keys', where);
    await run(
      events,
      sql`INSERT INTO dim_top_keys SELECT site_id, day, dimension, key FROM dim_daily WHERE ${where}
        ORDER BY visitors DESC, ${trusted(viewsColumn(dimension))} DESC, key ASC LIMIT ${cap}`,
    );
    await remove(events, 'dim_daily', where);
    const top = sql`(SELECT key FROM dim_top_keys WHERE ${where})`;
    const fold = (key: Sql) => sql`(CASE WHEN ${key} IN ${top} THEN ${key} ELSE ${OTHER_KEY} END)`;
    await insertDimensions(events, siteId, { from: day, to: day }, [dimension], fold);
    await remove(events, 'dim_top_keys', where);
  }
}

async function writeGoalsAndFunnels(events: EventStore, siteId: string, days: Period, defs: Definitions): Promise<void> {
  const d = events.dialect;
  if (defs.goals.length > 0) {
    const measures = measureGoals(d, trusted('day'), siteId, days, defs.goals);
    await run(events, sql`INSERT INTO goal_daily SELECT ${siteId}, b, goal_id, conversions, unique_conversions FROM (${measures}) g`);
  }
  for (const funnel of defs.funnels) {
    const rows = await read<FunnelEventRow>(events, funnelEvents(d, siteId, days, funnel.steps));
    const values: Sql[] = [];
    for (const [day, counts] of walkFunnel(rows, funnel.steps, funnel.windowMinutes)) {
      counts.forEach((visitors, i) => {
        values.push(
          sql`(${siteId}, ${trusted(d.dateLiteral(day))}, ${integerLiteral(funnel.id)}, ${integerLiteral(funnel.version)}, ${integerLiteral(i + 1)}, ${visitors})`,
        );
      });
    }
    if (values.length > 0) await run(events, sql`INSERT INTO funnel_daily VALUES ${joinSql(values, ', ')}`);
  }
}

/** The days of a range that hold raw events of the site, ascending. */
async function eventDays(events: EventStore, siteId: string, days: Period): Promise<string[]> {
  const d = events.dialect;
  const rows = await read<{ day: string }>(
    events,
    sql`SELECT DISTINCT ${trusted(d.dayText('day'))} AS day FROM events WHERE site_id = ${siteId} AND ${dayRange(d, 'day', days)} ORDER BY day`,
  );
  return rows.map((r) => r.day);
}

/** Rewrites every rollup of a range of days from raw events (`hasEvents`: whether it holds any). */
async function rewriteDays(events: EventStore, siteId: string, days: Period, defs: Definitions, cap: number, hasEvents: boolean): Promise<void> {
  const d = events.dialect;
  await deleteDays(events, ROLLUP_TABLES, siteId, days);
  // Days without events have no rollup rows: a sparse or new site skips twenty-odd statements.
  if (!hasEvents) {
    await rewriteMonths(events, siteId, days);
    return;
  }
  await writeSessionFacts(events, siteId, days);
  const site = measureEvents(d, { siteId, days, filters: [], exit: false }, {
    bucket: trusted('day'),
    sessions: { relation: sessionFacts(siteId) },
  });
  await run(
    events,
    sql`INSERT INTO site_daily SELECT ${siteId}, b, visitors, pageviews, events, sessions, bounces, duration_ms FROM (${site}) m`,
  );
  await insertDimensions(events, siteId, days, DIMENSIONS);
  await capDimensions(events, siteId, days, cap);
  await remove(events, 'rollup_sessions', sql`site_id = ${siteId}`);
  await rewriteMonths(events, siteId, days);
  await writeGoalsAndFunnels(events, siteId, days, defs);
}

/** Re-sums dim_monthly for the months a range of days touches (a month only read once complete). */
async function rewriteMonths(events: EventStore, siteId: string, days: Period): Promise<void> {
  const d = events.dialect;
  const months = { from: firstOfMonth(days.from), to: firstOfMonth(days.to) };
  const allDays = { from: months.from, to: addDays(addMonths(months.to, 1), -1) };
  await remove(events, 'dim_monthly', sql`site_id = ${siteId} AND ${dayRange(d, 'month', months)}`);
  await run(
    events,
    sql`INSERT INTO dim_monthly SELECT ${siteId}, ${trusted(d.monthStart('day'))} AS month, dimension, key, sum(visitors), sum(pageviews),
      sum(events), sum(sessions), sum(bounces), sum(duration_ms) FROM dim_daily WHERE site_id = ${siteId} AND ${dayRange(d, 'day', allDays)}
      GROUP BY month, dimension, key`,
  );
}

function chunks(range: Period): Period[] {
  const out: Period[] = [];
  for (let from = range.from; from <= range.to; from = addDays(from, CHUNK_DAYS)) {
    const end = addDays(from, CHUNK_DAYS - 1);
    out.push({ from, to: end < range.to ? end : range.to });
  }
  return out;
}

async function earliestRawDay(events: EventStore, siteId: string, today: string): Promise<string | null> {
  const d = events.dialect;
  const rows = await read<{ day: string | null }>(
    events,
    sql`SELECT ${trusted(d.dayText('min(day)'))} AS day FROM events WHERE site_id = ${siteId}
      AND ${dayRange(d, 'day', { from: addDays(today, -MAX_PERIOD_DAYS), to: today })}`,
  );
  return rows[0]?.day ?? null;
}

// One run per site at a time, across every process on the MetaStore: the maintenance worker and
// imports may both ask.
function exclusive<T>(meta: MetaStore, siteId: string, work: () => Promise<T>): Promise<T> {
  return withLease(meta, `rollup:${siteId}`, work);
}

/**
 * Brings a site's rollups up to date: pending days first, then goal and funnel rollups of the days
 * still backed by raw events when their definitions changed, then every closed day after the
 * watermark, advancing it chunk by chunk. Idempotent; an interrupted run resumes where it stopped.
 */
export function rollupSite(deps: RollupDeps, site: Site, now: number, options: RollupOptions = {}): Promise<void> {
  return exclusive(deps.meta, site.id, () => rollupSiteNow(deps, site, now, options.dimensionKeyCap ?? DEFAULT_DIMENSION_KEY_CAP));
}

async function rollupSiteNow(deps: RollupDeps, site: Site, now: number, cap: number): Promise<void> {
  const { events } = deps;
  const d = events.dialect;
  const defs = await loadDefinitions(deps.meta, site);
  const definitions = JSON.stringify(defs);
  const today = localDay(now, site.timezone);
  const closed = lastClosedDay(now, site.timezone);
  const state = (await readRollupState(events, site.id)) ?? { watermark: null, definitions };

  const pending = await read<{ day: string }>(
    events,
    sql`SELECT DISTINCT ${trusted(d.dayText('day'))} AS day FROM rollup_pending WHERE site_id = ${site.id} ORDER BY day`,
  );
  for (const { day } of pending) {
    const one = { from: day, to: day };
    await rewriteDays(events, site.id, one, defs, cap, (await eventDays(events, site.id, one)).length > 0);
    await remove(events, 'rollup_pending', sql`site_id = ${site.id} AND day = ${trusted(d.dateLiteral(day))}`);
  }

  const firstRaw = await earliestRawDay(events, site.id, today);
  if (state.definitions !== definitions && state.watermark !== null && firstRaw !== null && firstRaw <= state.watermark) {
    const days = { from: firstRaw, to: state.watermark };
    await deleteDays(events, ['goal_daily', 'funnel_daily'], site.id, days);
    await writeGoalsAndFunnels(events, site.id, days, defs);
  }
  state.definitions = definitions;

  const from = state.watermark === null ? firstRaw : addDays(state.watermark, 1);
  if (from === null || from > closed) {
    // Nothing to roll up: the watermark still moves to the last closed day (those days are empty).
    if (state.watermark === null || state.watermark < closed) state.watermark = closed;
    await writeRollupState(events, site.id, state);
    return;
  }
  const withEvents = await eventDays(events, site.id, { from, to: closed });
  const holdsEvents = (p: Period) => withEvents.some((day) => day >= p.from && day <= p.to);
  const all = chunks({ from, to: closed });
  for (let i = 0; i < all.length; i++) {
    let range = all[i]!;
    const hasEvents = holdsEvents(range);
    // Empty chunks in a row are cleared together: a long quiet stretch costs a few statements.
    while (!hasEvents && i + 1 < all.length && !holdsEvents(all[i + 1]!)) range = { from: range.from, to: all[++i]!.to };
    await rewriteDays(events, site.id, range, defs, cap, hasEvents);
    state.watermark = range.to;
    await writeRollupState(events, site.id, state);
  }
}

/** Marks the rolled-up days (under the watermark) among `days` pending: the next run rewrites them. */
async function markImportedDays(events: EventStore, siteId: string, days: readonly string[]): Promise<void> {
  const state = await readRollupState(events, siteId);
  const stale = [...new Set(days)].filter((day) => state?.watermark != null && day <= state.watermark);
  if (stale.length === 0) return;
  const rows = stale.map((day) => sql`(${siteId}, ${trusted(events.dialect.dateLiteral(day))})`);
  await run(events, sql`INSERT INTO rollup_pending VALUES ${joinSql(rows, ', ')}`);
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
    await markImportedDays(deps.events, siteId, days);
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
    await markImportedDays(deps.events, siteId, days);
    await rollupSiteNow(deps, site, now, options.dimensionKeyCap ?? DEFAULT_DIMENSION_KEY_CAP);
  });
}

export async function runRollups(deps: RollupDeps, now: number, options: RollupOptions = {}): Promise<void> {
  for (const site of await deps.meta.listAllActiveSites()) await rollupSite(deps, site, now, options);
}

/**
 * Raw events older than the raw window (and already rolled up) are deleted; with a retention
 * setting, every row of the days before it goes.
 */
export async function runRetention(deps: RollupDeps, now: number): Promise<void> {
  const { events } = deps;
  const d = events.dialect;
  for (const site of await deps.meta.listAllActiveSites()) {
    await exclusive(deps.meta, site.id, async () => {
      const today = localDay(now, site.timezone);
      const state = await readRollupState(events, site.id);
      if (state?.watermark) {
        const windowStart = rawWindowStart(today);
        const afterWatermark = addDays(state.watermark, 1);
        const cut = afterWatermark < windowStart ? afterWatermark : windowStart;
        await remove(events, 'events', sql`site_id = ${site.id} AND day < ${trusted(d.dateLiteral(cut))}`);
      }
      const keepFrom = retentionStart(today, site.retentionMonths);
      if (keepFrom !== null) {
        for (const table of ['events', ...ROLLUP_TABLES]) {
          await remove(events, table, sql`site_id = ${site.id} AND day < ${trusted(d.dateLiteral(keepFrom))}`);
        }
        // A month that began before the cut is partly erased: its sum goes too.
        await remove(events, 'dim_monthly', sql`site_id = ${site.id} AND month < ${trusted(d.dateLiteral(keepFrom))}`);
      }
    });
  }
}

/** Registers the `rollup` (every 10 minutes) and `retention` (hourly) maintenance tasks. */
export function registerRollupTasks(maintenance: MaintenanceRegistry, deps: RollupDeps, options: RollupOptions = {}): void {
  maintenance.register({ name: 'rollup', everyMs: 10 * 60_000, run: (now) => runRollups(deps, now, options) });
  maintenance.register({ name: 'retention', everyMs: 60 * 60_000, run: (now) => runRetention(deps, now) });
}
