// Everything engine-specific about SQL text lives here, so that queries are written once.
// DuckDB is the embedded engine; a ClickHouse dialect (18.16: no CTEs, no window functions, no
// server-side parameters) implements the same object later. Shared SQL stays in that subset; an
// engine's extra (a window count) is offered here, with a fallback where it is missing.

export interface Dialect {
  readonly name: 'duckdb' | 'clickhouse';
  /** Exact distinct count. */
  countDistinct(expr: string): string;
  /** Rows where `cond` holds (an aggregate); cheaper than sum(CASE …) in both engines. */
  countIf(cond: string): string;
  /** Sum of `expr` over the rows where `cond` holds (an aggregate; NULL when none). */
  sumIf(expr: string, cond: string): string;
  /** `count(*)` over every row of a result, as a window; null where the engine has no window functions. */
  countOverAll(): string | null;
  /** Value of `expr` on the row where `by` is smallest / largest. */
  argMin(expr: string, by: string): string;
  argMax(expr: string, by: string): string;
  /** `argMax` over the rows where `cond` holds (NULL when none). */
  argMaxIf(expr: string, by: string, cond: string): string;
  /** Monday of the ISO week of a DATE expression. */
  weekStart(dateExpr: string): string;
  /** First day of the month of a DATE expression. */
  monthStart(dateExpr: string): string;
  /** A DATE literal from a trusted 'YYYY-MM-DD' string (validated here, never user text). */
  dateLiteral(day: string): string;
  /** Case-insensitive substring test with a parameter placeholder for the needle. */
  containsInsensitive(expr: string): string;
  /** Parameter placeholder. */
  readonly param: string;
  /** A DATE expression as 'YYYY-MM-DD' text. */
  dayText(dateExpr: string): string;
  /** Regular-expression test of `expr` against a parameter placeholder (anchors in the pattern). */
  regexMatches(expr: string): string;
  /** Start of a row deletion, followed by a predicate (ClickHouse spells it ALTER TABLE … DELETE WHERE). */
  deleteWhere(table: string): string;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

export const duckdbDialect: Dialect = {
  name: 'duckdb',
  countDistinct: (expr) => `count(DISTINCT ${expr})`,
  countIf: (cond) => `count(*) FILTER (WHERE ${cond})`,
  sumIf: (expr, cond) => `sum(${expr}) FILTER (WHERE ${cond})`,
  countOverAll: () => 'count(*) OVER ()',
  argMin: (expr, by) => `arg_min(${expr}, ${by})`,
  argMax: (expr, by) => `arg_max(${expr}, ${by})`,
  argMaxIf: (expr, by, cond) => `arg_max(${expr}, ${by}) FILTER (WHERE ${cond})`,
  weekStart: (d) => `CAST(date_trunc('week', ${d}) AS DATE)`,
  monthStart: (d) => `CAST(date_trunc('month', ${d}) AS DATE)`,
  dateLiteral: (day) => {
    if (!DAY.test(day)) throw new Error(`not a day: ${JSON.stringify(day)}`);
    return `DATE '${day}'`;
  },
  containsInsensitive: (expr) => `contains(lower(${expr}), lower(?))`,
  param: '?',
  dayText: (d) => `strftime(${d}, '%Y-%m-%d')`,
  regexMatches: (expr) => `regexp_matches(${expr}, ?)`,
  deleteWhere: (table) => `DELETE FROM ${table} WHERE`,
};
