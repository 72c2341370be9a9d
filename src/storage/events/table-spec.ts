// Tables and row scopes of the EventStore port (src/storage/events/types.ts), in engine-neutral terms.

export type ColumnType = 'VARCHAR' | 'BIGINT' | 'DATE' | 'BOOLEAN' | 'INTEGER';

export interface ColumnSpec {
  readonly name: string;
  readonly type: ColumnType;
  /** Whether the column holds NULLs (said for every column: engines differ on the default). */
  readonly nullable: boolean;
}

/**
 * A table in engine-neutral terms. Every row belongs to one site (`site_id`, VARCHAR, not null) and
 * one day (`dayColumn`, a DATE, not null): the unit of replacement and of retention.
 */
export interface TableSpec {
  readonly name: string;
  readonly columns: readonly ColumnSpec[];
  readonly dayColumn: string;
  /**
   * The columns that, after site and day, identify a row (none: one row per site and day; the
   * events table has no identity and gives its sort order). Engines that sort or merge rows by
   * key (ClickHouse's ORDER BY) use site, day column, then these.
   */
  readonly key: readonly string[];
  /**
   * Scratch rows of one job (a rollup rewrite's intermediate results): read only by the `rows`
   * query of `replaceRows`, never by `query`, and not needed after a restart. An adapter may keep
   * them out of its log and its other sessions (DuckDB: a temporary table of its writer
   * connection); one that cannot just stores them (ClickHouse: a MergeTree table like the others).
   */
  readonly scratch?: boolean;
}

/** The rows of one site whose day lies in a range (and whose `where` columns hold the given values). */
export interface RowScope {
  readonly siteId: string;
  /** Days of the table's day column, both ends included; `from: null` reaches back to the first. */
  readonly days: { readonly from: string | null; readonly to: string };
  readonly where?: Readonly<Record<string, string>>;
}
