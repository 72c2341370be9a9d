// Breakdowns: a planned breakdown's page of keys and key count over every source of its days.
import { isMetric, metricTakesFilters } from '../../core/metric-registry.js';
import type { Period } from '../../core/period.js';
import { type Dimension, isPropertyDimension, NONE_KEY, oneValueFilter, PAGE_VALUED_DIMENSIONS, PROPERTY_PREFIX, type QueryDimension, viewsAreEvents } from '../../core/vocabulary.js';
import type { Dialect } from '../../sql/dialect.js';
import { joinSql, sql, type Sql, trusted, withParams } from '../../sql/sql.js';
import { IS_PAGEVIEW, TRAFFIC_MEASURES } from '../measures.js';
import type { PlannedQuery } from '../planner.js';
import { DIM_DAILY, DIM_MONTHLY, IMPORTED_DIM_MONTHLY, PAIR_MONTHLY } from '../rollups/tables.js';
import { eventsRelation, sessionRowKey, sessionRowsRelation } from './events.js';
import { asRepeated, dayRange, keyExpr, needsExit, scopedPropertyKey, shownPage } from './filters.js';
import { importedKeyRows, importedRows } from './imported.js';
import { DAY_BUCKET, measureEvents, measureSessionRowsByKey } from './measures.js';
import { measureVisits, VISIT_COLUMNS, visitRules } from './visits.js';

/** The column of a measure row that is a breakdown's `views`: occurrences for events and properties, else pageviews. */
export function viewsColumn(dimension: QueryDimension): string {
  return viewsAreEvents(dimension) ? 'events' : 'pageviews';
}

/** The per-session measures a row's bounce rate and visit duration are computed from, by their columns. */
export const ROW_SESSION_COLUMNS = [TRAFFIC_MEASURES.sessions.column, TRAFFIC_MEASURES.bounces.column, TRAFFIC_MEASURES.durationMs.column] as const;

/**
 * Whether a breakdown's rows carry their per-session measures (ROW_SESSION_COLUMNS): asked for
 * (`include=bounceRate` or `avgDuration`), and counted by `stats` under the key's filter added to the
 * request's, which takes session-scoped dimensions only (src/core/metric-registry.ts).
 */
export function rowsCountSessions(q: PlannedQuery): boolean {
  const bd = q.breakdown!;
  return bd.include.some((name) => isMetric(name) && metricTakesFilters(name, [...q.filters, oneValueFilter(bd.dimension, NONE_KEY)], q.rawClip));
}

/** A breakdown's statements: its page of keys, and the count of all its keys. */
export interface BreakdownStatements {
  /** Columns k, visitors, views, the ROW_SESSION_COLUMNS where rowsCountSessions (and VISIT_COLUMNS under visit rules), and `total_keys` when `countedOnPage`; run with `queryPage`. */
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

/** The statements of a planned breakdown; null when none of its days is computable. */
export function breakdownStatements(d: Dialect, q: PlannedQuery): BreakdownStatements | null {
  const bd = q.breakdown;
  if (!bd) throw new Error('breakdownStatements needs a breakdown query');
  // The visits of one GROUP BY carry no sessions: rows that count them read each source's measures.
  const sessions = rowsCountSessions(q);
  // Visits under event filters (./visits.ts) read raw events alone, and add their own measures.
  const rules = sessions ? visitRules(q) : null;
  const rowColumns = sessions ? [...ROW_SESSION_COLUMNS, ...(rules ? VISIT_COLUMNS : [])] : [];
  const sessionColumns = trusted(rowColumns.map((c) => `, ${c}`).join(''));
  // Each source's rows (k, visitors, views), apart its keys alone (where the key count takes a
  // statement of its own, it reads keys without counting visitors again), and, for session rows and
  // raw events, its visits: one row per session row or event (k, vd the day, vv the visitor hash, v views).
  const parts: Array<{ rows: Sql; keys: Sql; visits?: Sql }> = [];
  const views = trusted(viewsColumn(bd.dimension));
  const split = q.plan.breakdownMonths;
  // Under a page lock, entry and exit pages outside it fold into OTHER_PAGE_KEY. The lock is a page
  // filter, which raw events alone answer with entry or exit pages: no other source holds both.
  const lock = q.pageLock && PAGE_VALUED_DIMENSIONS.has(bd.dimension) ? q.pageLock : null;
  if (lock && (split || q.plan.period.sessions || q.plan.importedMonths)) throw new Error('a breakdown of pages under a page lock reads raw events alone');
  if (split) {
    const [filter] = q.filters; // on the rollup path, a filter is on the broken-down dimension
    const only = filter ? sql` AND key = ${filter.values[0]!}` : trusted('');
    const rolledUp = (table: string, column: string, days: Period) => {
      const rows = (where: Sql) => {
        const from = sql`FROM ${trusted(table)} WHERE site_id = ${q.siteId} AND ${dayRange(d, column, days)} AND ${where}`;
        return { rows: sql`SELECT key AS k, visitors, ${views} AS views${sessionColumns} ${from}`, keys: sql`SELECT key AS k ${from}` };
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
  // Whole months that pair months answer: the one filter's key and the broken-down dimension's rows
  // (./windows.ts, pairsAnswer), keys typed as the other sources' beside them; the other days as planned.
  const pairs = q.plan.breakdownPairs;
  const days = pairs?.rest ?? q.plan.period;
  if (pairs) {
    const [filter] = q.filters;
    const from = sql`FROM ${trusted(PAIR_MONTHLY.name)} WHERE site_id = ${q.siteId} AND ${dayRange(d, 'month', pairs.months)}
      AND filter_dimension = ${filter!.dimension} AND filter_key = ${filter!.values[0]!} AND dimension = ${bd.dimension}`;
    const key = asRepeated(d, trusted('key'));
    parts.push({ rows: sql`SELECT ${key} AS k, visitors, ${views} AS views${sessionColumns} ${from}`, keys: sql`SELECT ${key} AS k ${from}` });
  }
  if (days.sessions) {
    const key = sessionRowKey(bd.dimension);
    const relation = sessionRowsRelation(d, q.siteId, days.sessions, q.filters);
    parts.push({
      rows: sql`SELECT k, visitors, ${views} AS views${sessionColumns} FROM (${measureSessionRowsByKey(d, q.siteId, days.sessions, q.filters, key, sessions)}) r`,
      keys: sql`SELECT ${key} AS k FROM ${relation}`,
      visits: sql`SELECT ${key} AS k, day AS vd, visitor_id AS vv, ${views} AS v FROM ${relation}`,
    });
  }
  const imported = q.plan.importedMonths;
  if (imported) {
    const only = q.filters[0] ? sql` AND key = ${q.filters[0].values[0]!}` : trusted('');
    const part = (from: Sql, unit: 'day' | 'month') => ({
      rows: sql`SELECT key AS k, visitors, ${views} AS views${sessionColumns} FROM ${importedKeyRows(from, unit)}`,
      keys: sql`SELECT key AS k FROM ${from}`,
    });
    for (const days of [imported.head, imported.tail]) if (days) parts.push(part(importedRows(d, q.siteId, days, bd.dimension, q.filters[0]?.values[0]), 'day'));
    if (imported.months) {
      parts.push(part(sql`${trusted(IMPORTED_DIM_MONTHLY.name)} WHERE site_id = ${q.siteId} AND dimension = ${bd.dimension} AND ${dayRange(d, 'month', imported.months)}${only}`, 'month'));
    }
  }
  if (days.raw) {
    const property = isPropertyDimension(bd.dimension) ? bd.dimension : undefined;
    const scope = { siteId: q.siteId, days: days.raw, filters: q.filters, exit: needsExit(q.filters, bd.dimension), property };
    // Beside session rows, the raw days' keys are typed as theirs (rollups, on the other path, hold
    // plain text); session rows never meet a property breakdown (event-scoped).
    const plain = () => (lock ? shownPage(d, keyExpr(bd.dimension as Dimension), lock) : keyExpr(bd.dimension as Dimension));
    const key = property ? scopedPropertyKey(d) : days.sessions || pairs ? asRepeated(d, plain()) : plain();
    const measures = rules ? measureVisits(d, scope, DAY_BUCKET, key, rules) : measureEvents(d, scope, { bucket: DAY_BUCKET, key, sessions });
    const relation = eventsRelation(d, scope);
    parts.push({
      rows: sql`SELECT k, visitors, ${views} AS views${sessionColumns} FROM (${measures}) r`,
      keys: sql`SELECT ${key} AS k FROM ${relation}`,
      visits: sql`SELECT ${key} AS k, day AS vd, visitor_id AS vv, ${viewsOfEvent(bd.dimension)} AS v FROM ${relation}`,
    });
  }
  if (parts.length === 0) return null;
  const conditions: Sql[] = [];
  if (bd.dimension === 'event') conditions.push(trusted(`k <> 'engage'`));
  if (bd.search !== null) conditions.push(withParams(d.containsInsensitive('k'), bd.search));
  const chosen = (clause: string) => (conditions.length > 0 ? sql` ${trusted(clause)} ${joinSql(conditions, ' AND ')}` : trusted(''));
  // Views unknown on every day read (imported days of a table without them) are NULL: after any count.
  const order = sql`ORDER BY visitors DESC, views DESC NULLS LAST, k ASC LIMIT ${bd.limit} OFFSET ${bd.offset}`;
  const union = (of: 'rows' | 'keys') => sql`(${joinSql(parts.map((p) => p[of]), ' UNION ALL ')}) u${chosen('WHERE')}`;
  const keyCount = sql`SELECT ${trusted(d.countDistinct('k'))} AS n FROM ${union('keys')}`;
  // Where the engine adds a totals row, and every source has its visits (the raw path), one GROUP BY
  // over the visits counts the page, every key (the rows before LIMIT) and, in the totals, the
  // period's visitors (its distinct day and visitor pairs, HAVING aside): one pass over the session
  // rows where three would read them.
  const totals = d.groupTotals();
  const visits = parts.flatMap((p) => (p.visits ? [p.visits] : []));
  // Where the engine has window functions, the key count rides along with the page (taken before
  // LIMIT cuts the keys): one pass instead of two.
  const countAll = d.countOverAll();
  if (visits.length === parts.length && !sessions) {
    const allVisits = sql`(${joinSql(visits, ' UNION ALL ')}) u`;
    // A property's visits are those of the events carrying it: the period's visitors are read apart.
    if (totals !== null && !isPropertyDimension(bd.dimension)) {
      const page = sql`SELECT k, ${trusted(d.countVisitorDays('vd', 'vv'))} AS visitors, sum(v) AS views FROM ${allVisits}
        GROUP BY k ${trusted(totals)}${chosen('HAVING')} ${order}`;
      return { page, keyCount, countedOnPage: false, visitorsInTotals: true };
    }
    // Elsewhere each key, day and visitor grouped once, then each key's groups counted: a plain
    // GROUP BY, where a distinct count per day and key, summed, keeps a set of visitors per group
    // (DuckDB: 0.65 times the CPU time over a year of 1 M raw events).
    if (countAll !== null) {
      const page = sql`SELECT k, visitors, views, ${trusted(countAll)} AS total_keys
        FROM (SELECT k, count(*) AS visitors, sum(v) AS views FROM (SELECT k, vd, vv, sum(v) AS v FROM ${allVisits}${chosen('WHERE')} GROUP BY k, vd, vv) t GROUP BY k) g ${order}`;
      return { page, keyCount, countedOnPage: true, visitorsInTotals: false };
    }
  }
  const sessionSums = trusted(rowColumns.map((c) => `, sum(${c}) AS ${c}`).join(''));
  return {
    page: sql`SELECT k, visitors, views${sessionColumns}${trusted(countAll ? `, ${countAll} AS total_keys` : '')}
      FROM (SELECT k, sum(visitors) AS visitors, sum(views) AS views${sessionSums} FROM ${union('rows')} GROUP BY k) g ${order}`,
    keyCount,
    countedOnPage: countAll !== null,
    visitorsInTotals: false,
  };
}
