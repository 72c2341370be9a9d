import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { type DuckDBAppender, DuckDBConnection, DuckDBDateValue, type DuckDBPreparedStatement, type DuckDBResultReader, type DuckDBValue } from '@duckdb/node-api';
import { joinSql, sql, trusted, type Sql, type SqlValue } from '../../sql/sql.js';
import { openDuckDb, ROW_GROUP_ROWS, type DuckDbDatabase } from './duckdb-file.js';
import { EVENT_COLUMNS, EVENTS_TABLE, type StoredEvent } from './schema.js';
import { appendChunks, BULK_FLUSH_ROWS, discard, LIVE_FLUSH_ROWS } from './duckdb-append.js';
import { eventParams } from './duckdb-chunk.js';
import { duckdbDialect } from './duckdb-dialect.js';
import { StatementOutOfMemory, StatementTimeout, type BulkAppend, type EventStore, type Page, type ReadOptions, type RowReplacement, type RowScope, type TableRow, type TableSpec } from './types.js';
import { appendableSpec, checkedName, checkedSpec, selectsOf, type ColumnSpec, type Rows } from './table-spec.js';
import { checkedMemoryLimit, DuckDbSettings } from './duckdb-settings.js';
import { isOutOfMemory, newActivity, retriedAloneOnOutOfMemory, type Activity } from './duckdb-alone.js';

/**
 * Serializes the work of one DuckDB connection: a connection runs one statement at a time, and
 * a transaction (BEGIN … COMMIT around an appender) must not interleave with anything else.
 */
class SerialConnection {
  private tail: Promise<unknown> = Promise.resolve();
  constructor(
    readonly conn: DuckDBConnection,
    protected readonly activity: Activity,
  ) {}
  run<T>(work: (conn: DuckDBConnection) => Promise<T>): Promise<T> {
    const activity = this.activity;
    activity.statements++;
    const next = this.tail.then(async () => {
      await activity.gate;
      activity.running++;
      try {
        return await work(this.conn);
      } finally {
        activity.running--;
      }
    });
    this.tail = next.catch(() => undefined);
    return next;
  }
}

/**
 * How many statements a read connection keeps prepared. Asked with parameters through
 * `runAndReadAll`, DuckDB parses, binds and plans a statement, then binds and plans it again with
 * the values; a request's statements are small (a year's stats: five, each a few milliseconds), so
 * that first pass is a large share of each. A kept statement skips it
 * (docs/performance.md#where-the-years-stats-spend-their-time).
 */
export const PREPARED_PER_READER = 64;

/**
 * A result's rows as objects keyed by column name (repeated names told apart as `getRowObjectsJS`
 * does), converted a column at a time rather than by visiting each row's values.
 */
function rowObjects(reader: DuckDBResultReader): Record<string, unknown>[] {
  const names = reader.deduplicatedColumnNames();
  const columns = reader.getColumnsJS();
  const rows = new Array<Record<string, unknown>>(reader.currentRowCount);
  for (let r = 0; r < rows.length; r++) {
    const row: Record<string, unknown> = {};
    for (let c = 0; c < names.length; c++) row[names[c]!] = columns[c]![r];
    rows[r] = row;
  }
  return rows;
}

/**
 * A read connection: its statements run one at a time, and it keeps the last
 * `PREPARED_PER_READER` statements with parameters it ran prepared, by text. DuckDB plans a
 * statement with parameters anew at each run, with the values bound, so a kept one reads the rows
 * as they are now. One without parameters is not kept: its prepared plan is made once, from the
 * tables' statistics of that moment, and would miss rows appended since (duckdb/duckdb#23704).
 */
class ReadConnection extends SerialConnection {
  /** By text, the least recently used first. */
  private readonly prepared = new Map<string, DuckDBPreparedStatement>();
  /** Statements queued or running. */
  private statements = 0;

  get pending(): number {
    return this.statements;
  }

  /** The rows of `query`, cancelled past `deadlineMs` from its start on this connection (not from its wait in the queue). */
  async read(query: Sql, deadlineMs: number | undefined): Promise<Record<string, unknown>[]> {
    this.statements++;
    try {
      // A read DuckDB refuses for want of memory (its pool full of an import's blocks) runs again, alone.
      return await this.run((conn) => retriedAloneOnOutOfMemory(this.activity, async () => {
        let expired = false;
        const timer =
          deadlineMs === undefined
            ? undefined
            : setTimeout(() => {
                expired = true;
                conn.interrupt();
              }, deadlineMs);
        try {
          return query.params.length === 0 ? rowObjects(await conn.runAndReadAll(query.text)) : await this.readPrepared(query.text, query.params as DuckDBValue[]);
        } catch (err) {
          if (expired) throw new StatementTimeout(deadlineMs!, { cause: err });
          throw err;
        } finally {
          clearTimeout(timer);
        }
      }));
    } catch (err) {
      // Refused alone too: the read itself needs more than the pool, whatever else runs.
      throw isOutOfMemory(err) ? new StatementOutOfMemory({ cause: err }) : err;
    } finally {
      this.statements--;
    }
  }

  private async readPrepared(text: string, params: DuckDBValue[]): Promise<Record<string, unknown>[]> {
    let statement = this.prepared.get(text);
    if (statement) this.prepared.delete(text);
    else statement = await this.conn.prepare(text);
    let rows: Record<string, unknown>[];
    try {
      statement.bind(params);
      rows = rowObjects(await statement.runAndReadAll());
    } catch (err) {
      // A statement whose run failed is prepared anew the next time it is asked.
      statement.destroySync();
      throw err;
    }
    this.prepared.set(text, statement);
    if (this.prepared.size > PREPARED_PER_READER) {
      const [oldest, evicted] = this.prepared.entries().next().value!;
      this.prepared.delete(oldest);
      evicted.destroySync();
    }
    return rows;
  }
}

export interface DuckDbEventStoreOptions {
  /** File path, or ':memory:'. */
  path: string;
  /** Read connections; DuckDB parallelizes inside a query too, so a few are enough. */
  readers?: number;
  /** DuckDB's memory_limit (e.g. '512MB'): its buffer pool, past which it evicts and spills. */
  memoryLimit?: string;
  /** The memory_limit while an import rolls up (`whileImporting`), with `memoryLimit`; without, imports keep the pool as it is. */
  importMemoryLimit?: string;
  /** Hears a statement of the store's own that DuckDB refused (a change of the pool's limit, an idle checkpoint). */
  warn?: (err: unknown, message: string) => void;
}

/**
 * The ids of the batches `append` stored lately, each with when: a batch appended again under its id
 * (a replay after a crash between the store's commit and the event log's or the spool's record of it)
 * is recognized and skipped. Kept for a week; pruned at most once an hour.
 */
const APPENDED_BATCHES = 'appended_batches';
const APPENDED_BATCHES_KEPT_MS = 7 * 86_400_000;
const PRUNE_EVERY_MS = 3_600_000;

/** A column's DuckDB type: a list column's is a LIST of its values' (`VARCHAR[]`). */
const columnType = (c: ColumnSpec) => `${c.type}${c.list ? '[]' : ''}`;

/** The table of a spec (a scratch one: a temporary table of the connection that runs it). */
function createStatement(spec: TableSpec): string {
  const columns = spec.columns.map((c) => `${checkedName(c.name)} ${columnType(c)}${c.nullable ? '' : ' NOT NULL'}`);
  return `CREATE ${spec.scratch ? 'TEMPORARY TABLE' : 'TABLE'} IF NOT EXISTS ${checkedSpec(spec).name} (${columns.join(', ')})`;
}

export class DuckDbEventStore implements EventStore {
  readonly dialect = duckdbDialect;
  private identity = '';
  private writer!: SerialConnection;
  private readers: ReadConnection[] = [];
  private nextReader = 0;
  /** The bulk writes still open, each as its rollback. */
  private readonly bulks = new Set<() => Promise<void>>();
  private prunedAt = 0;
  /** Imports rolling up. */
  private imports = 0;
  private readonly activity: Activity = newActivity();
  /** The statements asked when the pool was last emptied at idle, and at the last idle check. */
  private statementsAtRelease = 0;
  private statementsAtCheck = 0;

  private constructor(
    private readonly database: DuckDbDatabase,
    private readonly settings: DuckDbSettings,
  ) {}

  static async open(options: DuckDbEventStoreOptions): Promise<DuckDbEventStore> {
    if (options.path !== ':memory:') mkdirSync(dirname(options.path), { recursive: true });
    // The allocator's background thread gives freed memory back to the system as it ages, so that
    // what an import's rollups freed does not stay resident; reads cost the same
    // (docs/performance.md#memory).
    const config: Record<string, string> = { allocator_background_threads: 'true' };
    if (options.memoryLimit) config.memory_limit = options.memoryLimit;
    // An import limit equal to the limit changes nothing: imports then keep the pool as it is.
    const limits =
      options.memoryLimit && options.importMemoryLimit && options.importMemoryLimit !== options.memoryLimit
        ? { memory: checkedMemoryLimit(options.memoryLimit), import: checkedMemoryLimit(options.importMemoryLimit) }
        : null;
    const database = await openDuckDb(options.path, config);
    const settings = new DuckDbSettings(database, limits, options.memoryLimit ? checkedMemoryLimit(options.memoryLimit) : null, options.warn ?? (() => undefined));
    const store = new DuckDbEventStore(database, settings);
    store.writer = new SerialConnection(await database.connect(), store.activity);
    for (let i = 0; i < (options.readers ?? 3); i++) {
      store.readers.push(new ReadConnection(await database.connect(), store.activity));
    }
    await store.init();
    return store;
  }

  get id(): string {
    return this.identity;
  }

  get readSlots(): number {
    return this.readers.length;
  }

  async init(): Promise<void> {
    await this.createTables([EVENTS_TABLE]);
    await this.write(trusted(`CREATE TABLE IF NOT EXISTS ${APPENDED_BATCHES} (batch_id VARCHAR NOT NULL, stored_at BIGINT NOT NULL)`));
    // The file's identity: drawn once, at its first start.
    await this.write(trusted('CREATE TABLE IF NOT EXISTS store_identity (id VARCHAR NOT NULL)'));
    await this.write(sql`INSERT INTO store_identity SELECT ${randomUUID()} WHERE NOT EXISTS (SELECT 1 FROM store_identity)`);
    const [row] = await this.query<{ id: string }>(sql`SELECT id FROM store_identity`);
    this.identity = row!.id;
  }

  async createTables(specs: readonly TableSpec[]): Promise<void> {
    // DuckDB keeps no sort order or engine per table: the spec's key only has to name columns.
    // Scratch tables are temporary tables of the writer connection, where replaceRows runs.
    for (const spec of specs) {
      await this.write(trusted(createStatement(spec)));
      // A table made from an earlier spec gains the columns added to it since (at the end, as the
      // spec adds them: the appender writes columns in table order); NOT NULL ones default to 0. A
      // column the spec now lets be NULL loses its NOT NULL.
      if (spec.scratch) continue;
      const stored = await this.query<{ c: string; n: string }>(sql`SELECT column_name AS c, is_nullable AS n FROM information_schema.columns WHERE table_name = ${spec.name}`);
      for (const c of spec.columns) {
        const found = stored.find((s) => s.c === c.name);
        if (!found) await this.write(trusted(`ALTER TABLE ${spec.name} ADD COLUMN ${c.name} ${columnType(c)}${c.nullable ? '' : c.list ? ' DEFAULT []' : ' DEFAULT 0'}`));
        else if (c.nullable && found.n === 'NO') await this.write(trusted(`ALTER TABLE ${spec.name} ALTER COLUMN ${c.name} DROP NOT NULL`));
      }
    }
  }

  /** Idempotent by `batchId`: a batch whose id is among the appended batches' is not stored again. */
  append(rows: readonly StoredEvent[], batchId?: string): Promise<void> {
    if (rows.length === 0) return Promise.resolve();
    return this.writer.run(async (conn) => {
      await conn.run('BEGIN TRANSACTION');
      let appender: DuckDBAppender | null = null;
      try {
        if (batchId !== undefined) {
          const seen = await conn.runAndReadAll(`SELECT 1 FROM ${APPENDED_BATCHES} WHERE batch_id = $1`, [batchId]);
          if (seen.currentRowCount > 0) {
            await conn.run('ROLLBACK');
            return;
          }
        }
        appender = await conn.createAppender('events');
        await appendChunks(appender, rows, LIVE_FLUSH_ROWS);
        appender.closeSync();
        appender = null;
        const now = Date.now();
        if (batchId !== undefined) await conn.run(`INSERT INTO ${APPENDED_BATCHES} VALUES ($1, $2)`, [batchId, now]);
        if (now - this.prunedAt >= PRUNE_EVERY_MS) {
          await conn.run(`DELETE FROM ${APPENDED_BATCHES} WHERE stored_at < $1`, [now - APPENDED_BATCHES_KEPT_MS]);
          this.prunedAt = now;
        }
        await conn.run('COMMIT');
      } catch (err) {
        discard(appender);
        await conn.run('ROLLBACK').catch(() => undefined);
        throw err;
      }
    });
  }

  /** Through an appender in one transaction of the writer connection: all rows or none. */
  async appendRows(table: TableSpec, rows: readonly TableRow[]): Promise<void> {
    const spec = appendableSpec(table);
    if (spec.name === EVENTS_TABLE.name) throw new Error('events are appended with append()');
    if (rows.length === 0) return;
    await this.writer.run(async (conn) => {
      await conn.run('BEGIN TRANSACTION');
      let appender: DuckDBAppender | null = null;
      try {
        appender = await conn.createAppender(spec.name);
        for (const row of rows) {
          for (const [i, c] of spec.columns.entries()) appendValue(appender, c.type, row[i] ?? null);
          appender.endRow();
        }
        appender.closeSync(); // flushes into the open transaction
        appender = null;
        await conn.run('COMMIT');
      } catch (err) {
        discard(appender);
        await conn.run('ROLLBACK').catch(() => undefined);
        throw err;
      }
    });
  }

  /**
   * The buffer pool is lowered to the import limit when the first import's rollups start and set
   * back when the last one's end: an import's rollups hold memory outside the pool (in allocations
   * it does not manage, and what its allocator keeps of them), which the pool's share of the budget
   * does not count. The other reads meanwhile evict and spill sooner; an append on the event loop
   * under that pressure would spill there and hold up collection, and a commit would spill the rows
   * it commits, so imports append and commit before, not within. Every import waits for the
   * lowering, whichever asked it. A limit DuckDB refuses (a pool that cannot shrink that far, its
   * pages pinned by statements under way) is reported through `warn`, and the import runs with the
   * pool as it is; neither changing the limit nor setting it back fails an import. Meanwhile commits
   * leave the write-ahead log to IMPORT_CHECKPOINT_THRESHOLD.
   */
  async whileImporting<T>(work: () => Promise<T>): Promise<T> {
    if (++this.imports === 1) void this.settings.importing(true);
    await this.settings.settled;
    try {
      return await work();
    } finally {
      if (--this.imports === 0) await this.settings.importing(false);
    }
  }

  /**
   * At an idle check, once statements ran since the last release and none since the previous check
   * (long work keeps what it reads between its statements): the write-ahead log checkpointed and the
   * blocks reads cached evicted (`DuckDbSettings.releaseIdle`; after `svc demo`, held for nobody).
   * Never with work under way that either could fail (a statement running or waiting to run again
   * alone, a bulk write, an import rolling up); statements asked meanwhile wait for it.
   */
  releaseIdleMemory(): Promise<void> {
    const activity = this.activity;
    const quiet = activity.statements === this.statementsAtCheck;
    this.statementsAtCheck = activity.statements;
    const busy = activity.running > 0 || activity.retrying > 0 || this.bulks.size > 0 || this.imports > 0;
    if (busy || !quiet || activity.statements === this.statementsAtRelease) return this.settings.settled;
    this.statementsAtRelease = activity.statements;
    const released = this.settings.releaseIdle();
    activity.gate = released;
    return released;
  }

  /**
   * A bulk write on a connection of its own, in one transaction: live flushes on the writer
   * connection go on meanwhile (DuckDB lets concurrent transactions append to one table), and
   * readers see none of the rows until commit.
   *
   * DuckDB compresses and writes a full row group of the transaction's rows when the next append
   * starts the following one. Through the appender that happens inside its synchronous flush (under
   * a full memory pool 130 – 190 ms with the event loop held for DuckDB's row groups of 122 880
   * rows, 140 – 170 ms for the store's 16 384 rows of 2 KB paths), so the row that starts each row
   * group after the first goes in by a statement instead, which DuckDB's threads run. (A staging
   * table for that row group's first rows held every staging table's rows until the commit: 50 -
   * 80 MB more at the peak of a 2 000 000-line import.)
   */
  async beginBulk(): Promise<BulkAppend> {
    const conn = await this.database.connect();
    const serial = new SerialConnection(conn, this.activity);
    let appender: DuckDBAppender | null = null;
    let handed = 0; // the rows this transaction has given events
    let ending: Promise<void> | null = null;
    /** The row that starts a row group, after the rows the appender handed over: by a statement. */
    const startRowGroup = async (row: StoredEvent) => {
      appender?.closeSync();
      appender = null;
      await conn.run(INSERT_ONE_EVENT, eventParams(row));
    };
    const end = (statement: 'COMMIT' | 'ROLLBACK'): Promise<void> => {
      if (ending) return statement === 'COMMIT' ? Promise.reject(new Error('this bulk write has ended')) : ending.catch(() => undefined);
      ending = (async () => {
        try {
          // After the append under way: its steps run on this connection until it returns.
          await serial.run(async () => {
            // Each append has flushed its rows into the transaction already; closing frees the appender.
            if (statement === 'ROLLBACK') discard(appender);
            else appender?.closeSync();
            await conn.run(statement);
          });
        } catch (err) {
          await conn.run('ROLLBACK').catch(() => undefined);
          throw err;
        } finally {
          this.bulks.delete(abandon);
          conn.closeSync();
        }
      })();
      return ending;
    };
    const abandon = () => end('ROLLBACK');
    this.bulks.add(abandon);
    await conn.run('BEGIN TRANSACTION');
    return {
      append: (rows) =>
        serial.run(async () => {
          if (ending) throw new Error('this bulk write has ended');
          // In parts that end at row group boundaries. Flushed as they go: the appender would
          // otherwise keep the rows until closed, and hand them all over in one long synchronous call.
          for (const { offset, count, startsRowGroup } of bulkParts(handed, rows.length)) {
            if (startsRowGroup) await startRowGroup(rows[offset]!);
            const first = startsRowGroup ? offset + 1 : offset;
            if (first < offset + count) await appendChunks((appender ??= await conn.createAppender('events')), rows.slice(first, offset + count), BULK_FLUSH_ROWS);
            handed += count;
          }
        }),
      commit: () => end('COMMIT'),
      rollback: () => end('ROLLBACK'),
    };
  }

  query<T = Record<string, unknown>>(query: Sql, options: ReadOptions = {}): Promise<T[]> {
    return this.idlestReader().read(query, options.deadlineMs) as Promise<T[]>;
  }

  /**
   * The reader with the fewest statements queued or running, looked for from a start that moves on
   * at each call: a short read does not wait behind a long one (a filtered year, hundreds of
   * milliseconds) while another connection has nothing to do.
   */
  private idlestReader(): ReadConnection {
    const start = this.nextReader++;
    let idlest = this.readers[start % this.readers.length]!;
    for (let i = 1; i < this.readers.length && idlest.pending > 0; i++) {
      const reader = this.readers[(start + i) % this.readers.length]!;
      if (reader.pending < idlest.pending) idlest = reader;
    }
    return idlest;
  }

  /** DuckDB tells nothing besides the rows: a page's count rides on it as a window (`countOverAll`). */
  async queryPage<T = Record<string, unknown>>(query: Sql, options: ReadOptions = {}): Promise<Page<T>> {
    return { rows: await this.query<T>(query, options), rowsBeforeLimit: null, totals: null };
  }

  /** A DELETE and an INSERT in one transaction of the writer connection. */
  replaceRows(table: TableSpec, scope: RowScope, rows: Rows | null): Promise<void> {
    return this.replaceInOneTransaction([{ table, scope, rows }]);
  }

  async replaceTogether(replacements: readonly RowReplacement[]): Promise<void> {
    if (replacements.some((r) => r.table.name === EVENTS_TABLE.name)) throw new Error('the events table takes rows by append only: replaceRows only removes them');
    return this.replaceInOneTransaction(replacements);
  }

  /** Every replacement's DELETE and INSERT in one transaction of the writer connection. */
  private async replaceInOneTransaction(replacements: readonly RowReplacement[]): Promise<void> {
    const statements = replacements.flatMap(({ table, scope, rows }) => {
      const spec = checkedSpec(table);
      const inScope = scopePredicate(spec, scope);
      const names = trusted(spec.columns.map((c) => c.name).join(', '));
      return [
        sql`DELETE FROM ${trusted(spec.name)} WHERE ${inScope}`,
        ...(rows === null ? [] : selectsOf(rows).map((select) => sql`INSERT INTO ${trusted(spec.name)} (${names}) SELECT * FROM (${select}) AS r(${names}) WHERE ${inScope}`)),
      ];
    });
    // DuckDB keeps a temporary table's deleted rows in memory until the table goes: a scratch table
    // emptied by a clear is made anew, so that it holds no more than the rows in use.
    const cleared = replacements.filter((r) => r.table.scratch && r.rows === null).map((r) => checkedSpec(r.table));
    // Rolled back when DuckDB refuses a statement for want of memory, and run again alone.
    await this.writer.run((conn) => retriedAloneOnOutOfMemory(this.activity, async () => {
      await conn.run('BEGIN TRANSACTION');
      try {
        for (const s of statements) await conn.run(s.text, s.params as DuckDBValue[]);
        for (const spec of cleared) {
          const left = await conn.runAndReadAll(`SELECT 1 FROM ${spec.name} LIMIT 1`);
          if (left.currentRowCount > 0) continue;
          await conn.run(`DROP TABLE ${spec.name}`);
          await conn.run(createStatement(spec));
        }
        await conn.run('COMMIT');
      } catch (err) {
        await conn.run('ROLLBACK').catch(() => undefined);
        throw err;
      }
    }));
  }

  private write(statement: Sql): Promise<void> {
    return this.writer.run(async (conn) => {
      await conn.run(statement.text, statement.params as DuckDBValue[]);
    });
  }

  async close(): Promise<void> {
    // No change of the pool's limit runs on a closing instance, nor after.
    await this.settings.close();
    // A bulk write still open is rolled back, once the append under way has returned.
    await Promise.all([...this.bulks].map((abandon) => abandon()));
    // Wait for queued work, then release the file so another process may open it.
    await this.writer.run(async () => undefined);
    await Promise.all(this.readers.map((r) => r.run(async () => undefined)));
    for (const c of [this.writer, ...this.readers]) c.conn.closeSync();
    this.database.instance.closeSync();
  }
}

function scopePredicate(spec: TableSpec, scope: RowScope): Sql {
  const day = trusted(spec.dayColumn);
  const to = trusted(duckdbDialect.dateLiteral(scope.days.to));
  const parts = [sql`site_id = ${scope.siteId}`, scope.days.from === null ? sql`${day} <= ${to}` : sql`${day} BETWEEN ${trusted(duckdbDialect.dateLiteral(scope.days.from))} AND ${to}`];
  for (const [name, value] of Object.entries(scope.where ?? {})) {
    if (!spec.columns.some((c) => c.name === name)) throw new Error(`table ${spec.name} has no column ${name}`);
    parts.push(sql`${trusted(name)} = ${value}`);
  }
  return joinSql(parts, ' AND ');
}

const DAY_MS = 86_400_000;

/** One value of a row in its column's type (days as 'YYYY-MM-DD'). */
function appendValue(appender: DuckDBAppender, type: TableSpec['columns'][number]['type'], value: string | number | null): void {
  if (value === null) return appender.appendNull();
  switch (type) {
    case 'VARCHAR':
      return appender.appendVarchar(String(value));
    case 'BIGINT':
      return appender.appendBigInt(BigInt(value));
    case 'INTEGER':
      return appender.appendInteger(Number(value));
    case 'BOOLEAN':
      return appender.appendBoolean(Boolean(value));
    case 'DATE':
      return appender.appendDate(new DuckDBDateValue(Math.round(Date.parse(`${value}T00:00:00Z`) / DAY_MS)));
  }
}

/** One event by a statement, its values as parameters (`eventParams`). */
const INSERT_ONE_EVENT = `INSERT INTO events (${EVENT_COLUMNS.map((c) => c.name).join(', ')}) VALUES (${EVENT_COLUMNS.map((_, i) => `$${i + 1}`).join(', ')})`;

/**
 * A bulk append of `rows` rows after `handed` rows in its transaction, in parts that end at row
 * group boundaries; a part that starts a row group after the first is marked.
 */
export function bulkParts(handed: number, rows: number): Array<{ offset: number; count: number; startsRowGroup: boolean }> {
  const parts = [];
  for (let offset = 0; offset < rows; ) {
    const at = handed + offset;
    const count = Math.min(rows - offset, ROW_GROUP_ROWS - (at % ROW_GROUP_ROWS));
    parts.push({ offset, count, startsRowGroup: at > 0 && at % ROW_GROUP_ROWS === 0 });
    offset += count;
  }
  return parts;
}
