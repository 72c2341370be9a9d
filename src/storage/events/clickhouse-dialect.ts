import { checkedDay, type Dialect } from '../../sql/dialect.js';

/**
 * ClickHouse (18.16 and later). No window functions there: `countOverAll` is null; a page's rows
 * before LIMIT and its totals row come with the page instead (`groupTotals`, EventStore.queryPage). Aggregates documented as NULL over no rows are made so explicitly: ClickHouse gives
 * the type's default. Counts are made Int64 (ClickHouse's are UInt64).
 */
export const clickhouseDialect: Dialect = {
  countDistinct: (...exprs) => `toInt64(uniqExact(${exprs.join(', ')}))`,
  countIf: (cond) => `toInt64(countIf(${cond}))`,
  sumIf: (expr, cond) => `if(countIf(${cond}) > 0, sumIf(${expr}, ${cond}), NULL)`,
  countOverAll: () => null,
  groupTotals: () => 'WITH TOTALS',
  argMax: (expr, by) => `argMax(${expr}, ${by})`,
  argMaxIf: (expr, by, cond) => `if(countIf(${cond}) > 0, argMaxIf(${expr}, ${by}, ${cond}), NULL)`,
  monthStart: (d) => `toStartOfMonth(${d})`,
  dateLiteral: (day) => `toDate('${checkedDay(day)}')`,
  // Lower-cased on both sides (18.16 has no ILIKE, and `(?i)` in a pattern matches nothing there).
  containsInsensitive: (expr) => `position(lowerUTF8(${expr}), lowerUTF8(?)) > 0`,
  dayText: (d) => `toString(${d})`,
  regexMatches: (expr) => `match(${expr}, ?)`,
};
