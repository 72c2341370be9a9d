// Visits under event filters (docs/api.md's rules, for `raw=clip` reads; the planner's
// `countsVisits`): a session counts where it holds an event matching every filter (the session-scoped
// ones hold for all its events), in the bucket it starts in, once per key of its matching events; its
// bounce and duration are its own over all its events. Under a page or hostname filter (or broken down
// by either), only the sessions that landed on a matching page (their first pageview matches, with the
// row's key) count toward the bounce rate. The matching engage events give the pages' engaged time.
import { type Dimension, type Filter, scopeOf } from '../../core/vocabulary.js';
import type { Dialect } from '../../sql/dialect.js';
import { joinSql, sql, type Sql, trusted, withParams } from '../../sql/sql.js';
import type { VisitMeasureName } from '../../core/metric-registry.js';
import { IS_ENGAGE, IS_PAGEVIEW, measureAggregates, PART_FACT_PREFIX, SESSION_FACTS, sessionBounced, sessionDuration, TRAFFIC_MEASURES, type TrafficMeasure, VISIT_MEASURE_COLUMNS } from '../measures.js';
import type { PlannedQuery } from '../planner.js';
import { type EventScope, eventsRelation, sessionScope } from './events.js';
import { filterPredicate, keyExpr } from './filters.js';

/** What decides a visit's landing: the filters its first pageview must match, and the broken-down dimension its key must be the row's. */
export interface VisitRules {
  readonly landing: readonly Filter[];
  readonly landingKey: Dimension | null;
}

/** The dimensions a landing is told by: a page's bounce rate is its landings'. */
const LANDING_DIMENSIONS: ReadonlySet<string> = new Set<Dimension>(['page', 'hostname']);

/** A planned query's visit rules where it counts visits under event filters; else null. */
export function visitRules(q: PlannedQuery): VisitRules | null {
  if (!q.plan.visits) return null;
  const dimension = q.breakdown?.dimension;
  return {
    landing: q.filters.filter((f) => LANDING_DIMENSIONS.has(f.dimension)),
    landingKey: dimension !== undefined && LANDING_DIMENSIONS.has(dimension) ? (dimension as Dimension) : null,
  };
}

/** The columns of a visit row beyond the traffic measures', in order. */
export const VISIT_COLUMNS: readonly string[] = Object.values(VISIT_MEASURE_COLUMNS);

const big = (expr: string) => `CAST(${expr} AS BIGINT)`;
const ZERO = big('0');
/** Each part's value of every column (traffic measures in registry order, then VISIT_COLUMNS), as `value AS column`. */
type PartValues = Record<TrafficMeasure | VisitMeasureName, string>;
const selectOf = (values: PartValues) =>
  trusted(
    [...(Object.keys(TRAFFIC_MEASURES) as TrafficMeasure[]).map((name) => `${values[name]} AS ${TRAFFIC_MEASURES[name].column}`), ...(Object.keys(VISIT_MEASURE_COLUMNS) as VisitMeasureName[]).map((name) => `${values[name]} AS ${VISIT_MEASURE_COLUMNS[name]}`)].join(', '),
  );
const COLUMNS = [...Object.values(TRAFFIC_MEASURES).map((m) => m.column), ...VISIT_COLUMNS];

/**
 * Per bucket (and key), the traffic measures and the visit measures of visits under event filters.
 * Columns: b, [k,] the traffic measures in registry order, then VISIT_COLUMNS. The events' part and
 * the sessions' part are unioned and summed, so that a bucket holding session starts and no matching
 * event (or the reverse) keeps both.
 */
export function measureVisits(d: Dialect, scope: EventScope, bucket: Sql, key: Sql | undefined, rules: VisitRules): Sql {
  const keyOut = trusted(key ? ', k' : '');
  const { engagedMs, engagedViews } = VISIT_MEASURE_COLUMNS;
  // The matching events' measures, and the engaged time the matching engage events report.
  const events = sql`SELECT ${bucket} AS b${key ? sql`, ${key} AS k` : trusted('')}, ${trusted(measureAggregates(d, TRAFFIC_MEASURES, 'events'))},
    ${trusted(`sum(CASE WHEN ${IS_ENGAGE} THEN coalesce(engaged_ms, 0) ELSE 0 END) AS ${engagedMs}, ${d.countIf(IS_ENGAGE)} AS ${engagedViews}`)}
    FROM ${eventsRelation(d, scope)} GROUP BY b${keyOut}`;
  const { visitors, pageviews, events: all } = TRAFFIC_MEASURES;
  const fromEvents = selectOf({
    visitors: big(visitors.column),
    pageviews: big(pageviews.column),
    events: big(all.column),
    sessions: ZERO,
    bounces: ZERO,
    durationMs: ZERO,
    landings: ZERO,
    engagedMs: big(engagedMs),
    engagedViews: big(engagedViews),
  });
  return sql`SELECT b${keyOut}, ${trusted(COLUMNS.map((c) => `${big(`sum(${c})`)} AS ${c}`).join(', '))}
    FROM (SELECT b${keyOut}, ${fromEvents} FROM (${events}) e UNION ALL ${visitSessions(d, scope, bucket, key, rules)}) u GROUP BY b${keyOut}`;
}

/**
 * The sessions' part of `measureVisits`: per start bucket (and key of the session's matching
 * events), the sessions, their bounces among the landings, their durations and the landings.
 */
function visitSessions(d: Dialect, scope: EventScope, bucket: Sql, key: Sql | undefined, rules: VisitRules): Sql {
  const whole = sessionScope(scope);
  // Facts over every event of the session: its session-scoped values are on each, and the
  // event-scoped filters pick sessions, not the events their facts are of.
  const sessionFilters = scope.filters.filter((f) => scopeOf(f.dimension) === 'session');
  const landed = rules.landing.length === 0 ? trusted('1') : firstPageview(d, sql`CASE WHEN ${joinSql(rules.landing.map((f) => filterPredicate(d, f)), ' AND ')} THEN 1 ELSE 0 END`, '0');
  const landingKey = rules.landingKey ? sql`, ${firstPageview(d, keyExpr(rules.landingKey), null)} AS lk` : trusted('');
  const facts = sql`SELECT session_id, ${trusted(SESSION_FACTS.map((f) => `${f.aggregate(d)} AS ${f.column}`).join(', '))}, ${landed} AS landed${landingKey}
    FROM ${eventsRelation(d, { ...whole, filters: sessionFilters, property: undefined })} GROUP BY session_id`;
  // Each session's start bucket from its first event's own row: a column typed as the events' part's bucket.
  const starts = sql`SELECT session_id AS ss, ${bucket} AS sb FROM ${eventsRelation(d, { ...scope, filters: sessionFilters, property: undefined })} WHERE session_start`;
  // The facts prefixed: ClickHouse would read the measures' aliases below (`pageviews`) inside the aggregates.
  const started = sql`SELECT sb, session_id AS fs, ${trusted(SESSION_FACTS.map((f) => `${f.column} AS ${PART_FACT_PREFIX}${f.column}`).join(', '))}, landed${trusted(rules.landingKey ? ', lk' : '')}
    FROM (${starts}) st JOIN (${facts}) f ON st.ss = f.session_id`;
  const pairs = sql`SELECT session_id AS ps${key ? sql`, ${key} AS pk` : trusted('')} FROM ${eventsRelation(d, whole)} GROUP BY ps${trusted(key ? ', pk' : '')}`;
  const landing = `landed = 1${rules.landingKey ? ' AND lk = pk' : ''}`;
  // A session counts once per key of its matching events (one row of `pairs` each).
  const values = selectOf({
    visitors: ZERO,
    pageviews: ZERO,
    events: ZERO,
    sessions: big('count(*)'),
    bounces: big(`sum(CASE WHEN ${landing} AND ${sessionBounced(PART_FACT_PREFIX)} THEN 1 ELSE 0 END)`),
    durationMs: big(`sum(${sessionDuration(PART_FACT_PREFIX)})`),
    landings: big(`sum(CASE WHEN ${landing} THEN 1 ELSE 0 END)`),
    engagedMs: ZERO,
    engagedViews: ZERO,
  });
  return sql`SELECT sb AS b${trusted(key ? ', pk AS k' : '')}, ${values} FROM (${pairs}) p JOIN (${started}) s ON p.ps = s.fs GROUP BY b${trusted(key ? ', k' : '')}`;
}

/** An expression's value on a session's first pageview (`otherwise` without one, or NULL). */
function firstPageview(d: Dialect, expr: Sql, otherwise: string | null): Sql {
  const first = withParams(d.argMaxIf(expr.text, '-ts', IS_PAGEVIEW), ...expr.params);
  return otherwise === null ? first : sql`coalesce(${first}, ${trusted(otherwise)})`;
}
