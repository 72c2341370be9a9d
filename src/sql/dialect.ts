// Everything engine-specific about SQL text lives here, so that queries are written once.
// DuckDB is the embedded engine (src/storage/events/duckdb-dialect.ts), ClickHouse the scale-out one
// (src/storage/events/clickhouse-dialect.ts). Shared SQL stays in the subset both engines read alike: no
// CTEs, no window functions outside the Dialect, and no reliance on what an engine fills in for a
// missing value (an unmatched LEFT JOIN row, an aggregate over no rows): where a query needs NULL,
// it says so (a CASE without ELSE, a Dialect member documented as NULL when none). An alias never takes
// the name of a column the query reads (ClickHouse resolves the name to the alias in WHERE too).

// Counts (countDistinct, countIf) are signed 64-bit integers on every engine.
export interface Dialect {
  /** Exact count of the distinct values of an expression. */
  countDistinct(expr: string): string;
  /**
   * Count of the distinct (day, visitor hash) pairs of the rows: visitors over several days, each
   * day's counted apart (a visitor hash belongs to one day: its salt is the day's).
   */
  countVisitorDays(day: string, visitor: string): string;
  /** Rows where `cond` holds (an aggregate); cheaper than sum(CASE …) in both engines. */
  countIf(cond: string): string;
  /** Sum of `expr` over the rows where `cond` holds (an aggregate; NULL when none). */
  sumIf(expr: string, cond: string): string;
  /**
   * The sum of a count column as a signed 64-bit integer, NULL where every row's is NULL (a measure
   * imported aggregates hold unknown); a CAST to BIGINT refuses a NULL on ClickHouse.
   */
  sumOfCounts(column: string): string;
  /** `count(*)` over every row of a result, as a window; null where the engine has no window functions. */
  countOverAll(): string | null;
  /** The sum of `expr` over every row of a result, as a window; null where the engine has no window functions. */
  sumOverAll(expr: string): string | null;
  /**
   * The clause after GROUP BY that adds a totals row over every group, HAVING aside (ClickHouse's
   * `WITH TOTALS`, read through `queryPage`); null where the engine has none.
   */
  groupTotals(): string | null;
  /**
   * The clause that selects rows by `filters` before the columns of the rest of the statement are
   * read (ClickHouse's `PREWHERE`); null where the engine plans it alone (a `WHERE` does).
   */
  readFirst(): string | null;
  /** Value of `expr` on the row where `by` is largest, over the rows where `cond` holds (NULL when none). */
  argMaxIf(expr: string, by: string, cond: string): string;
  /** First day of the month of a DATE expression. */
  monthStart(dateExpr: string): string;
  /** Which of `buckets` buckets a string falls in, 0 to buckets - 1, by a hash of it: the same string always in the same one. */
  bucketOf(stringExpr: string, buckets: number): string;
  /** A DATE literal from a trusted 'YYYY-MM-DD' string (validated here, never user text). */
  dateLiteral(day: string): string;
  /** Substring test with a `?` placeholder for the needle. */
  contains(expr: string): string;
  /** Case-insensitive substring test with a `?` placeholder for the needle. */
  containsInsensitive(expr: string): string;
  /**
   * A text expression as the type of a `repeated` column's values, so that both can meet in one
   * UNION or CASE (ClickHouse 18.16 finds no common type for String and LowCardinality(String)).
   */
  asRepeated(expr: string): string;
  /** A DATE expression as 'YYYY-MM-DD' text. */
  dayText(dateExpr: string): string;
  /** Regular-expression test of `expr` against a `?` placeholder (anchors in the pattern). */
  regexMatches(expr: string): string;
  /** The text of the first group of a `?` pattern's first match in `expr`; '' when none. */
  regexExtract(expr: string): string;
  /** The texts of the first group of a `?` pattern's every match in `expr`, as an array (list). */
  regexExtractAll(expr: string): string;
  /** One row per element of an array (list) expression, in a select list; none for an empty one. */
  unnest(expr: string): string;
  /** The items of a list (array) for which `body` (text reading the item as `variable`) holds, in order. */
  listFilter(list: string, variable: string, body: string): string;
  /** What reads a session's pageviews as one list (journeys and their session paths, src/stats/sql/journeys.ts). */
  readonly sessionLists: SessionLists;
  /**
   * Whether journeys read a session's raw pageviews as sorted rows over window functions (DuckDB:
   * sorted rows spill to disk past its memory, where a list per session is held in memory) rather
   * than as lists (ClickHouse 18.16 has no window functions).
   */
  readonly journeysOverWindows: boolean;
  /**
   * The array (list) of the ids, as BIGINT, whose condition holds on the row, in the cases' order;
   * empty where none holds (a NULL condition does not). The conditions are texts whose `?`
   * placeholders the caller binds, in order.
   */
  idsWhere(cases: ReadonlyArray<{ readonly id: number; readonly when: string }>): string;
  /**
   * The clause that ends a select reading few rows (a site's rolled-up days: a row or a few a day),
   * each select of a union its own; '' where the engine needs none. ClickHouse runs such a select on
   * one thread: a second one costs 18.16 more to start than it saves (docs/performance.md, "Rolled-up
   * days on one thread"). DuckDB's threads belong to its connection, not to a statement.
   */
  readonly fewRowsClause: string;
  /** The text a JSON string's text (`expr`, quotes included, well formed) holds, every escape decoded. */
  jsonStringText(expr: string): string;
  /**
   * Columns `columns` of the rows of `relation` (a parenthesized select, its `?` placeholders bound by
   * the caller) whose `kept` column is 1, and of every row of a `group` (a column) where no row is
   * kept (`kept` is 0 or 1 on every row): a flag over each group, in one pass (a window on DuckDB; on
   * ClickHouse, which has none, the group's rows as an array joined back). The names `w`, `g`,
   * `g_kept`, `g_rows` and `g_row` are the member's own: `relation` has no column of those names.
   */
  keptElseGroupRows(relation: string, columns: readonly string[], group: string, kept: string): string;
}

/** Lists (arrays) per group (`Dialect.sessionLists`). */
export interface SessionLists {
  /**
   * An aggregate: the list of `value` over the rows where `cond` holds, ordered by `by` and then by
   * `value` (bytewise); an empty list where it holds on no row.
   */
  orderedListIf(value: string, by: string, cond: string): string;
  /** The positions (1, 2, …) of a list (array) expression's items: a list of integers. */
  listPositions(list: string): string;
  /** A list of `body` (text reading each item as `variable`) over a list's items, in order. */
  listMap(list: string, variable: string, body: string): string;
  /** The `length` items of a list from position `from` on (1-based; fewer where the list ends before). */
  listSlice(list: string, from: string, length: string): string;
  /** An aggregate: the lists `list` of the rows one after the other, in the order of `by` (distinct per group). */
  concatInOrder(list: string, by: string): string;
  /** How many items a list holds. */
  listLength(list: string): string;
  /** Whether a list holds the value of a `?` placeholder. */
  listHas(list: string): string;
  /** The bytes of a list of strings' items, summed (0 for an empty list). */
  listBytes(list: string): string;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** Checks that a day literal's text is a 'YYYY-MM-DD' day, for every dialect's `dateLiteral`. */
export function checkedDay(day: string): string {
  if (!DAY.test(day)) throw new Error(`not a day: ${JSON.stringify(day)}`);
  return day;
}

/** The text of an integer we issued ourselves (goal ids, funnel ids), never client text, checked a safe integer. */
export function integerText(n: number): string {
  if (!Number.isSafeInteger(n)) throw new Error(`not an integer: ${n}`);
  return String(n);
}
