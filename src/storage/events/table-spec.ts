// Tables and row scopes of the EventStore port (src/storage/events/types.ts), in engine-neutral terms.
import type { Sql } from '../../sql/sql.js';

export type ColumnType = 'VARCHAR' | 'BIGINT' | 'DATE' | 'BOOLEAN' | 'INTEGER';

export interface ColumnSpec {
  readonly name: string;
  readonly type: ColumnType;
  /** Whether the column holds NULLs (said for every column: engines differ on the default). */
  readonly nullable: boolean;
  /**
   * Whether the column holds few distinct values, each repeated over many rows (a dimension's keys):
   * an engine may keep it as a dictionary of its values (ClickHouse: `LowCardinality`), which makes
   * comparing and grouping them cheaper. DuckDB chooses its encodings itself.
   */
  readonly repeated?: boolean;
  /**
   * Whether each value is a list (array) of the type's values, in order: never NULL (an empty list
   * instead, `nullable` false), and written by statements only (`replaceRows`), never appended.
   */
  readonly list?: boolean;
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
   * key (ClickHouse's ORDER BY) use site, day column, then these (or, with `keyLeads`, site, these,
   * then the day column).
   */
  readonly key: readonly string[];
  /**
   * Whether every read of the table names its key's first column (a rollup's dimension): an engine
   * that sorts rows may sort by site, key, then day, so that a year of one key reads a few blocks of
   * rows instead of every row of the year (ClickHouse: a year of `country:US` in dim_daily read 100 –
   * 150 ms, 6 ms so sorted). A table made before keeps its order, which reads the same answers.
   */
  readonly keyLeads?: boolean;
  /**
   * Scratch rows of one job (a rollup rewrite's intermediate results): read only by the `rows`
   * query of `replaceRows`, never by `query`, and not needed after a restart. An adapter may keep
   * them out of its log and its other sessions (DuckDB: a temporary table of its writer
   * connection); one that cannot just stores them (ClickHouse: a MergeTree table like the others).
   */
  readonly scratch?: boolean;
  /**
   * Whether the table holds a few rows a site and day (one, or one per goal or funnel step) and is
   * written only under the site's rollup lease: an engine that groups a site's rows into partitions
   * by time may keep a whole year in one (ClickHouse: a partition per site and year instead of per
   * site and month), so that a year's read opens one or two partitions instead of twelve or more,
   * and rewriting a day copies the site's year of such rows.
   */
  readonly fewRowsADay?: boolean;
}

/** The rows of one site whose day lies in a range (and whose `where` columns hold the given values). */
export interface RowScope {
  readonly siteId: string;
  /** Days of the table's day column, both ends included; `from: null` reaches back to the first. */
  readonly days: { readonly from: string | null; readonly to: string };
  readonly where?: Readonly<Record<string, string | number>>;
}

/**
 * The new rows of a replacement: a query, or several whose rows together are the new rows, inserted
 * one after another. DuckDB builds the aggregates of every branch of a `UNION ALL` at once, so a
 * union of heavy selects (a day's sessions in shares, each holding their entry and exit pages) takes
 * the memory of all of them together; as a list it takes the largest one's.
 */
export type Rows = Sql | readonly Sql[];

/** The queries of `rows`, in order. */
export const selectsOf = (rows: Rows): readonly Sql[] => (Array.isArray(rows) ? rows : [rows as Sql]);

/** One table's part of `EventStore.replaceTogether`: the rows of `table` in `scope` become `rows` (none when null). */
export interface RowReplacement {
  readonly table: TableSpec;
  readonly scope: RowScope;
  readonly rows: Rows | null;
}

/** A spec whose rows `appendRows` may append: one without list columns (those are written by statements). */
export function appendableSpec(spec: TableSpec): TableSpec {
  const list = spec.columns.find((c) => c.list);
  if (list) throw new Error(`table ${spec.name}: its list column ${list.name} is written by statements (replaceRows), not appended`);
  return checkedSpec(spec);
}

const NAME = /^[a-z_][a-z0-9_]*$/;

/** A table or column name as every adapter writes it into DDL: lower-case letters, digits and `_`. */
export function checkedName(name: string): string {
  if (!NAME.test(name)) throw new Error(`not a table or column name: ${JSON.stringify(name)}`);
  return name;
}

/** A spec as the port defines it: well-formed names, a not-null VARCHAR site_id, a not-null DATE day column, key columns it has. */
export function checkedSpec(spec: TableSpec): TableSpec {
  checkedName(spec.name);
  for (const c of spec.columns) checkedName(c.name);
  const column = (name: string) => spec.columns.find((c) => c.name === name);
  const site = column('site_id');
  const day = column(spec.dayColumn);
  if (site?.type !== 'VARCHAR' || site.nullable) throw new Error(`table ${spec.name}: site_id must be a VARCHAR that is never NULL`);
  if (day?.type !== 'DATE' || day.nullable) throw new Error(`table ${spec.name}: its day column ${spec.dayColumn} must be a DATE that is never NULL`);
  const nullableList = spec.columns.find((c) => c.list && c.nullable);
  if (nullableList) throw new Error(`table ${spec.name}: the list column ${nullableList.name} must never be NULL (an empty list instead)`);
  const unknown = spec.key.filter((name) => !column(name));
  if (unknown.length > 0) throw new Error(`table ${spec.name}: key columns ${unknown.join(', ')} are not among its columns`);
  return spec;
}
