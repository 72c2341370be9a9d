// Query compilation: the measures of src/stats/measures.ts over raw events and session rows,
// written once against the Dialect. The same builders answer raw-event reads and fill the rollup
// tables, so that both paths of the planner count alike.
//
// Every per-bucket row has the columns `b`, [`k`,] and one per traffic measure, in the registry's
// order; every metric of docs/api.md is a sum of such rows over days, or a ratio of sums. Rollups
// answer the days of a plan up to its watermark, raw events the days after it; each statement's rows
// have the same columns whichever source it reads.
import type { Period } from '../../core/period.js';
import type { Query } from '../../core/query.js';
import type { Filter } from '../../core/vocabulary.js';
import type { Dialect } from '../../sql/dialect.js';
import { joinSql, sql, type Sql, trusted } from '../../sql/sql.js';
import { GOAL_MEASURES, measureAggregates, measureColumns, SESSION_FACTS, sessionRowAggregates, TRAFFIC_MEASURES } from '../measures.js';
import { type EventScope, eventsRelation, sessionRowsRelation, sessionScope, startsInScope } from './events.js';

/**
 * Bucket of daily reads: the DATE `day` itself. Formatting it per row (dayText) costs more than the
 * aggregation; `dayRows` formats once per bucket instead.
 */
export const DAY_BUCKET: Sql = trusted('day');

/** The rows of a daily read (bucket `b` a DATE) with `b` as 'YYYY-MM-DD' text, the other columns kept. */
export function dayRows(d: Dialect, rows: Sql, columns: readonly string[]): Sql {
  return sql`SELECT ${trusted(d.dayText('b'))} AS b, ${trusted(columns.join(', '))} FROM (${rows}) r`;
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
export const SESSION_COLUMNS = measureColumns(TRAFFIC_MEASURES, 'sessions');
/** The measure columns of the events part `a` of a measure row, prefixed. */
const fromEvents = trusted(EVENT_COLUMNS.map((c) => `a.${c}`).join(', '));

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
 * Per day (and key), every traffic measure over session rows; `sessions: false` leaves the
 * per-session ones at 0, as on raw days. Columns: b (a DATE), [k,] then the measures in registry order.
 */
export function measureSessionRows(d: Dialect, siteId: string, days: Period, filters: readonly Filter[], key?: Sql, sessions = true): Sql {
  const keySelect = key ? sql`, ${key} AS k` : trusted('');
  return sql`SELECT ${DAY_BUCKET} AS b${keySelect}, ${trusted(sessionRowAggregates(d, 'day', sessions))}
    FROM ${sessionRowsRelation(d, siteId, days, filters)} GROUP BY b${trusted(key ? ', k' : '')}`;
}

/**
 * Per key, the traffic measures over the session rows of all the days at once; `sessions: false`
 * leaves the per-session ones at 0 (a breakdown reads visitors and views unless asked for more).
 * Columns: k, then the measures in registry order.
 */
export function measureSessionRowsByKey(d: Dialect, siteId: string, days: Period, filters: readonly Filter[], key: Sql, sessions = false): Sql {
  return sql`SELECT ${key} AS k, ${trusted(sessionRowAggregates(d, 'days', sessions))} FROM ${sessionRowsRelation(d, siteId, days, filters)} GROUP BY k`;
}

export const MEASURE_COLUMNS = measureColumns(TRAFFIC_MEASURES);
export const GOAL_COLUMNS = measureColumns(GOAL_MEASURES);

/** Each column of counts summed, under its own name (`prefix` before it); NULL where every row's is (an unknown imported measure). */
export function sumsOf(d: Dialect, columns: readonly string[], prefix = ''): Sql {
  return trusted(columns.map((c) => `${d.sumOfCounts(c)} AS ${prefix}${c}`).join(', '));
}
