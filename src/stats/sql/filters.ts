// The predicates every statement of src/stats/sql is built from: day and instant bounds, a
// dimension's key on an event row, a filter's predicate, what a goal or funnel step matches (which
// the alerts' rule metrics share, so that an alert counts as the read API does), and literals for ids we issued. They are
// the leaves of the read path's SQL, shared by the raw reads, the rollups and the alerts' rule metrics.
import { type Matcher, pagePatternRegex } from '../../core/patterns.js';
import type { Period } from '../../core/period.js';
import { dimensionColumn, type Dimension, type Filter, GOAL_DIMENSION, type FilterGoal, isPropertyDimension, NONE_KEY, OTHER_PAGE_KEY, PROPERTY_PREFIX, type QueryDimension } from '../../core/vocabulary.js';
import { type Dialect, integerText } from '../../sql/dialect.js';
import { joinSql, sql, type Sql, trusted, withParams } from '../../sql/sql.js';
import { decodeValue, propertyFilterPredicate } from '../properties.js';

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

/** The key of a property on the rows of an `EventScope` with that `property`: its value's text, `(none)` on an event without it. */
export function scopedPropertyKey(d: Dialect): Sql {
  return sql`(CASE WHEN prop_token = '' THEN ${NONE_KEY} ELSE ${decodeValue(d, trusted('prop_token'))} END)`;
}

export function dayRange(d: Dialect, column: string, p: Period): Sql {
  return trusted(`${column} BETWEEN ${d.dateLiteral(p.from)} AND ${d.dateLiteral(p.to)}`);
}

/** Whether an event row matches a filter. */
export function filterPredicate(d: Dialect, f: Filter): Sql {
  if (f.pattern) return pageMatches(d, trusted('page'), f);
  const { dimension } = f;
  if (dimension === GOAL_DIMENSION) {
    if (!f.goals) throw new Error('a goal filter is compiled with its goals resolved');
    return anyOf(f.goals.map((goal) => sql`(${goalPredicate(d, goal)})`));
  }
  if (isPropertyDimension(dimension)) return ofValues(f, (value) => propertyFilterPredicate(d, dimension, f.operator ?? 'is', value));
  return keyMatches(d, f.pageLock ? shownPage(d, keyExpr(dimension), f.pageLock) : keyExpr(dimension), f);
}

/** Whether a page (an expression of one) matches a filter on `page`: a page pattern, or its values under its operator. */
function pageMatches(d: Dialect, page: Sql, f: Filter): Sql {
  return f.pattern ? anyOf(f.values.map((pattern) => pagePatternPredicate(d, pattern, page))) : keyMatches(d, page, f);
}

/**
 * A page-valued key (a page, an entry or exit page) as a shared link's page lock shows it: the page
 * where the lock admits it, OTHER_PAGE_KEY where it does not; `(none)`, no page, stays. The lock's
 * own predicate in the engine (RE2 for a pattern), as its filter matches events.
 */
export function shownPage(d: Dialect, key: Sql, lock: Filter): Sql {
  return sql`(CASE WHEN ${key} = ${NONE_KEY} OR ${pageMatches(d, key, lock)} THEN ${key} ELSE ${OTHER_PAGE_KEY} END)`;
}

/**
 * Whether a key (`(none)` for an absent value, as event rows' `keyExpr` and session rows hold it)
 * matches a filter's operator and values. `contains` looks in present values only: `(none)` names no text.
 */
export function keyMatches(d: Dialect, key: Sql, f: Pick<Filter, 'operator' | 'values'>): Sql {
  const values = joinSql(f.values.map((v) => sql`${v}`), ', ');
  switch (f.operator ?? 'is') {
    case 'is':
      return f.values.length === 1 ? sql`${key} = ${f.values[0]!}` : sql`${key} IN (${values})`;
    case 'is_not':
      return f.values.length === 1 ? sql`${key} <> ${f.values[0]!}` : sql`${key} NOT IN (${values})`;
    case 'contains':
      return sql`(${key} <> ${NONE_KEY} AND ${anyOf(f.values.map((v) => withParams(d.containsInsensitive(key.text), ...key.params, v)))})`;
  }
}

/** A filter's predicate from each of its values': any of them for `is` and `contains`, none of them (each `is_not`) for `is_not`. */
function ofValues(f: Filter, predicate: (value: string) => Sql): Sql {
  const each = f.values.map(predicate);
  return f.operator === 'is_not' ? allOf(each) : anyOf(each);
}

const anyOf = (predicates: Sql[]): Sql => (predicates.length === 1 ? predicates[0]! : sql`(${joinSql(predicates, ' OR ')})`);
const allOf = (predicates: Sql[]): Sql => (predicates.length === 1 ? predicates[0]! : sql`(${joinSql(predicates, ' AND ')})`);

export function needsExit(filters: readonly Filter[], breakdown?: QueryDimension): boolean {
  return breakdown === 'exit' || filters.some((f) => f.dimension === 'exit');
}

/** Whether an event row's page (or another expression of a page) matches a page pattern (RE2 in the engine: linear time, no backtracking). */
export function pagePatternPredicate(d: Dialect, pattern: string, page: Sql = trusted('page')): Sql {
  return withParams(d.regexMatches(page.text), ...page.params, pagePatternRegex(pattern));
}

/** Matching predicate of a goal or funnel step on an event row. */
export function matcherPredicate(d: Dialect, m: Matcher): Sql {
  if (m.kind === 'event') return sql`name = ${m.pattern}`;
  return sql`(name = 'pageview' AND ${pagePatternPredicate(d, m.pattern)})`;
}

/** Matching predicate of a goal on an event row: its matcher, and each property value it requires, as a filter matches it. */
export function goalPredicate(d: Dialect, goal: FilterGoal): Sql {
  const props = Object.entries(goal.props ?? {}).map(([key, value]) => propertyFilterPredicate(d, `${PROPERTY_PREFIX}${key}`, 'is', value));
  return joinSql([matcherPredicate(d, goal), ...props], ' AND ');
}

/** A literal for an id we issued ourselves (goal ids, funnel ids), never client text. */
export function integerLiteral(n: number): Sql {
  return trusted(integerText(n));
}

/** Instants an event lies in: from `since` (included), before `until`; either bound absent reaches the days' end. */
export interface Instants {
  since?: number | undefined;
  until?: number | undefined;
}

export function instantBounds(i: Instants): Sql {
  const bounds = [...(i.since === undefined ? [] : [sql` AND ts >= ${i.since}`]), ...(i.until === undefined ? [] : [sql` AND ts < ${i.until}`])];
  return joinSql(bounds, '');
}
