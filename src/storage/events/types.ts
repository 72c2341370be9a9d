import type { Dialect } from '../../sql/dialect.js';
import type { Sql } from '../../sql/sql.js';
import type { StoredEvent } from './schema.js';
import type { RowReplacement, Rows, RowScope, TableSpec } from './table-spec.js';

export type { ColumnSpec, ColumnType, RowReplacement, Rows, RowScope, TableSpec } from './table-spec.js';

/**
 * The EventStore port: raw events, and the tables the read side keeps beside them (rollups). It is
 * defined by what its callers need done, not by SQL statements, so that an engine without
 * multi-statement transactions, with no temporary tables bound to a connection and with mutations
 * that apply in the background (ClickHouse) implements it as well as DuckDB does:
 *
 * - the events table belongs to the adapter (`init`); every other table is described by its owner
 *   (`TableSpec`) and created by the adapter in the engine's own terms (`createTables`);
 * - rows are added whole (`append`, `beginBulk`), or replaced for one site and a range of days
 *   (`replaceRows`): never updated or deleted row by row;
 * - reads are `Sql` values built with the `sql` tag against `dialect` (`query`).
 *
 * Every query over `events` must be bounded by site and time (see src/stats).
 */
export interface EventStore {
  readonly dialect: Dialect;
  /**
   * The identity of the stored rows, kept across restarts: stores that hold the same rows share it
   * (every process on one ClickHouse database), a store of its own has its own (each process's
   * DuckDB file). What is kept about these rows elsewhere (the rollups' bookkeeping, in the
   * MetaStore) is keyed by it.
   */
  readonly id: string;
  /**
   * How many reads the store runs at once in this process (DuckDB: its read connections; ClickHouse:
   * its HTTP connections for reads): the read routes share them fairly between organisations
   * (src/stats/fair-reads.ts).
   */
  readonly readSlots: number;
  /** Creates the events table (and whatever keeps `id`) if it does not exist yet. */
  init(): Promise<void>;
  /**
   * Creates the tables of `specs` that do not exist yet (an existing table is left as it is). The
   * adapter chooses the engine, sort key and partitioning from the spec (ClickHouse: a MergeTree
   * ordered by site, day column and `key`, partitioned by site and month, or by site and year for a
   * table of `fewRowsADay`). Refuses a spec that is not well formed (see `TableSpec`).
   */
  createTables(specs: readonly TableSpec[]): Promise<void>;
  /**
   * Appends a batch atomically: either every row is stored or none is (the caller retries).
   * Idempotent: a batch appended again under the `batchId` of one stored lately (a retry after a
   * lost answer, a replay of the event log or the spool after a crash) is not stored again.
   * ClickHouse's adapter identifies a batch by a hash of its rows, whatever its id.
   */
  append(rows: readonly StoredEvent[], batchId?: string): Promise<void>;
  /**
   * Appends rows (values in the spec's column order: strings, numbers, days as 'YYYY-MM-DD') to a
   * table other than `events`, atomically per call. For tables whose rows a later `replaceRows`
   * moves where readers see them (an import's staging rows).
   */
  appendRows(table: TableSpec, rows: readonly TableRow[]): Promise<void>;
  /** Starts a bulk write (imports): rows appended over time, stored together at commit or not at all. */
  beginBulk(): Promise<BulkAppend>;
  /**
   * Runs the part of an import that the engine does (an NDJSON import's rollups, a Plausible
   * import's rewrite from its staged rows) with the memory the store gives imports, and
   * answers what `work` answers. DuckDB lowers its buffer pool to its import limit meanwhile (those
   * statements hold memory beside the pool); ClickHouse, whose imports hold nothing in the process,
   * runs `work` as it is. The appends and the commit before it stay outside: DuckDB's appends run
   * on the event loop, and a commit under the lowered pool spills the rows it commits.
   */
  whileImporting<T>(work: () => Promise<T>): Promise<T>;
  /**
   * Gives back memory the engine caches in the process for later reads, called at each idle check
   * of the process. DuckDB empties its pool of the blocks it read once a check interval passed
   * without a statement; ClickHouse holds nothing here.
   */
  releaseIdleMemory(): Promise<void>;
  /**
   * Runs a read query, rows as plain objects (counts may come back as bigints). With a deadline, the
   * engine cancels the statement once it has run that long and the call rejects with
   * `StatementTimeout`; the connection stays usable.
   */
  query<T = Record<string, unknown>>(query: Sql, options?: ReadOptions): Promise<T[]>;
  /**
   * Runs a read query that ends in LIMIT, as `query` does, with what the engine tells of it besides
   * its rows: how many rows there were before the LIMIT, and the totals row of a `groupTotals`
   * statement (over every group, HAVING aside). Each is null where the engine does not tell it.
   */
  queryPage<T = Record<string, unknown>>(query: Sql, options?: ReadOptions): Promise<Page<T>>;
  /**
   * Replaces the rows of `table` in `scope` by the rows of `rows` (a query whose columns are the
   * table's, in order; or several, their rows together: `Rows`), or only removes them when `rows` is null. When the call returns, readers see
   * the new rows and none of the old ones. While it runs, DuckDB's readers see one or the other for
   * the whole scope (one transaction); ClickHouse's see one or the other for each partition (each
   * (site, month) partition, or (site, year) for a table of `fewRowsADay`, is built in a staging
   * table and swapped in whole, one after another), so a read across partitions may see one
   * rewritten and the next not yet. `rows` must not read `table` itself: engines differ on whether it would see the old
   * rows. Its columns are taken by position and carry distinct names (ClickHouse merges columns of
   * one unnamed expression, such as two equal literals, into one). Rows of `rows` outside the scope are dropped, never stored.
   */
  replaceRows(table: TableSpec, scope: RowScope, rows: Rows | null): Promise<void>;
  /**
   * `replaceRows` over several tables (never `events`) as one change. DuckDB runs every replacement
   * in one transaction: readers see all the old rows or all the new. ClickHouse builds every table's
   * new partitions before it swaps any, then swaps them one after another: a failure while building
   * changes nothing; a failure among the swaps leaves the partitions swapped so far (the caller writes
   * again). A replacement's `rows` may read another table of the call only outside that table's
   * scope, where every engine sees the same rows.
   */
  replaceTogether(replacements: readonly RowReplacement[]): Promise<void>;
  close(): Promise<void>;
}

/** One row of a table, its values in the spec's column order. */
export type TableRow = ReadonlyArray<string | number | null>;

/** What the read path needs of an event store: its dialect and its reads. */
export type EventReader = Pick<EventStore, 'dialect' | 'query' | 'queryPage'>;

/** The rows of a statement ending in LIMIT, with the engine's count of its rows before the LIMIT and its totals row, where it gives them. */
export interface Page<T> {
  rows: T[];
  rowsBeforeLimit: number | null;
  totals: T | null;
}

/** What bounds one read. */
export interface ReadOptions {
  /** How long the statement may run, in milliseconds (ClickHouse counts whole seconds, rounded up). */
  deadlineMs?: number;
}

/** A read the engine cancelled at its deadline. */
export class StatementTimeout extends Error {
  constructor(readonly deadlineMs: number, options?: ErrorOptions) {
    super(`the statement ran past its deadline of ${deadlineMs} ms and was cancelled`, options);
    this.name = 'StatementTimeout';
  }
}

/** A read the engine refused for want of memory (DuckDB: once more alone as well; ClickHouse: past its per-query limit). */
export class StatementOutOfMemory extends Error {
  constructor(options?: ErrorOptions) {
    super('the statement needed more memory than the engine gives it', options);
    this.name = 'StatementOutOfMemory';
  }
}

/** A bulk write in progress. Its rows are invisible to readers until `commit()`. */
export interface BulkAppend {
  append(rows: readonly StoredEvent[]): Promise<void>;
  /** Stores every appended row at once; the bulk write is over (a second commit is refused). */
  commit(): Promise<void>;
  /** Stores none of them; the bulk write is over. Does nothing once it is over. */
  rollback(): Promise<void>;
}
