// Query compilation: the measures of src/stats/measures.ts over raw events, written once against
// the Dialect. The same builders answer raw-event reads and fill the rollup tables, so that both
// paths of the planner count alike. Every statement of the read path is written here: the planner's
// inputs ask for one, and the endpoints of src/stats/read for theirs, from the plan.
//
// Every per-bucket row has the columns `b`, [`k`,] and one per traffic measure, in the registry's
// order; every metric of docs/api.md is a sum of such rows over days, or a ratio of sums.
import { addDays, localDay, startOfLocalDay } from '../core/localtime.js';
import { integerText, type Dialect } from '../sql/dialect.js';
import type { DayCut, Period } from '../core/period.js';
import type { Query } from '../core/query.js';
import { isPropertyDimension, NONE_KEY, OTHER_KEY, PROPERTY_PREFIX, type Dimension, type Filter, type PropertyDimension, type QueryDimension } from '../core/vocabulary.js';
import type { GoalRef } from '../entities/goals.js';
import { pagePatternRegex, type Matcher } from '../core/patterns.js';
import { joinSql, sql, SqlList, trusted, withParams, type Sql } from '../sql/sql.js';
import { GOAL_MEASURES, goalAggregatesOverCounts, IS_PAGEVIEW, PART_FACT_PREFIX, measureAggregates, measureColumns, SESSION_FACTS, sessionBounced, sessionDuration, sessionRowAggregates, TRAFFIC_MEASURES } from './measures.js';
import type { DaySources, PlannedQuery } from './planner.js';
import { dimensionColumn } from './columns.js';
import { CARRIES_NO_PROPERTIES, decodeValue, keyDimension, pairKeyToken, pairValueToken, propertyFilterPredicate, propertyPairs, propertyToken } from './properties.js';
import {
  DIM_DAILY,
  DIM_MONTHLY,
  FUNNEL_DAILY,
  GOAL_DAILY,
  IMPORTED_DAILY,
  IMPORTED_DIM_DAILY,
  IMPORTED_DIM_MONTHLY,
  SCROLL_DAILY,
  SESSION_DIMENSIONS,
  SESSION_PARTS,
  SESSION_ROWS,
  SETTLED_GOALS,
  SETTLED_SESSIONS,
  SETTLED_TABLES,
  SITE_DAILY,
} from './rollups/tables.js';
import { HELD_EVENTS, HELD_ROWS, settledGoals, type Settlement } from './settlement.js';
import type { HeldForm, HeldPart, SettledPart } from './held-sums.js';
import { SESSION_GAP_MS } from '../core/session-gap.js';
import type { TableSpec } from '../storage/events/table-spec.js';

/** The key of a dimension on an event row; absent values read as `(none)`. */
export function keyExpr(d: Dimension): Sql {
  if (d === 'page' || d === 'event') return trusted(dimensionColumn(d));
  return trusted(`coalesce(${dimensionColumn(d)}, '${NONE_KEY}')`);
}

/**
 * The key of a dimension on an event row, typed as session rows hold theirs (the dialect's
 * `asRepeated`): for a UNION of both, on an engine whose types of the two do not mix.
 */
export function repeatedKeyExpr(d: Dialect, dimension: Dimension): Sql {
  return asRepeated(d, keyExpr(dimension));
}

/** A text expression typed as `repeated` columns' values (the dialect's `asRepeated`), its parameters kept. */
export function asRepeated(d: Dialect, expr: Sql): Sql {
  return withParams(d.asRepeated(expr.text), ...expr.params);
}

/** The column of a measure row that is a breakdown's `views`: occurrences for events and properties, else pageviews. */
export function viewsColumn(dimension: QueryDimension): string {
  return dimension === 'event' || isPropertyDimension(dimension) ? 'events' : 'pageviews';
}

/** The key of a property on the rows of an `EventScope` with that `property`: its value's text, `(none)` on an event without it. */
export function scopedPropertyKey(d: Dialect): Sql {
  return sql`(CASE WHEN prop_token = '' THEN ${NONE_KEY} ELSE ${decodeValue(d, trusted('prop_token'))} END)`;
}

export function dayRange(d: Dialect, column: string, p: Period): Sql {
  return trusted(`${column} BETWEEN ${d.dateLiteral(p.from)} AND ${d.dateLiteral(p.to)}`);
}

export interface EventScope {
  siteId: string;
  days: Period;
  /** Hourly reads also bound instants: [from, to). */
  instants?: { from: number; to: number } | undefined;
  filters: readonly Filter[];
  /** Derive each session's exit page (the last pageview's page) as `exit_page`. */
  exit: boolean;
  /** Keep only the events a property breakdown counts (every one but `engage`), this property's value's JSON text as `prop_token` ('' without it). */
  property?: PropertyDimension | undefined;
}

/** Rows of the site inside the scope's days (and instants, for hourly reads). */
function scopeBounds(d: Dialect, s: EventScope): Sql {
  const bounds = [sql`site_id = ${s.siteId}`, dayRange(d, 'day', s.days)];
  if (s.instants) bounds.push(sql`ts >= ${s.instants.from} AND ts < ${s.instants.to}`);
  return joinSql(bounds, ' AND ');
}

// A session that starts in a range may go on past its end (across local midnight): its facts (exit
// page, bounce, duration) are read over one more day, so that every path (daily rollups, raw reads
// of any range) sees the whole session. 25 hours cover a day that gains an hour.
const SESSION_OVERRUN_MS = 25 * 3_600_000;

function sessionScope(s: EventScope): EventScope {
  return {
    ...s,
    days: { from: s.days.from, to: addDays(s.days.to, 1) },
    instants: s.instants && { from: s.instants.from, to: s.instants.to + SESSION_OVERRUN_MS },
  };
}

/**
 * The days an exit page is looked for in: the session-extended scope and the day before it, so that
 * a session that began before the range (across midnight) exits on its last pageview wherever the
 * range starts, as in the daily rollups and the session rows.
 */
function exitScope(s: EventScope): EventScope {
  const later = sessionScope(s);
  return {
    ...later,
    days: { from: addDays(s.days.from, -1), to: later.days.to },
    instants: later.instants && { from: later.instants.from - SESSION_OVERRUN_MS, to: later.instants.to },
  };
}

/**
 * Whether a row of the session-extended relation lies inside the scope itself. That relation already
 * starts where the scope starts, for the same site: only the end bounds need testing, per row.
 */
function startsInScope(d: Dialect, s: EventScope): Sql {
  const end = trusted(`day <= ${d.dateLiteral(s.days.to)}`);
  return s.instants ? sql`${end} AND ts < ${s.instants.to}` : end;
}

/**
 * The raw events of a site and time range with the filters applied, as a relation named `ev`.
 * Session-scoped filters keep whole sessions because their values are copied onto every event; the
 * exit page is the one session value derived here.
 */
export function eventsRelation(d: Dialect, s: EventScope): Sql {
  const where = scopeBounds(d, s);
  // An event of a session without a pageview has no exit page: `x.matched` tells, since engines
  // differ on what an unmatched LEFT JOIN row holds (NULL in DuckDB, the type's default in ClickHouse).
  const base = s.exit
    ? sql`(SELECT e.*, CASE WHEN x.matched = 1 THEN x.exit_page END AS exit_page FROM (SELECT * FROM events WHERE ${where}) e
      LEFT JOIN (SELECT session_id, ${trusted(d.argMax('page', 'ts'))} AS exit_page, 1 AS matched FROM events
      WHERE ${scopeBounds(d, exitScope(s))} AND ${trusted(IS_PAGEVIEW)} GROUP BY session_id) x ON e.session_id = x.session_id)`
    : sql`(SELECT * FROM events WHERE ${where})`;
  const predicates = s.filters.map((f) => filterPredicate(d, f));
  const filtered = predicates.length === 0 ? base : sql`(SELECT * FROM ${base} f WHERE ${joinSql(predicates, ' AND ')})`;
  if (!s.property) return sql`${filtered} ev`;
  return sql`(SELECT *, ${propertyToken(d, s.property)} AS prop_token FROM ${filtered} c WHERE NOT ${trusted(CARRIES_NO_PROPERTIES)}) ev`;
}

/** Whether an event row matches a filter. */
function filterPredicate(d: Dialect, f: Filter): Sql {
  if (f.pattern) return pagePatternPredicate(d, f.value);
  if (isPropertyDimension(f.dimension)) return propertyFilterPredicate(d, f.dimension, f.value);
  return sql`${keyExpr(f.dimension)} = ${f.value}`;
}

export function needsExit(filters: readonly Filter[], breakdown?: QueryDimension): boolean {
  return breakdown === 'exit' || filters.some((f) => f.dimension === 'exit');
}

/**
 * Bucket of daily reads: the DATE `day` itself. Formatting it per row (dayText) costs more than the
 * aggregation; `dayRows` formats once per bucket instead.
 */
const DAY_BUCKET: Sql = trusted('day');

/** The rows of a daily read (bucket `b` a DATE) with `b` as 'YYYY-MM-DD' text, the other columns kept. */
function dayRows(d: Dialect, rows: Sql, columns: readonly string[]): Sql {
  return sql`SELECT ${trusted(d.dayText('b'))} AS b, ${trusted(columns.join(', '))} FROM (${rows}) r`;
}

/** Index of the hourly bucket of an event row: `starts` ascending, the last bucket ending at `end`. */
function hourBucket(starts: readonly number[], end: number): Sql {
  const bounds = [...starts.slice(1), end];
  const cases = bounds.map((b, i) => sql`WHEN ts < ${b} THEN ${trusted(String(i))} `);
  return sql`(CASE WHEN ts < ${starts[0] ?? end} THEN NULL ${joinSql(cases, '')}ELSE NULL END)`;
}

export interface Grouping {
  /** Bucket of an event row (day text or hour index); a session belongs to its first event's. */
  bucket: Sql;
  /** Dimension key, grouped on as `k`. */
  key?: Sql | undefined;
  /** Also compute bounces and duration per session (skipped when nobody reads them). */
  sessions: boolean;
}

const EVENT_COLUMNS = measureColumns(TRAFFIC_MEASURES, 'events');
const SESSION_COLUMNS = measureColumns(TRAFFIC_MEASURES, 'sessions');
/** The measure columns of the events part `a` of a measure row, prefixed. */
const fromEvents = trusted(EVENT_COLUMNS.map((c) => `a.${c}`).join(', '));

/** The facts of an event a property's rows are counted from. */
const PAIR_FACTS = 'day, visitor_id, name, session_start';

/** The events a property breakdown counts (every one but `engage`) of a site's days, with `columns` of each. */
function propertyScopeEvents(d: Dialect, siteId: string, days: Period, columns: Sql): Sql {
  return sql`SELECT ${columns} FROM events WHERE ${scopeBounds(d, { siteId, days, filters: [], exit: false })} AND NOT ${trusted(CARRIES_NO_PROPERTIES)}`;
}

/** Every property the events of `propertyScopeEvents` carry, one row each: PAIR_FACTS, dim (`prop.<key>`) and k (typed as `asRepeated`). */
function keyedPropertyPairs(d: Dialect, siteId: string, days: Period): Sql {
  const pairs = sql`${propertyScopeEvents(d, siteId, days, sql`${trusted(PAIR_FACTS)}, ${propertyPairs(d)} AS pair`)} AND props IS NOT NULL`;
  const tokens = sql`SELECT ${trusted(PAIR_FACTS)}, ${pairKeyToken(d, 'pair')} AS key_token, ${pairValueToken(d, 'pair')} AS value_token FROM (${pairs}) p`;
  return sql`SELECT ${trusted(PAIR_FACTS)}, ${keyDimension(d, trusted('key_token'))} AS dim, ${asRepeated(d, decodeValue(d, trusted('value_token')))} AS k
    FROM (${tokens}) t`;
}

/**
 * Per day, property and value, the traffic measures of the events that carry the property (the
 * per-session ones at 0, as for every event-scoped dimension's rollups). Columns: b (a DATE), dim
 * (`prop.<key>`), k (typed as `asRepeated`), then the measures in registry order.
 */
export function measurePropertyPairs(d: Dialect, siteId: string, days: Period): Sql {
  return sql`SELECT day AS b, dim, k, ${trusted(measureAggregates(d, TRAFFIC_MEASURES, 'events'))}, ${trusted(SESSION_COLUMNS.map((c) => `0 AS ${c}`).join(', '))}
    FROM (${keyedPropertyPairs(d, siteId, days)}) x GROUP BY b, dim, k`;
}

/** The traffic measures counted per event (all over events but visitors), summed over visitors. */
const EVENT_COUNTS = Object.values(TRAFFIC_MEASURES).filter((m) => m.over === 'events' && m !== TRAFFIC_MEASURES.visitors);

/**
 * Per day, the `(none)` rows of properties: for each property the day's events carry (dimension
 * `prop.<key>`, key `(none)`), the measures of the events a property breakdown counts (every one but
 * `engage`) that lack it, when there are any; and the measures of all those events once (dimension
 * `prop.`, key `(none)`), the `(none)` row of every property the day's events do not carry. Linear
 * in the events and their properties, whichever keys clients send: per visitor, their events and
 * those carrying each property they carry; a visitor counts in a property's `(none)` row unless
 * every event of theirs carries it. Columns as `measurePropertyPairs`'.
 */
export function measurePropertyNones(d: Dialect, siteId: string, days: Period): Sql {
  const counts = (prefix: string) => trusted(EVENT_COUNTS.map((m) => `${m.aggregate(d)} AS ${prefix}${m.column}`).join(', '));
  const summed = (from: string, to: string) => trusted(EVENT_COUNTS.map((m) => `CAST(sum(${from}${m.column}) AS BIGINT) AS ${to}${m.column}`).join(', '));
  // Every column of the joined relations has a name of its own (ClickHouse 18.16 resolves clashing names on its own terms).
  const visitors = sql`SELECT day AS v_day, visitor_id AS v_visitor, ${counts('v_')} FROM (${propertyScopeEvents(d, siteId, days, trusted(PAIR_FACTS))}) e GROUP BY day, visitor_id`;
  const carried = sql`SELECT day AS c_day, visitor_id AS c_visitor, dim AS c_dim, ${counts('c_')} FROM (${keyedPropertyPairs(d, siteId, days)}) p GROUP BY day, visitor_id, dim`;
  const totals = sql`SELECT v_day AS t_day, CAST(count(*) AS BIGINT) AS t_visitors, ${summed('v_', 't_')} FROM (${visitors}) v GROUP BY v_day`;
  const everyEvent = `c.c_${TRAFFIC_MEASURES.events.column} = v.v_${TRAFFIC_MEASURES.events.column}`;
  const perProperty = sql`SELECT c.c_day AS k_day, c.c_dim AS k_dim, ${summed('c.c_', 'k_')}, CAST(sum(CASE WHEN ${trusted(everyEvent)} THEN 1 ELSE 0 END) AS BIGINT) AS k_visitors
    FROM (${carried}) c JOIN (${visitors}) v ON c.c_day = v.v_day AND c.c_visitor = v.v_visitor GROUP BY c.c_day, c.c_dim`;
  const none = asRepeated(d, sql`${NONE_KEY}`);
  const lacking = EVENT_COUNTS.map((m) => `CAST(t.t_${m.column} - p.k_${m.column} AS BIGINT) AS ${m.column}`).join(', ');
  const zeros = trusted(SESSION_COLUMNS.map((c) => `0 AS ${c}`).join(', '));
  const events = TRAFFIC_MEASURES.events.column;
  return sql`SELECT p.k_day AS b, p.k_dim AS dim, ${none} AS k, CAST(t.t_visitors - p.k_visitors AS BIGINT) AS visitors, ${trusted(lacking)}, ${zeros}
      FROM (${perProperty}) p JOIN (${totals}) t ON p.k_day = t.t_day WHERE t.t_${trusted(events)} > p.k_${trusted(events)}
    UNION ALL
    SELECT t_day AS b, ${PROPERTY_PREFIX} AS dim, ${none} AS k, t_visitors AS visitors, ${trusted(EVENT_COUNTS.map((m) => `t_${m.column} AS ${m.column}`).join(', '))}, ${zeros} FROM (${totals}) t`;
}

/**
 * Per bucket (and key), every traffic measure (src/stats/measures.ts); the per-session ones count
 * the sessions that start in the bucket. Columns: b, [k,] then the measures in registry order.
 */
export function measureEvents(d: Dialect, scope: EventScope, g: Grouping): Sql {
  const keySelect = g.key ? sql`, ${g.key} AS k` : trusted('');
  const keyGroup = trusted(g.key ? ', k' : '');
  const events = sql`SELECT ${g.bucket} AS b${keySelect}, ${trusted(measureAggregates(d, TRAFFIC_MEASURES, 'events'))}
    FROM ${eventsRelation(d, scope)} GROUP BY b${keyGroup}`;
  const keyOut = trusted(g.key ? ', a.k AS k' : '');
  if (!g.sessions) {
    return sql`SELECT a.b AS b${keyOut}, ${fromEvents}, ${trusted(SESSION_COLUMNS.map((c) => `0 AS ${c}`).join(', '))} FROM (${events}) a`;
  }
  const facts = sessionFactsSelect(d, scope, g.bucket, g.key ? [{ name: 'sk', aggregate: sql`min(${g.key})` }] : []);
  const sessions = sql`SELECT sb AS b${trusted(g.key ? ', sk AS k' : '')}, ${trusted(measureAggregates(d, TRAFFIC_MEASURES, 'sessions'))}
    FROM (${facts}) x GROUP BY b${keyGroup}`;
  // A bucket without a starting session has no row in `s`: its per-session measures are 0 (the
  // coalesce covers an engine that gives NULL there, and one that gives the type's default).
  return sql`SELECT a.b AS b${keyOut}, ${fromEvents}, ${trusted(SESSION_COLUMNS.map((c) => `coalesce(s.${c}, 0) AS ${c}`).join(', '))}
    FROM (${events}) a LEFT JOIN (${sessions}) s ON a.b = s.b${trusted(g.key ? ' AND a.k = s.k' : '')}`;
}

/**
 * One row per session that starts in the scope, with facts over its whole length (sessionScope):
 * `session_id`, its start bucket `sb`, one column per given key aggregate, then the facts the
 * session measures are computed from (pageviews, customs, engaged_ms, engages, first_ts, last_ts).
 */
function sessionFactsSelect(d: Dialect, scope: EventScope, bucket: Sql, keys: ReadonlyArray<{ name: string; aggregate: Sql }>): Sql {
  const keyColumns = keys.map((k) => sql`${k.aggregate} AS ${trusted(k.name)}`);
  const perSession = sql`SELECT session_id, min(CASE WHEN session_start AND ${startsInScope(d, scope)} THEN ${bucket} END) AS sb,
    ${joinSql([...keyColumns, ...SESSION_FACTS.map((f) => trusted(`${f.aggregate(d)} AS ${f.column}`))], ', ')}
    FROM ${eventsRelation(d, sessionScope(scope))} GROUP BY session_id`;
  return sql`SELECT * FROM (${perSession}) f WHERE sb IS NOT NULL`;
}

/**
 * The parts of sessions (SESSION_PARTS) of some days and of the day either side, in the table's
 * column order: one per session, day and visitor hash, from one pass over raw events. Each day is
 * its own aggregate (a part never spans days), so that the statement's memory follows the largest
 * day's events (and the range's session ids, a set of 64-bit values), not the range's events: the
 * parts' keys are strings, held in memory per group (docs/performance.md#memory). The days either
 * side hold only the parts of sessions that have events in the days (those that cross a midnight):
 * the session rows of the days take no other (`sessionRowsOfParts`), and a busy day's sessions would
 * otherwise be parts held for nothing, two thirds of them when one day is rewritten. DuckDB runs the
 * branches of a `UNION ALL` one after another while it keeps insertion order, as it does by default.
 */
export function sessionPartsOfEvents(d: Dialect, siteId: string, days: Period): Sql {
  if (days.from > days.to) throw new RangeError(`no days from ${days.from} to ${days.to}`);
  const keys = SESSION_DIMENSIONS.map((dim) => (dim === 'exit' ? d.argMaxIf('page', 'ts', IS_PAGEVIEW) : `min(${dimensionColumn(dim)})`) + ` AS p_${dim}`);
  const facts = SESSION_FACTS.map((f) => `${f.aggregate(d)} AS p_${f.column}`);
  const inDays = sql`session_id IN (SELECT session_id FROM events WHERE site_id = ${siteId} AND ${dayRange(d, 'day', days)})`;
  const ofDay = (day: string, sessions: Sql | null) => sql`SELECT ${siteId} AS p_site, day AS p_day, session_id AS p_session, visitor_id AS p_visitor, ${trusted(d.countIf('session_start'))} AS p_starts,
      CAST(count(*) AS BIGINT) AS p_events, ${trusted([...keys, ...facts].join(', '))}, max(CASE WHEN ${trusted(IS_PAGEVIEW)} THEN ts END) AS p_last_pageview_ts
    FROM events WHERE site_id = ${siteId} AND ${dayRange(d, 'day', { from: day, to: day })}${sessions ? sql` AND ${sessions}` : trusted('')} GROUP BY day, session_id, visitor_id`;
  const around = sessionPartDays(days);
  const each: Sql[] = [ofDay(around.from, inDays)];
  for (let day = days.from; day <= days.to; day = addDays(day, 1)) each.push(ofDay(day, null));
  each.push(ofDay(around.to, inDays));
  return joinSql(each, ' UNION ALL ');
}

/** The days whose parts of sessions a rewrite of `days` writes: the days and one day either side. */
export function sessionPartDays(days: Period): Period {
  return { from: addDays(days.from, -1), to: addDays(days.to, 1) };
}

/**
 * The session rows (SESSION_ROWS) of some days, in the table's column order, from the parts of
 * sessions written for them (`sessionPartsOfEvents` of the days): each row its part's counts and
 * keys, the session's exit page (its last pageview, as `eventsRelation` finds it), and on the
 * starting day's row whether the session bounced and its duration, from its facts over its parts
 * (as `sessionFactsSelect` counts them).
 */
export function sessionRowsOfParts(d: Dialect, siteId: string, days: Period): Sql {
  const parts = (range: Period) => sql`(SELECT * FROM ${trusted(SESSION_PARTS.name)} WHERE site_id = ${siteId} AND ${dayRange(d, 'day', range)})`;
  const sessionFacts = SESSION_FACTS.map((f) => `${f.combine}(${f.column}) AS s_${f.column}`);
  const keys = SESSION_DIMENSIONS.map((dim) => `coalesce(${dim === 'exit' ? 'x.s_exit' : `p.${dimensionColumn(dim)}`}, '${NONE_KEY}') AS o_${dim}`);
  // The session's bounce and duration go on its starting day's row only (where its facts always join).
  const onStart = [
    `CASE WHEN p.starts > 0 AND ${sessionBounced('x.s_')} THEN 1 ELSE 0 END AS o_bounces`,
    `CASE WHEN p.starts > 0 THEN coalesce(${sessionDuration('x.s_')}, 0) ELSE 0 END AS o_duration_ms`,
  ];
  return sql`SELECT ${siteId} AS o_site, p.day AS o_day, p.session_id AS o_session, p.visitor_id AS o_visitor, p.starts AS o_starts, p.pageviews AS o_pageviews,
      p.events AS o_events, ${trusted([...keys, ...onStart].join(', '))}
    FROM ${parts(days)} p
    LEFT JOIN (SELECT session_id AS s_session, ${trusted(sessionFacts.join(', '))}, ${trusted(d.argMaxIf('exit_page', 'last_pageview_ts', 'pageviews > 0'))} AS s_exit
      FROM ${parts(sessionPartDays(days))} q GROUP BY session_id) x
    ON p.session_id = x.s_session`;
}

/** The key of a session-scoped dimension on a session row, which holds an absent value as `(none)`. */
export function sessionRowKey(dimension: QueryDimension): Sql {
  // The planner reads session rows for session-scoped dimensions only.
  if (isPropertyDimension(dimension)) throw new Error(`session rows hold no ${dimension}`);
  return trusted(dimensionColumn(dimension));
}

/** The session rows of a site, days and filters (every one session-scoped), as a relation named `ev`. */
function sessionRowsRelation(d: Dialect, siteId: string, days: Period, filters: readonly Filter[]): Sql {
  const bounds = [sql`site_id = ${siteId}`, dayRange(d, 'day', days)];
  const chosen = filters.map((f) => sql`${sessionRowKey(f.dimension)} = ${f.value}`);
  const first = d.readFirst();
  if (first === null || chosen.length === 0) return sql`(SELECT * FROM ${trusted(SESSION_ROWS.name)} WHERE ${joinSql([...bounds, ...chosen], ' AND ')}) ev`;
  return sql`(SELECT * FROM ${trusted(SESSION_ROWS.name)} ${trusted(first)} ${joinSql(chosen, ' AND ')} WHERE ${joinSql(bounds, ' AND ')}) ev`;
}

/**
 * Per day (and key), every traffic measure over session rows; `sessions: false` leaves the
 * per-session ones at 0, as on raw days. Columns: b (a DATE), [k,] then the measures in registry order.
 */
export function measureSessionRows(d: Dialect, siteId: string, days: Period, filters: readonly Filter[], key?: Sql, sessions = true): Sql {
  const keySelect = key ? sql`, ${key} AS k` : trusted('');
  return sql`SELECT ${DAY_BUCKET} AS b${keySelect}, ${trusted(sessionRowAggregates(d, 'day', sessions))}
    FROM ${sessionRowsRelation(d, siteId, days, filters)} GROUP BY b${trusted(key ? ', k' : '')}`;
}

/** Per key, the traffic measures over the session rows of all the days at once, the per-session ones at 0 (a breakdown reads visitors and views). Columns: k, then the measures in registry order. */
function measureSessionRowsByKey(d: Dialect, siteId: string, days: Period, filters: readonly Filter[], key: Sql): Sql {
  return sql`SELECT ${key} AS k, ${trusted(sessionRowAggregates(d, 'days', false))} FROM ${sessionRowsRelation(d, siteId, days, filters)} GROUP BY k`;
}

/** Whether an event row's page matches a page pattern (RE2 in the engine: linear time, no backtracking). */
function pagePatternPredicate(d: Dialect, pattern: string): Sql {
  return withParams(d.regexMatches('page'), pagePatternRegex(pattern));
}

/** Matching predicate of a goal or funnel step on an event row. */
export function matcherPredicate(d: Dialect, m: Matcher): Sql {
  if (m.kind === 'event') return sql`name = ${m.pattern}`;
  return sql`(name = 'pageview' AND ${pagePatternPredicate(d, m.pattern)})`;
}

/** Matching predicate of a goal on an event row: its matcher, and each property value it requires, as a filter matches it. */
export function goalPredicate(d: Dialect, goal: GoalRef): Sql {
  const props = Object.entries(goal.props ?? {}).map(([key, value]) => propertyFilterPredicate(d, `${PROPERTY_PREFIX}${key}`, value));
  return joinSql([matcherPredicate(d, goal), ...props], ' AND ');
}

/**
 * The revenue columns of a goal's rows (GOAL_MEASURES) for its currency (`goal.currency`, '' for
 * none): the same BIGINT expressions for every goal, so that the goals' rows union with one type per
 * column, and with a settlement's rows; without a currency nothing matches.
 */
function goalRevenueColumns(currency: string): Sql {
  return sql`CAST(CASE WHEN revenue_currency = ${currency} THEN 1 ELSE 0 END AS BIGINT) AS paid,
    CAST(coalesce(CASE WHEN revenue_currency = ${currency} THEN revenue_minor ELSE 0 END, 0) AS BIGINT) AS rm,
    CAST(CASE WHEN revenue_currency <> ${currency} AND ${currency} <> '' THEN 1 ELSE 0 END AS BIGINT) AS other`;
}

/** A literal for an id we issued ourselves (goal ids, funnel ids), never client text. */
export function integerLiteral(n: number): Sql {
  return trusted(integerText(n));
}

/** Instants an event lies in: from `since` (included), before `until`; either bound absent reaches the days' end. */
interface Instants {
  since?: number | undefined;
  until?: number | undefined;
}

function instantBounds(i: Instants): Sql {
  const bounds = [...(i.since === undefined ? [] : [sql` AND ts >= ${i.since}`]), ...(i.until === undefined ? [] : [sql` AND ts < ${i.until}`])];
  return joinSql(bounds, '');
}

/** One row per conversion of any of the goals: b (`bucket`), visitor_id, goal_id, and its revenue columns (paid, rm, other). */
function goalEvents(d: Dialect, bucket: Sql, siteId: string, days: Period, goals: readonly GoalRef[], instants: Instants): Sql {
  const parts = goals.map(
    (goal) => sql`SELECT ${bucket} AS b, visitor_id, CAST(${integerLiteral(goal.goalId)} AS BIGINT) AS goal_id, ${goalRevenueColumns(goal.currency ?? '')} FROM events
      WHERE site_id = ${siteId} AND ${dayRange(d, 'day', days)} AND ${goalPredicate(d, goal)}${instantBounds(instants)}`,
  );
  return joinSql(parts, ' UNION ALL ');
}

/** Per day and goal, the goal measures. Columns: b, goal_id, then the measures in registry order. */
export function measureGoals(d: Dialect, bucket: Sql, siteId: string, days: Period, goals: readonly GoalRef[], until?: number): Sql {
  return sql`SELECT b, goal_id, ${trusted(measureAggregates(d, GOAL_MEASURES, 'events'))}
    FROM (${goalEvents(d, bucket, siteId, days, goals, { until })}) g GROUP BY b, goal_id`;
}

// Settlements (./settlement.ts): the raw days after the watermark counted up to a cut.

/**
 * One row per session, day and visitor hash of the events `where` selects, of the sessions whose
 * events `factsWhere` selects and whose last one (`max(ts)`) `ended` accepts: that day's counts, and
 * on the session's starting day whether it bounced and its duration, from its facts over those events.
 * Columns: day, session_id, visitor_id, starts, pageviews, events, bounces, duration_ms.
 */
function sessionDayRows(d: Dialect, where: Sql, factsWhere: Sql, ended: Sql): Sql {
  const parts = sql`SELECT day AS p_day, session_id AS p_session, visitor_id AS p_visitor, ${trusted(d.countIf('session_start'))} AS p_starts,
      ${trusted(d.countIf(IS_PAGEVIEW))} AS p_pageviews, CAST(count(*) AS BIGINT) AS p_events
    FROM events WHERE ${where} GROUP BY day, session_id, visitor_id`;
  const facts = sql`SELECT session_id AS s_session, ${trusted(SESSION_FACTS.map((f) => `${f.aggregate(d)} AS s_${f.column}`).join(', '))}
    FROM events WHERE ${factsWhere} GROUP BY session_id HAVING ${ended}`;
  return sql`SELECT p.p_day AS day, p.p_session AS session_id, p.p_visitor AS visitor_id, p.p_starts AS starts, p.p_pageviews AS pageviews, p.p_events AS events,
      CAST(CASE WHEN p.p_starts > 0 AND ${trusted(sessionBounced('x.s_'))} THEN 1 ELSE 0 END AS BIGINT) AS bounces,
      CAST(CASE WHEN p.p_starts > 0 THEN ${trusted(sessionDuration('x.s_'))} ELSE 0 END AS BIGINT) AS duration_ms
    FROM (${parts}) p JOIN (${facts}) x ON p.p_session = x.s_session`;
}

/** The site's events of some days from an instant (included, when given) and before another. */
function eventsBetween(d: Dialect, siteId: string, days: Period, from: number | null, until: number): Sql {
  return sql`site_id = ${siteId} AND ${dayRange(d, 'day', days)}${instantBounds({ since: from ?? undefined, until })}`;
}

/** The site's events of some days from an instant (included, when given) and before another, counted (one row, column HELD_EVENTS). */
export function eventCountStatement(d: Dialect, siteId: string, days: Period, from: number | null, until: number): Sql {
  return sql`SELECT CAST(count(*) AS BIGINT) AS ${trusted(HELD_EVENTS)} FROM events WHERE ${eventsBetween(d, siteId, days, from, until)}`;
}

/** The rows of a settled table of a cut on some days (`also` matching, when given: a WHERE clause's predicate). */
function settledRows(d: Dialect, table: TableSpec, siteId: string, days: Period, cut: number, also?: Sql): Sql {
  return sql`${trusted(table.name)} WHERE site_id = ${siteId} AND ${dayRange(d, 'day', days)} AND cut = ${cut}${also ? sql` AND ${also}` : trusted('')}`;
}

/**
 * What tells whether a settlement still holds, as it stands (one row, columns HELD_EVENTS and
 * HELD_ROWS): the site's events of its days before its cut, and its rows in each of SETTLED_TABLES.
 */
export function settlementCheckStatement(d: Dialect, siteId: string, s: Pick<Settlement, 'days' | 'cut'>): Sql {
  const rows = SETTLED_TABLES.map((table) => sql`(SELECT CAST(count(*) AS BIGINT) FROM ${settledRows(d, table, siteId, s.days, s.cut)})`);
  return sql`SELECT (${eventCountStatement(d, siteId, s.days, null, s.cut)}) AS ${trusted(HELD_EVENTS)}, ${joinSql(rows, ' + ')} AS ${trusted(HELD_ROWS)}`;
}

/**
 * The first event of the sessions of some days still open at a cut, or a session gap before the cut
 * if earlier (one row, column `open_from`): every event from there on belongs to a session open at
 * the cut or after it.
 */
export function openFromStatement(d: Dialect, siteId: string, days: Period, cut: number): Sql {
  const gapBefore = cut - SESSION_GAP_MS;
  // The gap's instant among the first events: engines differ on what min() gives over no rows.
  return sql`SELECT min(f) AS open_from FROM (SELECT min(ts) AS f FROM events WHERE ${eventsBetween(d, siteId, days, null, cut)} GROUP BY session_id HAVING max(ts) >= ${gapBefore}
      UNION ALL SELECT CAST(${gapBefore} AS BIGINT) AS f) o`;
}

/** The rows of a settlement of some days at a cut, for each of SETTLED_TABLES in turn (null for none). */
export function settlementRows(d: Dialect, siteId: string, days: Period, cut: number, goals: readonly GoalRef[]): [Sql, Sql | null] {
  const before = eventsBetween(d, siteId, days, null, cut);
  // The sessions whose last event before the cut came a session gap earlier: they have ended.
  const sessions = sql`SELECT ${siteId} AS o_site, day AS o_day, CAST(${cut} AS BIGINT) AS o_cut, session_id AS o_session, visitor_id AS o_visitor,
      starts AS o_starts, pageviews AS o_pageviews, events AS o_events, bounces AS o_bounces, duration_ms AS o_duration_ms
    FROM (${sessionDayRows(d, before, before, sql`max(ts) < ${cut - SESSION_GAP_MS}`)}) s`;
  if (goals.length === 0) return [sessions, null];
  const conversions = sql`SELECT ${siteId} AS o_site, b AS o_day, CAST(${cut} AS BIGINT) AS o_cut, goal_id AS o_goal, visitor_id AS o_visitor, CAST(count(*) AS BIGINT) AS o_conversions,
      CAST(sum(paid) AS BIGINT) AS o_paid, CAST(coalesce(sum(rm), 0) AS BIGINT) AS o_rm, CAST(sum(other) AS BIGINT) AS o_other
    FROM (${goalEvents(d, DAY_BUCKET, siteId, days, goals, { until: cut })}) g GROUP BY b, goal_id, visitor_id`;
  return [sessions, conversions];
}

/** The days a session's facts are read over for some days' parts: one more day, as every path reads them (`sessionScope`). */
const factDays = (days: Period): Period => ({ from: days.from, to: addDays(days.to, 1) });

/**
 * The rows a read of raw days with their settlement adds up per day: its rows of settled sessions,
 * and the other sessions from raw events since its `openFrom` (those whose last event is less than a
 * session gap before the cut). Columns of each: day, session_id, visitor_id, starts, pageviews,
 * events, bounces, duration_ms.
 */
function settledSessionParts(d: Dialect, siteId: string, days: Period, s: Settlement): { settled: Sql; recent: Sql } {
  const settled = sql`SELECT day, session_id, visitor_id, starts, pageviews, events, bounces, duration_ms FROM ${settledRows(d, SETTLED_SESSIONS, siteId, days, s.cut)}`;
  const since = (range: Period) => sql`site_id = ${siteId} AND ${dayRange(d, 'day', range)} AND ts >= ${s.openFrom}`;
  const recent = sessionDayRows(d, since(days), since(factDays(days)), sql`max(ts) >= ${s.cut - SESSION_GAP_MS}`);
  return { settled, recent };
}

/**
 * The rows a read of raw days with their settlement adds up per day and goal, for the goals it
 * counted: its rows up to the cut, and raw events after it, one conversion each. Columns of each:
 * b (a DATE), goal_id, visitor_id, conversions, paid, rm, other.
 */
function settledGoalParts(d: Dialect, siteId: string, days: Period, s: Settlement, goals: readonly GoalRef[]): { settled: Sql; recent: Sql } {
  const ids = sql`goal_id IN (${joinSql(goals.map((g) => integerLiteral(g.goalId)), ', ')})`;
  const settled = sql`SELECT day AS b, goal_id, visitor_id, conversions, paid, rm, other FROM ${settledRows(d, SETTLED_GOALS, siteId, days, s.cut, ids)}`;
  return { settled, recent: conversionsSince(d, siteId, days, goals, s.cut) };
}

/**
 * The conversions of some goals among the site's events of some days from an instant (included),
 * one row each, typed as a settlement's rows. Each currency's goals take one pass over the events,
 * an event giving a row per goal it matches (`Dialect.idsWhere`): after a settlement's cut the
 * events are few, and each goal's own pass (`goalEvents`) costs more in set-up than in rows
 * (docs/performance.md, ClickHouse: 8.3 against 4.4 ms for two goals). Over whole days the passes
 * per goal stay: one pass there spreads less over DuckDB's threads (5.8 against 4.6 ms for a day).
 * Columns: b (a DATE), goal_id, visitor_id, conversions, paid, rm, other.
 */
function conversionsSince(d: Dialect, siteId: string, days: Period, goals: readonly GoalRef[], since: number): Sql {
  const byCurrency = new Map<string, GoalRef[]>();
  for (const goal of goals) {
    const currency = goal.currency ?? '';
    const same = byCurrency.get(currency);
    if (same) same.push(goal);
    else byCurrency.set(currency, [goal]);
  }
  const passes = [...byCurrency].map(([currency, paying]) => {
    const predicates = paying.map((goal) => goalPredicate(d, goal));
    const cases = paying.map((goal, i) => ({ id: goal.goalId, when: predicates[i]!.text }));
    const goalIds = withParams(d.unnest(d.idsWhere(cases)), ...predicates.flatMap((p) => p.params));
    return sql`SELECT day AS b, ${goalIds} AS goal_id, visitor_id, CAST(1 AS BIGINT) AS conversions, ${goalRevenueColumns(currency)}
      FROM events WHERE site_id = ${siteId} AND ${dayRange(d, 'day', days)}${instantBounds({ since })}`;
  });
  return joinSql(passes, ' UNION ALL ');
}

/**
 * One row per day, session and visitor hash of the site's events of some days and instants: the
 * part's counts and the session's facts over it (./held-sums.ts, OpenSessions). Columns: b (day
 * text), session_id, visitor_id, starts, events, then the facts prefixed PART_FACT_PREFIX.
 */
function sessionPartFacts(d: Dialect, siteId: string, days: Period, instants: Instants): Sql {
  const facts = SESSION_FACTS.map((f) => `${f.aggregate(d)} AS ${PART_FACT_PREFIX}${f.column}`).join(', ');
  return sql`SELECT ${trusted(d.dayText('day'))} AS b, session_id, visitor_id, ${trusted(d.countIf('session_start'))} AS starts, CAST(count(*) AS BIGINT) AS events, ${trusted(facts)}
    FROM events WHERE site_id = ${siteId} AND ${dayRange(d, 'day', days)}${instantBounds(instants)} GROUP BY day, session_id, visitor_id`;
}

/** Per day, the traffic measures of session rows. Columns: b (a DATE), then the measures in registry order. */
const measuresPerDay = (d: Dialect, rows: Sql) => sql`SELECT day AS b, ${trusted(sessionRowAggregates(d, 'day', true))} FROM (${rows}) ev GROUP BY day`;

/** Per day and visitor, the traffic measures of session rows but visitors. Columns: b (day text), visitor_id, then the measures. */
const measuresPerVisitor = (d: Dialect, rows: Sql) =>
  sql`SELECT ${trusted(d.dayText('day'))} AS b, visitor_id, ${trusted(sessionRowAggregates(d, 'day', true, 'visitors'))} FROM (${rows}) ev GROUP BY day, visitor_id`;

/**
 * Per day, the traffic measures of raw days read with their settlement: its part (SettledPart), the
 * process holding its settled rows per day and visitor and its open sessions' events before the cut,
 * reading at each read only the events since.
 */
function settledMeasuresPart(d: Dialect, siteId: string, days: Period, s: Settlement): SettledPart {
  const { settled, recent } = settledSessionParts(d, siteId, days, s);
  return {
    site: siteId,
    cut: s.cut,
    key: JSON.stringify(['measures', siteId, s.cut, s.events, s.rows, days.from, days.to]),
    form: MEASURES_BY_VISITOR,
    settled: measuresPerVisitor(d, settled),
    recent: sessionPartFacts(d, siteId, factDays(days), { since: s.cut }),
    open: { rows: sessionPartFacts(d, siteId, factDays(days), { since: s.openFrom, until: s.cut }), at: s.cut - SESSION_GAP_MS, days },
    whole: dayRows(d, measuresPerDay(d, sql`${settled} UNION ALL ${recent}`), MEASURE_COLUMNS),
  };
}

/** Per day and goal, the goal measures of conversion counts. Columns: b (a DATE), goal_id, then the measures in registry order. */
const goalsPerDay = (d: Dialect, rows: Sql) => sql`SELECT b, goal_id, ${trusted(goalAggregatesOverCounts(d))} FROM (${rows}) c GROUP BY b, goal_id`;

/** Per day, goal and visitor, the goal measures of conversion counts but unique conversions. Columns: b (day text), goal_id, visitor_id, then the measures. */
const goalsPerVisitor = (d: Dialect, rows: Sql) =>
  sql`SELECT ${trusted(d.dayText('b'))} AS b, goal_id, visitor_id, ${trusted(goalAggregatesOverCounts(d, 'uniqueConversions'))} FROM (${rows}) c GROUP BY b, goal_id, visitor_id`;

/**
 * Per day and goal, the goal measures of raw days read with their settlement, for the goals it
 * counted: its part (SettledPart), the process holding its rows per day, goal and visitor, reading
 * at each read only the conversions after the cut.
 */
function settledGoalsPart(d: Dialect, siteId: string, days: Period, s: Settlement, goals: readonly GoalRef[]): SettledPart {
  const { settled, recent } = settledGoalParts(d, siteId, days, s, goals);
  return {
    site: siteId,
    cut: s.cut,
    // Keyed by the goals counted: one defined otherwise since leaves the others' sums as they are.
    key: JSON.stringify(['goals', goals.map((g) => g.goalId), siteId, s.cut, s.events, s.rows, days.from, days.to]),
    form: GOALS_BY_VISITOR,
    settled: goalsPerVisitor(d, settled),
    recent: goalsPerVisitor(d, recent),
    whole: dayRows(d, goalsPerDay(d, sql`${settled} UNION ALL ${recent}`), ['goal_id', ...GOAL_COLUMNS]),
  };
}

/**
 * Per day (`bucket`) and page (of `pages` only, when given), the deepest scroll of each visitor of the
 * page, summed, and the number of those visitors. Columns: b, k, depth_sum, depth_visitors.
 */
export function measureScrollDepth(d: Dialect, bucket: Sql, siteId: string, days: Period, pages: readonly string[] | null): Sql {
  const only = pages === null ? trusted('') : sql` AND page IN (${joinSql(pages.map((p) => sql`${p}`), ', ')})`;
  return sql`SELECT b, k, CAST(coalesce(sum(deepest), 0) AS BIGINT) AS depth_sum, CAST(count(*) AS BIGINT) AS depth_visitors FROM (
      SELECT ${bucket} AS b, page AS k, visitor_id, max(scroll_depth) AS deepest FROM events
      WHERE site_id = ${siteId} AND ${dayRange(d, 'day', days)} AND name = 'engage' AND scroll_depth IS NOT NULL${only}
      GROUP BY b, k, visitor_id) v GROUP BY b, k`;
}

/**
 * The scroll depth sums of some pages over some days, one statement per source: scroll_daily up to
 * the watermark, raw events after it (imported days have none). Columns: k, depth_sum, depth_visitors.
 */
export function scrollDepthStatements(d: Dialect, siteId: string, days: DaySources, pages: readonly string[]): Sql[] {
  if (pages.length === 0) return [];
  const sums = trusted('CAST(sum(depth_sum) AS BIGINT) AS s, CAST(sum(depth_visitors) AS BIGINT) AS n');
  const statements: Sql[] = [];
  if (days.rollup) {
    const only = joinSql(pages.map((p) => sql`${p}`), ', ');
    statements.push(
      sql`SELECT page AS k, ${sums} FROM ${trusted(SCROLL_DAILY.name)} WHERE site_id = ${siteId} AND ${dayRange(d, 'day', days.rollup)} AND page IN (${only}) GROUP BY page`,
    );
  }
  for (const raw of [days.sessions, days.raw]) {
    if (raw) statements.push(sql`SELECT k, ${sums} FROM (${measureScrollDepth(d, trusted('day'), siteId, raw, pages)}) r GROUP BY k`);
  }
  return statements;
}

/** Events matching any funnel step, in the order the funnel walk needs. */
export function funnelEvents(d: Dialect, siteId: string, days: Period, steps: readonly Matcher[]): Sql {
  const any = joinSql(steps.map((s) => matcherPredicate(d, s)), ' OR ');
  return sql`SELECT ${trusted(d.dayText('day'))} AS b, visitor_id, ts, name, page FROM events
    WHERE site_id = ${siteId} AND ${dayRange(d, 'day', days)} AND (${any})
    ORDER BY b, visitor_id, ts, name, page`;
}

// The statements of the read path. Rollups answer the days of a plan up to its watermark, raw events
// the days after it; each statement's rows have the same columns whichever source it reads.

const MEASURE_COLUMNS = measureColumns(TRAFFIC_MEASURES);
const GOAL_COLUMNS = measureColumns(GOAL_MEASURES);
/** The forms of the settled reads whose sums a process holds (./held-sums.ts): visitors counted once per day (and goal). */
const MEASURES_BY_VISITOR: HeldForm = { group: ['b'], visitors: TRAFFIC_MEASURES.visitors.column, sums: MEASURE_COLUMNS.filter((c) => c !== TRAFFIC_MEASURES.visitors.column) };
const GOALS_BY_VISITOR: HeldForm = {
  group: ['b', 'goal_id'],
  visitors: GOAL_MEASURES.uniqueConversions.column,
  sums: GOAL_COLUMNS.filter((c) => c !== GOAL_MEASURES.uniqueConversions.column),
};
const KEYS_BY_VISITOR: HeldForm = { group: ['b', 'k'], visitors: 'visitors', sums: ['views'] };

/**
 * The first day of `days` on which a filter's key was folded into `(other)` (the dimension has an
 * `(other)` row that day and the key none), as the column `d` of at most one row. On such a day the
 * rollups cannot answer the filter: the key's own counts are inside `(other)`.
 */
export function firstFoldedDayStatement(d: Dialect, siteId: string, filter: Filter, days: Period): Sql {
  const table = trusted(DIM_DAILY.name);
  // The first row, not min(): engines differ on what an aggregate over no rows gives (and an alias
  // never takes a column's name: ClickHouse resolves the name to the alias in WHERE too).
  return sql`SELECT ${trusted(d.dayText('day'))} AS d FROM ${table} WHERE site_id = ${siteId} AND dimension = ${filter.dimension}
      AND key = ${OTHER_KEY} AND ${dayRange(d, 'day', days)}
      AND day NOT IN (SELECT day FROM ${table} WHERE site_id = ${siteId} AND dimension = ${filter.dimension} AND key = ${filter.value} AND ${dayRange(d, 'day', days)})
      ORDER BY day LIMIT 1`;
}

/**
 * The parts a read that only adds up its days sums them into: the period, and the compared part but
 * for its cut day (./read/stats.ts reads that day again up to the cut, or scales it).
 */
export interface DayParts {
  readonly period: Period;
  readonly previous: Period;
  readonly cutDay: string | null;
}

/**
 * A query's parts, where its engine adds up rolled-up days in the statement
 * (`Dialect.addsUpFewRows`) and the compared part ends before the period; else null (a row a day).
 */
export function dayPartsOf(d: Dialect, q: Query): DayParts | null {
  if (!d.addsUpFewRows || q.previous.to >= q.period.from) return null;
  return { period: q.period, previous: q.previous, cutDay: q.previousCut?.day ?? null };
}

/**
 * Over the DATE column `day`: its part as day text (`part`: the part's first day, the cut day its
 * own), and whether it lies in a part (`within`).
 */
function partsOfDay(d: Dialect, parts: DayParts): { part: Sql; within: Sql } {
  const date = (day: string) => trusted(d.dateLiteral(day));
  const text = (day: string) => trusted(d.dayText(d.dateLiteral(day)));
  const { period, previous, cutDay } = parts;
  const cut = cutDay === null ? trusted('') : sql` WHEN day = ${date(cutDay)} THEN ${text(cutDay)}`;
  return {
    part: sql`CASE WHEN day >= ${date(period.from)} THEN ${text(period.from)}${cut} ELSE ${text(previous.from)} END`,
    within: sql`(day BETWEEN ${date(previous.from)} AND ${date(previous.to)} OR day BETWEEN ${date(period.from)} AND ${date(period.to)})`,
  };
}

/**
 * A select of a site's rolled-up or imported rows (`from`: a table and its WHERE predicate, a row a
 * day and key), columns b (day text), `keys`, then `columns`: a row a day, or with `parts` a row a
 * part (b the part's first day, the cut day its own; days in neither part left out), grouped in the
 * select itself (a subquery around it costs ClickHouse 18.16 more than the grouping).
 */
function fewRowsSelect(d: Dialect, from: Sql, parts: DayParts | null, keys: readonly string[], columns: readonly string[]): Sql {
  const kept = trusted(keys.map((c) => `${c}, `).join(''));
  const clause = trusted(d.fewRowsClause);
  if (parts === null) return sql`SELECT ${trusted(d.dayText('day'))} AS b, ${kept}${trusted(columns.join(', '))} FROM ${from}${clause}`;
  const { part, within } = partsOfDay(d, parts);
  return sql`SELECT ${part} AS b, ${kept}${sumsOf(columns)} FROM ${from} AND ${within} GROUP BY ${trusted(['b', ...keys].join(', '))}${clause}`;
}

/**
 * The statements of a daily read, one per source; with a settlement, `check` tells whether it still
 * holds (`settlementCheckStatement`).
 */
export interface DailyStatements {
  readonly sources: Sql[];
  readonly check: Sql | null;
  /** With a settlement: its part, added up by the engine or held (./held-sums.ts). */
  readonly settled?: SettledPart;
}

/**
 * Per day, the traffic measures of a query's days, one statement per source. Columns: b (day text),
 * then the measures in registry order; `sessions: false` leaves the per-session ones at 0 on raw
 * days; with `parts`, the rolled-up and imported days come a row a part (`fewRowsSelect`).
 */
export function dailyMeasureStatements(d: Dialect, q: Query, days: DaySources, sessions: boolean, parts: DayParts | null = null): DailyStatements {
  const statements: Sql[] = [];
  // Rolled-up and imported days in one statement: one round trip for both.
  const summed: Sql[] = [];
  const [filter] = q.filters;
  if (days.rollup) {
    const table = filter
      ? sql`${trusted(DIM_DAILY.name)} WHERE site_id = ${q.siteId} AND dimension = ${filter.dimension} AND key = ${filter.value} AND`
      : sql`${trusted(SITE_DAILY.name)} WHERE site_id = ${q.siteId} AND`;
    summed.push(fewRowsSelect(d, sql`${table} ${dayRange(d, 'day', days.rollup)}`, parts, [], MEASURE_COLUMNS));
  }
  if (days.imported) summed.push(fewRowsSelect(d, importedRows(d, q.siteId, days.imported, filter?.dimension, filter?.value), parts, [], MEASURE_COLUMNS));
  if (summed.length > 0) statements.push(joinSql(summed, ' UNION ALL '));
  if (days.sessions) statements.push(dayRows(d, measureSessionRows(d, q.siteId, days.sessions, q.filters, undefined, sessions), MEASURE_COLUMNS));
  // Visitors alone are one pass over raw events, cheaper than the settled rows and open sessions
  // added up by the engine (a reader that holds their sums asks for every measure: ./read/days.ts).
  if (days.raw && days.settled && sessions) {
    return { sources: statements, check: settlementCheckStatement(d, q.siteId, days.settled), settled: settledMeasuresPart(d, q.siteId, days.raw, days.settled) };
  }
  if (days.raw) {
    const measures = measureEvents(d, { siteId: q.siteId, days: days.raw, filters: q.filters, exit: needsExit(q.filters) }, { bucket: DAY_BUCKET, sessions });
    statements.push(dayRows(d, measures, MEASURE_COLUMNS));
  }
  return { sources: statements, check: null };
}

/**
 * Per day and goal, the goal measures of some days, one statement per source (none without goals),
 * the goals a settlement counted apart from the others. Columns: b, goal_id, then the measures; with
 * `parts`, the rolled-up and imported days come a row a part and goal (`fewRowsSelect`).
 */
export function dailyGoalStatements(d: Dialect, siteId: string, days: DaySources, goals: readonly GoalRef[], parts: DayParts | null = null): DailyStatements {
  const statements: Sql[] = [];
  if (goals.length === 0) return { sources: statements, check: null };
  const summed: Sql[] = [];
  if (days.rollup) {
    const ids = joinSql(goals.map((g) => integerLiteral(g.goalId)), ', ');
    const rows = sql`${trusted(GOAL_DAILY.name)} WHERE site_id = ${siteId} AND ${dayRange(d, 'day', days.rollup)} AND goal_id IN (${ids})`;
    summed.push(fewRowsSelect(d, rows, parts, ['goal_id'], GOAL_COLUMNS));
  }
  const imported = days.imported && importedGoals(d, siteId, days.imported, goals, parts);
  if (imported) summed.push(imported);
  if (summed.length > 0) statements.push(joinSql(summed, ' UNION ALL '));
  if (!days.raw) return { sources: statements, check: null };
  const counted = days.settled ? settledGoals(days.settled, goals) : [];
  const rest = goals.filter((g) => !counted.includes(g));
  if (rest.length > 0) statements.push(dayRows(d, measureGoals(d, DAY_BUCKET, siteId, days.raw, rest), ['goal_id', ...GOAL_COLUMNS]));
  if (counted.length === 0) return { sources: statements, check: null };
  return { sources: statements, check: settlementCheckStatement(d, siteId, days.settled!), settled: settledGoalsPart(d, siteId, days.raw, days.settled!, counted) };
}

// Imported aggregates (IMPORTED_DAILY, IMPORTED_DIM_DAILY): the days the plan reads from them hold
// nothing else, and an import replaces every earlier import's rows of the days it writes, so a day
// (and key) has one row, read like a rollup's (the read modules add a day's rows all the same).

/** Each column summed, under its own name. */
function sumsOf(columns: readonly string[]): Sql {
  return trusted(columns.map((c) => `CAST(sum(${c}) AS BIGINT) AS ${c}`).join(', '));
}

const summedMeasures = sumsOf(MEASURE_COLUMNS);

/** The imported rows of a site and days: its own figures, or one dimension's (and key's). */
function importedRows(d: Dialect, siteId: string, days: Period, dimension?: QueryDimension, key?: string): Sql {
  if (dimension === undefined) return sql`${trusted(IMPORTED_DAILY.name)} WHERE site_id = ${siteId} AND ${dayRange(d, 'day', days)}`;
  const only = key === undefined ? trusted('') : sql` AND key = ${key}`;
  return sql`${trusted(IMPORTED_DIM_DAILY.name)} WHERE site_id = ${siteId} AND dimension = ${dimension} AND ${dayRange(d, 'day', days)}${only}`;
}

/**
 * Per day (or part, as `fewRowsSelect`) and goal, the goal measures from imported aggregates: an
 * event goal's from the custom events of its name (conversions its occurrences), a page goal's from
 * the pages matching it (conversions their pageviews); unique conversions are the rows' visitors,
 * summed per day. A goal requiring property values has none there (imported aggregates hold no
 * property); null when no goal has any.
 */
function importedGoals(d: Dialect, siteId: string, days: Period, goals: readonly GoalRef[], parts: DayParts | null): Sql | null {
  const [conversions, unique, ...revenue] = GOAL_COLUMNS;
  // Exports carry no revenue.
  const noRevenue = trusted(revenue.map((c) => `CAST(0 AS BIGINT) AS ${c}`).join(', '));
  const counted = goals.filter((goal) => !goal.props);
  if (counted.length === 0) return null;
  const selects = counted.map((goal) => {
    const id = integerLiteral(goal.goalId);
    const rows =
      goal.kind === 'event'
        ? sql`SELECT day, events AS c, visitors AS u FROM ${importedRows(d, siteId, days, 'event', goal.pattern)}`
        : sql`SELECT day, pageviews AS c, visitors AS u FROM ${importedRows(d, siteId, days, 'page')} AND ${withParams(d.regexMatches('key'), pagePatternRegex(goal.pattern))}`;
    const sums = sql`CAST(sum(c) AS BIGINT) AS ${trusted(conversions!)}, CAST(sum(u) AS BIGINT) AS ${trusted(unique!)}, ${noRevenue}`;
    if (parts !== null) {
      const { part, within } = partsOfDay(d, parts);
      return sql`SELECT ${part} AS b, ${id} AS goal_id, ${sums} FROM (${rows}) g WHERE ${within} GROUP BY b`;
    }
    return sql`SELECT ${trusted(d.dayText('day'))} AS b, ${id} AS goal_id, ${sums} FROM (${rows}) g GROUP BY day`;
  });
  return joinSql(selects, ' UNION ALL ');
}

/**
 * Columns f and l: the first and last day (text) of a site's imported aggregates, as at most one
 * row (none without any: engines differ on what min() and max() give over no rows).
 */
export function importedDaysStatement(d: Dialect, siteId: string): Sql {
  return sql`SELECT ${trusted(d.dayText('f'))} AS f, ${trusted(d.dayText('l'))} AS l
    FROM (SELECT min(day) AS f, max(day) AS l, count(*) AS n FROM ${trusted(IMPORTED_DAILY.name)} WHERE site_id = ${siteId}) m WHERE n > 0`;
}

/**
 * The raw events of one day up to a cut (the last day of an elapsed compared part): its traffic
 * measures (columns b, the measures) and, with goals, its goal measures (columns b, goal_id, the measures).
 */
export function cutDayStatements(d: Dialect, q: Query, cut: DayCut, goals: readonly GoalRef[]): { measures: Sql; goals: Sql | null } {
  const days = { from: cut.day, to: cut.day };
  const scope = { siteId: q.siteId, days, instants: { from: startOfLocalDay(cut.day, q.tz), to: cut.until }, filters: q.filters, exit: needsExit(q.filters) };
  return {
    measures: dayRows(d, measureEvents(d, scope, { bucket: DAY_BUCKET, sessions: true }), MEASURE_COLUMNS),
    goals: goals.length === 0 ? null : dayRows(d, measureGoals(d, DAY_BUCKET, q.siteId, days, goals, cut.until), ['goal_id', ...GOAL_COLUMNS]),
  };
}

/** Per hour of `starts` (the last ending at `end`), the traffic measures from raw events. Columns: b (hour index, null outside), the measures. */
export function hourlyMeasures(d: Dialect, q: Query, period: Period, starts: readonly number[], end: number): Sql {
  const scope = {
    siteId: q.siteId,
    days: { from: addDays(period.from, -1), to: period.to },
    instants: { from: starts[0] ?? end, to: end },
    filters: q.filters,
    exit: needsExit(q.filters),
  };
  return measureEvents(d, scope, { bucket: hourBucket(starts, end), sessions: true });
}

/** A breakdown's statements: its page of keys, and the count of all its keys. */
export interface BreakdownStatements {
  /** Columns k, visitors, views, and `total_keys` when `countedOnPage`; run with `queryPage`. */
  page: Sql;
  /** Column n: the number of keys, where neither the page nor the engine tells it. */
  keyCount: Sql;
  countedOnPage: boolean;
  /** Whether the page's totals row holds the period's visitors (else they are read apart). */
  visitorsInTotals: boolean;
}

/** Views of one raw event in a breakdown of `dimension`: every event for events, else its pageview. */
function viewsOfEvent(dimension: QueryDimension): Sql {
  return trusted(viewsColumn(dimension) === 'events' ? 'CAST(1 AS BIGINT)' : `CAST(CASE WHEN ${IS_PAGEVIEW} THEN 1 ELSE 0 END AS BIGINT)`);
}

/**
 * A breakdown's raw days read with their settlement, for a process that holds their keys
 * (./held-sums.ts): per day, key and visitor, the views of the events before the cut (held) and
 * since (asked at each read), with the settlement's check. Null where no settlement is read, or the
 * keys are not values of each event (the exit page, a property's).
 */
export function heldBreakdownPart(d: Dialect, q: PlannedQuery): { part: HeldPart; check: Sql } | null {
  const { dimension } = q.breakdown!;
  const { raw: days, settled: s } = q.plan.period;
  if (!days || !s || q.filters.length > 0 || dimension === 'exit' || isPropertyDimension(dimension)) return null;
  const perVisitor = (instants: Instants) =>
    sql`SELECT ${trusted(d.dayText('day'))} AS b, ${keyExpr(dimension)} AS k, visitor_id, sum(${viewsOfEvent(dimension)}) AS views
      FROM events WHERE site_id = ${q.siteId} AND ${dayRange(d, 'day', days)}${instantBounds(instants)} GROUP BY day, k, visitor_id`;
  return {
    part: {
      site: q.siteId,
      cut: s.cut,
      key: JSON.stringify(['breakdown', dimension, q.siteId, s.cut, s.events, s.rows, days.from, days.to]),
      form: KEYS_BY_VISITOR,
      settled: perVisitor({ until: s.cut }),
      recent: perVisitor({ since: s.cut }),
    },
    check: settlementCheckStatement(d, q.siteId, s),
  };
}

/** A breakdown's raw days as the process counted them: per key, its visitors and views there, given to the page's statement as lists. */
export interface GivenKeys {
  readonly keys: readonly string[];
  readonly visitors: readonly bigint[];
  readonly views: readonly bigint[];
}

/**
 * The most rows of a day and key a process holds of a breakdown's raw days (./read/days.ts,
 * heldRows). Given to the page's statement, each key costs the engine about a microsecond of CPU
 * time (DuckDB: 7 000 keys 7 ms, against 9 ms to group a day of 30 000 events per key and visitor),
 * and the process about as much: past a few thousand keys, the day's events grouped are as cheap.
 */
const HELD_KEYS_MOST = 2_000;

/**
 * The most characters of keys (each counted with 32 more: its numbers and separators) that a page's
 * statement is given: ClickHouse parses the lists as the statement's text. Past them, the page
 * reads the raw events.
 */
const GIVEN_KEYS_MAX_CHARS = 200_000;

/** Whether distinct keys fit in what a page's statement is given (GIVEN_KEYS_MAX_CHARS). */
function fitsGiven(keys: Iterable<string>): boolean {
  let chars = 0;
  for (const k of keys) if ((chars += k.length + 32) > GIVEN_KEYS_MAX_CHARS) return false;
  return true;
}

/**
 * Whether a process holds a breakdown's rows before the cut (one per day, key and visitor: b, k,
 * visitor_id, views): at most HELD_KEYS_MOST days and keys, whose keys a statement is given.
 */
export function keysWorthHolding(rows: ReadonlyArray<Record<string, unknown>>): boolean {
  const groups = new Set<string>();
  const keys = new Set<string>();
  for (const r of rows) {
    const k = String(r.k);
    if (groups.add(`${String(r.b)}\u0000${k}`).size > HELD_KEYS_MOST) return false;
    keys.add(k);
  }
  return fitsGiven(keys);
}

/** The keys of rows of one day and key each (b, k, visitors, views), summed per key; null past what a statement is given (keys since the cut among them). */
export function givenKeys(rows: ReadonlyArray<Record<string, unknown>>): GivenKeys | null {
  const sums = new Map<string, { visitors: number; views: number }>();
  for (const r of rows) {
    const k = String(r.k);
    const sum = sums.get(k);
    if (sum) [sum.visitors, sum.views] = [sum.visitors + Number(r.visitors), sum.views + Number(r.views)];
    else sums.set(k, { visitors: Number(r.visitors), views: Number(r.views) });
  }
  if (!fitsGiven(sums.keys())) return null;
  const keys = [...sums.keys()];
  return { keys, visitors: keys.map((k) => BigInt(sums.get(k)!.visitors)), views: keys.map((k) => BigInt(sums.get(k)!.views)) };
}

/**
 * The statements of a planned breakdown; null when none of its days is computable. A read that
 * holds sums (`held`) reads the period's visitors apart from them, and gives the page its raw days'
 * keys where it counted them (else the page reads raw events).
 */
export function breakdownStatements(d: Dialect, q: PlannedQuery, held: { readonly given: GivenKeys | null } | null = null): BreakdownStatements | null {
  const given = held?.given;
  const bd = q.breakdown;
  if (!bd) throw new Error('breakdownStatements needs a breakdown query');
  // Each source's rows (k, visitors, views), apart its keys alone (where the key count takes a
  // statement of its own, it reads keys without counting visitors again), and, for session rows and
  // raw events, its visits: one row per session row or event (k, vd the day, vv the visitor hash, v views).
  const parts: Array<{ rows: Sql; keys: Sql; visits?: Sql }> = [];
  const views = trusted(viewsColumn(bd.dimension));
  const split = q.plan.breakdownMonths;
  if (split) {
    const [filter] = q.filters; // on the rollup path, a filter is on the broken-down dimension
    const only = filter ? sql` AND key = ${filter.value}` : trusted('');
    const rolledUp = (table: string, column: string, days: Period) => {
      const rows = (where: Sql) => {
        const from = sql`FROM ${trusted(table)} WHERE site_id = ${q.siteId} AND ${dayRange(d, column, days)} AND ${where}`;
        return { rows: sql`SELECT key AS k, visitors, ${views} AS views ${from}`, keys: sql`SELECT key AS k ${from}` };
      };
      if (!isPropertyDimension(bd.dimension) || filter) {
        parts.push(rows(sql`dimension = ${bd.dimension}${only}`));
        return;
      }
      // The property's rows of each day (or month), its `(none)` among them (absent when every event
      // carries it); on a day without rows of it, the day's `prop.` row as its `(none)` (every event a
      // property breakdown counts). One pass over the table. Rows without visitors are none: zero
      // `(none)` rows that rollups of an earlier layout hold mean the same as no row.
      const own = sql`dimension = ${bd.dimension}`;
      const read = sql`(SELECT ${trusted(column)} AS r_unit, CASE WHEN ${own} THEN key ELSE ${NONE_KEY} END AS k, visitors, ${views} AS views,
          CASE WHEN ${own} THEN 1 ELSE 0 END AS r_own
        FROM ${trusted(table)} WHERE site_id = ${q.siteId} AND ${dayRange(d, column, days)} AND dimension IN (${bd.dimension}, ${PROPERTY_PREFIX}) AND visitors > 0)`;
      const kept = withParams(d.keptElseGroupRows(read.text, ['k', 'visitors', 'views'], 'r_unit', 'r_own'), ...read.params);
      parts.push({ rows: kept, keys: sql`SELECT k FROM (${kept}) p` });
    };
    for (const days of [split.head, split.tail]) if (days) rolledUp(DIM_DAILY.name, 'day', days);
    if (split.months) rolledUp(DIM_MONTHLY.name, 'month', split.months);
  }
  if (q.plan.period.sessions) {
    const key = sessionRowKey(bd.dimension);
    const relation = sessionRowsRelation(d, q.siteId, q.plan.period.sessions, q.filters);
    parts.push({
      rows: sql`SELECT k, visitors, ${views} AS views FROM (${measureSessionRowsByKey(d, q.siteId, q.plan.period.sessions, q.filters, key)}) r`,
      keys: sql`SELECT ${key} AS k FROM ${relation}`,
      visits: sql`SELECT ${key} AS k, day AS vd, visitor_id AS vv, ${views} AS v FROM ${relation}`,
    });
  }
  const imported = q.plan.importedMonths;
  if (imported) {
    const only = q.filters[0] ? sql` AND key = ${q.filters[0].value}` : trusted('');
    const part = (from: Sql) => ({ rows: sql`SELECT key AS k, visitors, ${views} AS views FROM ${from}`, keys: sql`SELECT key AS k FROM ${from}` });
    for (const days of [imported.head, imported.tail]) if (days) parts.push(part(importedRows(d, q.siteId, days, bd.dimension, q.filters[0]?.value)));
    if (imported.months) {
      parts.push(part(sql`${trusted(IMPORTED_DIM_MONTHLY.name)} WHERE site_id = ${q.siteId} AND dimension = ${bd.dimension} AND ${dayRange(d, 'month', imported.months)}${only}`));
    }
  }
  if (given) {
    // Rows of no key are none: a page with no key but those of other days.
    if (given.keys.length > 0) {
      const rows = withParams(
        d.listRows([{ name: 'k', type: 'VARCHAR' }, { name: 'visitors', type: 'BIGINT' }, { name: 'views', type: 'BIGINT' }]),
        new SqlList(given.keys),
        new SqlList(given.visitors),
        new SqlList(given.views),
      );
      parts.push({ rows: sql`SELECT k, visitors, views FROM ${rows} g`, keys: sql`SELECT k FROM ${rows} g` });
    }
  } else if (q.plan.period.raw) {
    const property = isPropertyDimension(bd.dimension) ? bd.dimension : undefined;
    const scope = { siteId: q.siteId, days: q.plan.period.raw, filters: q.filters, exit: needsExit(q.filters, bd.dimension), property };
    // Beside session rows, the raw days' keys are typed as theirs (rollups, on the other path, hold
    // plain text); session rows never meet a property breakdown (event-scoped).
    const key = property ? scopedPropertyKey(d) : q.plan.period.sessions ? repeatedKeyExpr(d, bd.dimension as Dimension) : keyExpr(bd.dimension as Dimension);
    const measures = measureEvents(d, scope, { bucket: DAY_BUCKET, key, sessions: false });
    const relation = eventsRelation(d, scope);
    parts.push({
      rows: sql`SELECT k, visitors, ${views} AS views FROM (${measures}) r`,
      keys: sql`SELECT ${key} AS k FROM ${relation}`,
      visits: sql`SELECT ${key} AS k, day AS vd, visitor_id AS vv, ${viewsOfEvent(bd.dimension)} AS v FROM ${relation}`,
    });
  }
  if (parts.length === 0) return null;
  const conditions: Sql[] = [];
  if (bd.dimension === 'event') conditions.push(trusted(`k <> 'engage'`));
  if (bd.search !== null) conditions.push(withParams(d.containsInsensitive('k'), bd.search));
  const chosen = (clause: string) => (conditions.length > 0 ? sql` ${trusted(clause)} ${joinSql(conditions, ' AND ')}` : trusted(''));
  const order = sql`ORDER BY visitors DESC, views DESC, k ASC LIMIT ${bd.limit} OFFSET ${bd.offset}`;
  const union = (of: 'rows' | 'keys') => sql`(${joinSql(parts.map((p) => p[of]), ' UNION ALL ')}) u${chosen('WHERE')}`;
  const keyCount = sql`SELECT ${trusted(d.countDistinct('k'))} AS n FROM ${union('keys')}`;
  // Where the engine adds a totals row, and every source has its visits (the raw path), one GROUP BY
  // over the visits counts the page, every key (the rows before LIMIT) and, in the totals, the
  // period's visitors (its distinct day and visitor pairs, HAVING aside): one pass over the session
  // rows where three would read them.
  const totals = d.groupTotals();
  const visits = parts.flatMap((p) => (p.visits ? [p.visits] : []));
  // A property's visits are those of the events carrying it: the period's visitors are read apart.
  if (totals !== null && visits.length === parts.length && !isPropertyDimension(bd.dimension) && !held) {
    const page = sql`SELECT k, ${trusted(d.countVisitorDays('vd', 'vv'))} AS visitors, sum(v) AS views FROM (${joinSql(visits, ' UNION ALL ')}) u
      GROUP BY k ${trusted(totals)}${chosen('HAVING')} ${order}`;
    return { page, keyCount, countedOnPage: false, visitorsInTotals: true };
  }
  // Where the engine has window functions, the key count rides along with the page (taken before
  // LIMIT cuts the keys): one pass instead of two.
  const countAll = d.countOverAll();
  return {
    page: sql`SELECT k, visitors, views${trusted(countAll ? `, ${countAll} AS total_keys` : '')}
      FROM (SELECT k, sum(visitors) AS visitors, sum(views) AS views FROM ${union('rows')} GROUP BY k) g ${order}`,
    keyCount,
    countedOnPage: countAll !== null,
    visitorsInTotals: false,
  };
}

/**
 * Columns k (a custom property key) and n (the events carrying it): the keys a site's events carry
 * on the rolled-up and raw days of a plan, most events first, at most `limit`; null when no day is read.
 */
export function propertyKeysStatement(d: Dialect, siteId: string, days: DaySources, limit: number): Sql | null {
  const key = (column: string) => trusted(`substring(${column}, ${PROPERTY_PREFIX.length + 1}, 1000)`);
  const parts: Sql[] = [];
  if (days.rollup) {
    parts.push(sql`SELECT ${key('dimension')} AS k, events AS c FROM ${trusted(DIM_DAILY.name)}
      WHERE site_id = ${siteId} AND ${dayRange(d, 'day', days.rollup)} AND dimension LIKE ${`${PROPERTY_PREFIX}%`} AND key <> ${NONE_KEY}`);
  }
  if (days.raw) parts.push(sql`SELECT ${key('dim')} AS k, events AS c FROM (${measurePropertyPairs(d, siteId, days.raw)}) p`);
  if (parts.length === 0) return null;
  // An alias never takes the name of a column the query reads (ClickHouse resolves it to the alias).
  return sql`SELECT k, sum(c) AS n FROM (${joinSql(parts, ' UNION ALL ')}) u GROUP BY k ORDER BY n DESC, k ASC LIMIT ${limit}`;
}

/** A funnel version's statements over some days: rollup rows (step, visitors) and raw events for the walk. */
export function funnelStatements(
  d: Dialect,
  siteId: string,
  days: DaySources,
  funnel: { id: number; version: number; steps: readonly Matcher[] },
): { rollup: Sql | null; raw: Sql | null } {
  return {
    rollup: days.rollup
      ? sql`SELECT step, sum(visitors) AS visitors FROM ${trusted(FUNNEL_DAILY.name)} WHERE site_id = ${siteId} AND funnel_id = ${integerLiteral(funnel.id)}
          AND version = ${integerLiteral(funnel.version)} AND ${dayRange(d, 'day', days.rollup)} GROUP BY step`
      : null,
    raw: days.raw ? funnelEvents(d, siteId, days.raw, funnel.steps) : null,
  };
}

/** Raw events of a site between two instants [from, to), over the local days from the day before `from` to today. */
function recentEvents(d: Dialect, siteId: string, tz: string, now: number, instants: { from: number; to: number }): Sql {
  return eventsRelation(d, { siteId, days: { from: addDays(localDay(instants.from, tz), -1), to: localDay(now, tz) }, instants, filters: [], exit: false });
}

/** The realtime panel's sizes: minutes of the per-minute series, what counts as current, list lengths. */
export interface RealtimePanel {
  readonly currentMs: number;
  readonly minutes: number;
  readonly topSize: number;
  readonly feedSize: number;
}

/** The realtime panel's statements over the minutes from `from` (a minute's start), bounded by site and time. */
export function realtimeStatements(d: Dialect, siteId: string, tz: string, now: number, from: number, panel: RealtimePanel) {
  const relation = recentEvents(d, siteId, tz, now, { from, to: from + panel.minutes * 60_000 });
  const visitors = trusted(TRAFFIC_MEASURES.visitors.aggregate(d));
  const top = (key: Sql) =>
    sql`SELECT ${key} AS k, ${visitors} AS visitors, ${trusted(TRAFFIC_MEASURES.pageviews.aggregate(d))} AS views
        FROM ${relation} GROUP BY k ORDER BY visitors DESC, views DESC, k ASC LIMIT ${panel.topSize}`;
  return {
    /** Column n: visitors of the last `currentMs`. */
    current: sql`SELECT ${visitors} AS n FROM ${relation} WHERE ts >= ${now - panel.currentMs} AND ts <= ${now}`,
    /** Columns m (minute index), n (pageviews). */
    perMinute: sql`SELECT floor((ts - ${from}) / 60000) AS m, count(*) AS n FROM ${relation} WHERE ${trusted(IS_PAGEVIEW)} GROUP BY m`,
    /** Columns k, visitors, views. */
    topPages: top(keyExpr('page')),
    topReferrers: top(keyExpr('referrer')),
    topCountries: top(keyExpr('country')),
    // Events of one millisecond are ordered by their fields, so every engine answers the same feed.
    feed: sql`SELECT ts, name, page, referrer, country, city, browser, os, device FROM ${relation}
        WHERE name <> 'engage' ORDER BY ts DESC, name, page, referrer, country, city, browser, os, device LIMIT ${panel.feedSize}`,
  };
}

/** Column n: unique visitors of a site over the `windowMs` before `now`. */
export function recentVisitorsStatement(d: Dialect, siteId: string, tz: string, now: number, windowMs: number): Sql {
  return sql`SELECT ${trusted(d.countDistinct('visitor_id'))} AS n FROM ${recentEvents(d, siteId, tz, now, { from: now - windowMs, to: now + 1 })}`;
}

/**
 * Column one: one row when the site holds an event on a day of `days`, none otherwise. The first
 * row found, bounded by site and day (the events' sort key), never a count over them.
 */
export function anyEventStatement(d: Dialect, siteId: string, days: Period): Sql {
  return sql`SELECT 1 AS one FROM events WHERE ${scopeBounds(d, { siteId, days, filters: [], exit: false })} LIMIT 1`;
}

/**
 * The export's site rows (Plausible's `visitors` table): per day of `days` that rollups hold (up to
 * `watermark`) or imported aggregates hold, the traffic measures. Columns: b (day text), the measures; ordered by day.
 */
export function exportSiteStatement(d: Dialect, siteId: string, days: Period, watermark: string | null): Sql {
  const parts = [sql`SELECT day, ${trusted(MEASURE_COLUMNS.join(', '))} FROM ${importedRows(d, siteId, days)}`];
  const rolled = watermark === null ? null : clipPeriod(days, watermark);
  if (rolled) parts.push(sql`SELECT day, ${trusted(MEASURE_COLUMNS.join(', '))} FROM ${trusted(SITE_DAILY.name)} WHERE site_id = ${siteId} AND ${dayRange(d, 'day', rolled)}`);
  return dayRows(d, sql`SELECT day AS b, ${summedMeasures} FROM (${joinSql(parts, ' UNION ALL ')}) u GROUP BY day ORDER BY day`, MEASURE_COLUMNS);
}

/** The export's rows of one dimension, like `exportSiteStatement`. Columns: b, k, the measures; ordered by day and key. */
export function exportDimensionStatement(d: Dialect, siteId: string, days: Period, watermark: string | null, dimension: Dimension): Sql {
  const parts = [sql`SELECT day, key, ${trusted(MEASURE_COLUMNS.join(', '))} FROM ${importedRows(d, siteId, days, dimension)}`];
  const rolled = watermark === null ? null : clipPeriod(days, watermark);
  if (rolled) {
    parts.push(sql`SELECT day, key, ${trusted(MEASURE_COLUMNS.join(', '))} FROM ${trusted(DIM_DAILY.name)} WHERE site_id = ${siteId} AND dimension = ${dimension} AND ${dayRange(d, 'day', rolled)}`);
  }
  const grouped = sql`SELECT day AS b, key AS k, ${summedMeasures} FROM (${joinSql(parts, ' UNION ALL ')}) u GROUP BY day, key ORDER BY day, key`;
  return sql`SELECT ${trusted(d.dayText('b'))} AS b, k, ${trusted(MEASURE_COLUMNS.join(', '))} FROM (${grouped}) r ORDER BY b, k`;
}

function clipPeriod(days: Period, last: string): Period | null {
  const to = days.to < last ? days.to : last;
  return days.from <= to ? { from: days.from, to } : null;
}

/** Columns f and l: the first and last day a site's rollups or imported aggregates hold, as at most one row. */
export function exportDaysStatement(d: Dialect, siteId: string): Sql {
  const days = sql`SELECT day FROM ${trusted(IMPORTED_DAILY.name)} WHERE site_id = ${siteId} UNION ALL SELECT day FROM ${trusted(SITE_DAILY.name)} WHERE site_id = ${siteId}`;
  return sql`SELECT ${trusted(d.dayText('f'))} AS f, ${trusted(d.dayText('l'))} AS l
    FROM (SELECT min(day) AS f, max(day) AS l, count(*) AS n FROM (${days}) u) m WHERE n > 0`;
}
