import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { joinSql, sql, trusted, type Sql } from '../../sql/sql.js';
import { clickhouseDialect } from './clickhouse-dialect.js';
import { ClickHouseError, ClickHouseHttp, READ_SOCKETS, type StatementSettings } from './clickhouse-http.js';
import { clickhouseLiteral, inlineParams } from './clickhouse-literal.js';
import { EVENT_COLUMNS, EVENTS_TABLE, type EventColumnValue, type StoredEvent } from './schema.js';
import { StatementOutOfMemory, StatementTimeout, type BulkAppend, type ColumnSpec, type ColumnType, type EventStore, type Page, type ReadOptions, type RowReplacement, type RowScope, type TableRow, type TableSpec } from './types.js';
import { appendableSpec, checkedSpec, selectsOf, type Rows } from './table-spec.js';

export interface ClickHouseEventStoreOptions {
  /** `http(s)://[user:password@]host:port/database`; the database is created if missing. */
  url: string;
}

/** How long a request may wait on the server without a byte from it: statements with a deadline end at theirs, on the server. */
const REQUEST_TIMEOUT_MS = 300_000;
/** ClickHouse's code for a statement cancelled past its `max_execution_time`. */
const TIMEOUT_EXCEEDED = '159';
/** The server's refusal of a statement past its memory limit (max_memory_usage). */
const MEMORY_LIMIT_EXCEEDED = '241';
const TYPES: Record<ColumnType, string> = { VARCHAR: 'String', BIGINT: 'Int64', DATE: 'Date', BOOLEAN: 'UInt8', INTEGER: 'Int32' };
const DATABASE = /^[A-Za-z_][A-Za-z0-9_]*$/;
/**
 * Settings sent off with every INSERT where the server has them (read at `init`): from 21.x a NULL
 * for a never-NULL column would become its type's default (0, '') instead of failing the insert
 * (`insert_null_as_default`), and from 26.2 an insert would be answered before its rows are stored
 * (`async_insert`), which `append`'s retry and a swap's staging rely on not happening.
 */
const INSERT_SETTINGS_OFF = ['insert_null_as_default', 'async_insert'] as const;
/** The column of `events` naming the append batch of each row (see `append`); not a column of the spec. */
const BATCH_COLUMN = 'batch_id';

/** What a table's partitions hold of a site's rows: a month of their days, or a year. */
type PartitionUnit = 'month' | 'year';
/** A partition's value of the unit, as an expression over the day column, and as the server gives it back. */
const PARTITIONS: Record<PartitionUnit, { of: (day: string) => string; value: RegExp }> = {
  month: { of: (day) => `toYYYYMM(${day})`, value: /^\d{6}$/ },
  year: { of: (day) => `toYear(${day})`, value: /^\d{4}$/ },
};

/**
 * The EventStore on ClickHouse, over its HTTP interface (./clickhouse-http.ts). ClickHouse has no
 * transactions: what the port
 * promises rests on inserts being atomic per part and on partitions being swapped whole.
 *
 * - `events`: a MergeTree partitioned by month (`toYYYYMM(day)`), ordered by (site_id, day, ts),
 *   with a `batch_id` column that makes `append` idempotent.
 * - Other tables: a MergeTree per spec, partitioned by (site_id, month of its day column), or by
 *   (site_id, year) for a spec of `fewRowsADay` (a year's read then opens a part or two), ordered by
 *   site, day and the spec's key (site, key and day for a spec whose key leads its reads,
 *   `keyLeads`). `replaceRows` builds the partitions it touches anew in a staging table and swaps
 *   each in with `ALTER TABLE … REPLACE PARTITION` (`DROP PARTITION` for one left empty).
 * - `id`: drawn by the first process to create the `store_identity` table, as the default of its
 *   one column (so every process on the database reads the same one, whoever created it).
 */
export class ClickHouseEventStore implements EventStore {
  readonly dialect = clickhouseDialect;
  private identity = '';
  /** BOOLEAN columns of the tables this store created: results of that name and type UInt8 read as booleans. */
  private readonly booleanColumns = new Set<string>();
  private readonly bulkTables = new Set<string>();
  /** Settings of the statements that create or alter tables: what the server needs to allow `LowCardinality` columns. */
  private ddlSettings: StatementSettings = {};
  /** Settings of every INSERT: off, on a server that has them, what would make an insert other than svc's writes promise. */
  private insertSettings: StatementSettings = {};

  private constructor(private readonly http: ClickHouseHttp) {}

  static async open(options: ClickHouseEventStoreOptions): Promise<ClickHouseEventStore> {
    const { server, database } = parseClickHouseUrl(options.url);
    const admin = new ClickHouseHttp(server, undefined, REQUEST_TIMEOUT_MS);
    try {
      await admin.execute(`CREATE DATABASE IF NOT EXISTS ${database}`);
    } finally {
      admin.close();
    }
    const store = new ClickHouseEventStore(new ClickHouseHttp(server, database, REQUEST_TIMEOUT_MS));
    try {
      await store.init();
    } catch (err) {
      await store.close();
      throw err;
    }
    return store;
  }

  get id(): string {
    return this.identity;
  }

  get readSlots(): number {
    return READ_SOCKETS;
  }

  async init(): Promise<void> {
    // 18.16 is the oldest server whose SQL this adapter and the shared queries keep to; nothing newer is used.
    const [server] = await this.query<{ v: string }>(sql`SELECT version() AS v`);
    const [major = 0, minor = 0] = (server?.v ?? '').split('.').map(Number);
    if (major < 18 || (major === 18 && minor < 16)) throw new Error(`ClickHouse ${server?.v} is older than 18.16, the oldest svc runs on`);
    const settings = await this.query<{ name: string; value: string }>(
      sql`SELECT name, value FROM system.settings WHERE name IN ('allow_experimental_low_cardinality_type', ${joinSql(INSERT_SETTINGS_OFF.map((name) => sql`${name}`), ', ')})`,
    );
    // Servers before 19 create LowCardinality columns only when told to; later ones know the type without the setting.
    if (settings.some((s) => s.name === 'allow_experimental_low_cardinality_type' && s.value === '0')) this.ddlSettings = { allow_experimental_low_cardinality_type: 1 };
    this.insertSettings = Object.fromEntries(settings.filter((s) => (INSERT_SETTINGS_OFF as readonly string[]).includes(s.name)).map((s) => [s.name, 0]));
    await this.createTables([EVENTS_TABLE]);
    await this.http.execute(`CREATE TABLE IF NOT EXISTS store_identity (id String DEFAULT ${clickhouseLiteral(randomUUID())}) ENGINE = TinyLog`);
    const [row] = await this.query<{ d: string }>(
      sql`SELECT default_expression AS d FROM system.columns WHERE database = currentDatabase() AND table = 'store_identity' AND name = 'id'`,
    );
    this.identity = /^'([0-9a-f-]{36})'$/.exec(row?.d ?? '')?.[1] ?? '';
    if (this.identity === '') throw new Error(`store_identity holds no identity (${JSON.stringify(row?.d)})`);
  }

  async createTables(specs: readonly TableSpec[]): Promise<void> {
    for (const spec of specs) {
      checkedSpec(spec);
      for (const c of spec.columns) if (c.type === 'BOOLEAN') this.booleanColumns.add(c.name);
      const columns = spec.columns.map((c) => `${c.name} ${columnType(c)}`);
      // The sort key leaves out nullable key columns (a MergeTree sort key refuses them).
      const sortedKey = spec.key.filter((k) => !spec.columns.find((c) => c.name === k)!.nullable);
      const key = spec.keyLeads ? ['site_id', ...sortedKey, spec.dayColumn] : ['site_id', spec.dayColumn, ...sortedKey];
      const isEvents = spec.name === EVENTS_TABLE.name;
      if (isEvents) columns.push(`${BATCH_COLUMN} Int64`);
      const partition = isEvents ? PARTITIONS.month.of(spec.dayColumn) : `(site_id, ${PARTITIONS[spec.fewRowsADay ? 'year' : 'month'].of(spec.dayColumn)})`;
      await this.define(`CREATE TABLE IF NOT EXISTS ${spec.name} (${columns.join(', ')}) ENGINE = MergeTree PARTITION BY ${partition} ORDER BY (${[...new Set(key)].join(', ')})`);
      await this.upgradeColumns(spec);
    }
  }

  /**
   * Brings an existing table made from an earlier spec to this one: adds the columns it lacks, each
   * after the one the spec puts before it (a staging table swapped in must match it column by
   * column), makes Nullable the columns the spec now lets be NULL, and converts the `repeated`
   * columns it holds plain into LowCardinality, but for columns of the sort or partition key, which
   * ClickHouse cannot alter: an existing table keeps them plain, which reads the same answers.
   */
  private async upgradeColumns(spec: TableSpec): Promise<void> {
    const keys = new Set(['site_id', spec.dayColumn, ...spec.key]);
    const stored = await this.query<{ name: string; type: string }>(
      sql`SELECT name, type FROM system.columns WHERE database = currentDatabase() AND table = ${spec.name}`,
    );
    for (const [i, c] of spec.columns.entries()) {
      const type = stored.find((s) => s.name === c.name)?.type;
      if (type === undefined) await this.define(`ALTER TABLE ${spec.name} ADD COLUMN ${c.name} ${columnType(c)}${i > 0 ? ` AFTER ${spec.columns[i - 1]!.name}` : ''}`);
      else if (keys.has(c.name) || type === columnType(c)) continue;
      else if (c.repeated || (c.nullable && type === columnType({ ...c, nullable: false }))) await this.define(`ALTER TABLE ${spec.name} MODIFY COLUMN ${c.name} ${columnType(c)}`);
    }
  }

  /** Runs a statement that creates or alters a table, with the settings its column types need. */
  private define(statement: string): Promise<void> {
    return this.http.execute(statement, this.ddlSettings);
  }

  /**
   * Idempotent: the batch's id is a hash of its rows, stored on each of them; a month of the batch
   * whose rows are stored already (a retry after a lost answer) is not inserted again. Each month's
   * rows go in one INSERT (one part: all or nothing), under a query id of the batch and month, so a
   * retry that overlaps the first attempt still running is refused by the server instead of doubling.
   */
  async append(rows: readonly StoredEvent[]): Promise<void> {
    if (rows.length === 0) return;
    const byMonth = rowsByMonth(rows);
    const batch = createHash('sha256');
    for (const [, lines] of byMonth) for (const line of lines) batch.update(line).update('\n');
    const batchId = batch.digest().readBigInt64BE(0);
    const sites = [...new Set(rows.map((r) => r.siteId))];
    const days = rows.map((r) => r.day).sort();
    const stored = await this.query<{ m: number }>(
      sql`SELECT DISTINCT toYYYYMM(day) AS m FROM events WHERE site_id IN (${joinSql(sites.map((s) => sql`${s}`), ', ')})
        AND day BETWEEN ${trusted(this.dialect.dateLiteral(days[0]!))} AND ${trusted(this.dialect.dateLiteral(days[days.length - 1]!))} AND ${trusted(BATCH_COLUMN)} = ${batchId}`,
    );
    const done = new Set(stored.map((r) => Number(r.m)));
    for (const [month, lines] of byMonth) {
      if (done.has(month)) continue;
      await this.insertLines('events', lines, batchId, `svc-append-${batchId.toString(16)}-${month}`);
    }
  }

  private async insertLines(table: string, lines: readonly string[], batchId: bigint, queryId?: string): Promise<void> {
    const names = [...EVENT_COLUMNS.map((c) => c.name), BATCH_COLUMN].join(', ');
    const suffix = `\t${batchId}\n`;
    const body = lines.join(suffix) + suffix;
    await this.insert(`INSERT INTO ${table} (${names}) FORMAT TabSeparated\n${body}`, queryId ? { query_id: queryId } : {});
  }

  /** One INSERT per call (one part: all rows or none), the rows as JSON objects. */
  async appendRows(table: TableSpec, rows: readonly TableRow[]): Promise<void> {
    const spec = appendableSpec(table);
    if (spec.name === EVENTS_TABLE.name) throw new Error('events are appended with append()');
    if (rows.length === 0) return;
    const lines = rows.map((r) => JSON.stringify(Object.fromEntries(spec.columns.map((c, i) => [c.name, r[i]]))));
    await this.insert(`INSERT INTO ${spec.name} FORMAT JSONEachRow\n${lines.join('\n')}`);
  }

  /** ClickHouse's caches live in its server, not in this process. */
  async releaseIdleMemory(): Promise<void> {}

  /** An import holds nothing of ClickHouse's in this process: it runs as it is. */
  async whileImporting<T>(work: () => Promise<T>): Promise<T> {
    return work();
  }

  /**
   * A staging table of its own (the events table's structure), moved into `events` month by month
   * at commit (`ATTACH PARTITION … FROM`, each month whole), dropped at rollback.
   */
  async beginBulk(): Promise<BulkAppend> {
    const table = `events_bulk_${randomBytes(8).toString('hex')}`;
    await this.define(`CREATE TABLE ${table} AS events`);
    this.bulkTables.add(table);
    let open = true;
    let tail: Promise<unknown> = Promise.resolve();
    const serial = <T>(work: () => Promise<T>): Promise<T> => {
      const next = tail.then(work);
      tail = next.catch(() => undefined);
      return next;
    };
    const end = async (commit: boolean) => {
      if (!open) {
        if (commit) throw new Error('this bulk write has ended');
        return;
      }
      open = false;
      await serial(async () => {
        try {
          if (commit) {
            const months = await this.query<{ m: number }>(sql`SELECT DISTINCT toYYYYMM(day) AS m FROM ${trusted(table)} ORDER BY m`);
            for (const { m } of months) await this.http.execute(`ALTER TABLE events ATTACH PARTITION ${checkedPartition('month', m)} FROM ${table}`);
          }
        } finally {
          this.bulkTables.delete(table);
          await this.http.execute(`DROP TABLE IF EXISTS ${table}`);
        }
      });
    };
    return {
      append: (rows) =>
        serial(async () => {
          if (!open) throw new Error('this bulk write has ended');
          if (rows.length === 0) return;
          const lines = [...rowsByMonth(rows).values()].flat();
          await this.insertLines(table, lines, 0n);
        }),
      commit: () => end(true),
      rollback: () => end(false),
    };
  }

  async query<T = Record<string, unknown>>(query: Sql, options: ReadOptions = {}): Promise<T[]> {
    return (await this.read<T>(query, options)).rows;
  }

  async queryPage<T = Record<string, unknown>>(query: Sql, options: ReadOptions = {}): Promise<Page<T>> {
    // Totals over every group, HAVING aside: a page's HAVING picks the keys shown, not what they are a share of.
    return this.read<T>(query, options, { totals_mode: 'before_having' });
  }

  /** A read in the JSONCompact format, whose answer carries the rows before LIMIT and the totals row besides the rows. */
  private async read<T>(query: Sql, options: ReadOptions, extra: StatementSettings = {}): Promise<Page<T>> {
    const text = inlineParams(query);
    const { deadlineMs } = options;
    // The server cancels the statement past max_execution_time (whole seconds) with error 159.
    const deadline: StatementSettings = deadlineMs === undefined ? {} : { max_execution_time: Math.ceil(deadlineMs / 1000), timeout_overflow_mode: 'throw' };
    const result = await this.http.select(text, { ...deadline, ...extra }).catch((err: unknown) => {
      if (deadlineMs !== undefined && err instanceof ClickHouseError && err.code === TIMEOUT_EXCEEDED) throw new StatementTimeout(deadlineMs, { cause: err });
      if (err instanceof ClickHouseError && err.code === MEMORY_LIMIT_EXCEEDED) throw new StatementOutOfMemory({ cause: err });
      throw err;
    });
    const names = result.meta.map((m) => m.name);
    const decoders = result.meta.map((m) => decoderOf(m.name, m.type, this.booleanColumns));
    const decode = (row: readonly unknown[]): T => {
      const out: Record<string, unknown> = {};
      for (let i = 0; i < names.length; i++) out[names[i]!] = decoders[i]!(row[i]);
      return out as T;
    };
    const { totals } = result;
    return {
      rows: result.data.map(decode),
      rowsBeforeLimit: result.rows_before_limit_at_least ?? null,
      totals: totals === undefined ? null : decode(totals),
    };
  }

  async replaceRows(table: TableSpec, scope: RowScope, rows: Rows | null): Promise<void> {
    const spec = checkedSpec(table);
    if (spec.name !== EVENTS_TABLE.name) return this.replaceTogether([{ table, scope, rows }]);
    if (rows !== null) throw new Error('the events table takes rows by append only: replaceRows only removes them');
    return this.removeEvents(scopePredicate(spec, scope));
  }

  /** Every replacement's partitions built in staging tables first, then swapped in one after another. */
  async replaceTogether(replacements: readonly RowReplacement[]): Promise<void> {
    const scratch: string[] = [];
    try {
      const swaps: Sql[] = [];
      for (const replacement of replacements) swaps.push(...(await this.stagePartitions(replacement, scratch)));
      // Each partition (site, month or year) is swapped whole: a reader sees all of its old rows or all of its new.
      for (const swap of swaps) await this.command(swap);
    } finally {
      for (const table of scratch) await this.http.execute(`DROP TABLE IF EXISTS ${table}`);
    }
  }

  /**
   * Builds, in a staging table, the partitions (site, month or year) a replacement touches as they are to
   * be, and returns the statements that swap them in (`ALTER TABLE … REPLACE PARTITION`, or `DROP
   * PARTITION` for a partition left with no rows). Names the tables it creates in `scratch`, for
   * the caller to drop.
   */
  private async stagePartitions({ table, scope, rows }: RowReplacement, scratch: string[]): Promise<Sql[]> {
    const spec = checkedSpec(table);
    if (spec.name === EVENTS_TABLE.name) throw new Error('the events table takes rows by append only: replaceRows only removes them');
    const inScope = scopePredicate(spec, scope);
    const unit = await this.partitionUnit(spec);
    const partition = trusted(PARTITIONS[unit].of(spec.dayColumn));
    const suffix = randomBytes(8).toString('hex');
    const fresh = `${spec.name}_new_${suffix}`;
    const staging = `${spec.name}_replace_${suffix}`;
    const sources = [sql`SELECT DISTINCT ${partition} AS m FROM ${trusted(spec.name)} WHERE ${inScope}`];
    if (rows !== null) {
      // The new rows by position into a table of the spec's columns, where the scope can name them.
      scratch.push(fresh);
      await this.define(`CREATE TABLE ${fresh} AS ${spec.name} ENGINE = Memory`);
      for (const select of selectsOf(rows)) await this.insert(inlineParams(sql`INSERT INTO ${trusted(fresh)} SELECT * FROM (${select})`));
      sources.push(sql`SELECT DISTINCT ${partition} AS m FROM ${trusted(fresh)} WHERE ${inScope}`);
    }
    const values = (await this.query<{ m: number }>(sql`SELECT DISTINCT m FROM (${joinSql(sources, ' UNION ALL ')}) ORDER BY m`)).map((r) => checkedPartition(unit, r.m));
    if (values.length === 0) return [];
    const touched = sql`site_id = ${scope.siteId} AND ${partition} IN (${trusted(values.join(', '))})`;
    scratch.push(staging);
    await this.define(`CREATE TABLE ${staging} AS ${spec.name}`);
    await this.insert(inlineParams(sql`INSERT INTO ${trusted(staging)} SELECT * FROM ${trusted(spec.name)} WHERE ${touched} AND NOT (${inScope})`));
    if (rows !== null) await this.insert(inlineParams(sql`INSERT INTO ${trusted(staging)} SELECT * FROM ${trusted(fresh)} WHERE ${inScope}`));
    // A partition left with no rows is dropped: from 26.6 the server refuses to replace one from an empty staging partition.
    const staged = new Set((await this.query<{ m: number }>(sql`SELECT DISTINCT ${partition} AS m FROM ${trusted(staging)}`)).map((r) => checkedPartition(unit, r.m)));
    return values.map((m) =>
      staged.has(m)
        ? sql`ALTER TABLE ${trusted(spec.name)} REPLACE PARTITION (${scope.siteId}, ${trusted(m)}) FROM ${trusted(staging)}`
        : sql`ALTER TABLE ${trusted(spec.name)} DROP PARTITION (${scope.siteId}, ${trusted(m)})`,
    );
  }

  /** An INSERT, with the settings every insert takes (`INSERT_SETTINGS_OFF`) and `settings`. */
  private insert(statement: string, settings: StatementSettings = {}): Promise<void> {
    return this.http.execute(statement, { ...this.insertSettings, ...settings });
  }

  /**
   * A table's partition unit, as the table was made, read from its key on the server at each
   * replacement: ClickHouse cannot change a partition key, so a table made by month before its spec
   * said `fewRowsADay` stays so (the same answers), and a REPLACE PARTITION naming a partition of
   * the other unit would change nothing without an error.
   */
  private async partitionUnit(spec: TableSpec): Promise<PartitionUnit> {
    const [table] = await this.query<{ k: string }>(sql`SELECT partition_key AS k FROM system.tables WHERE database = currentDatabase() AND name = ${spec.name}`);
    if (!table) throw new Error(`table ${spec.name} does not exist: createTables makes it`);
    const unit = (Object.keys(PARTITIONS) as PartitionUnit[]).find((u) => table.k === `(site_id, ${PARTITIONS[u].of(spec.dayColumn)})`);
    if (!unit) throw new Error(`table ${spec.name}: its partition key ${JSON.stringify(table.k)} is not (site_id, the month or year of ${spec.dayColumn})`);
    return unit;
  }

  /**
   * Removes events by a mutation, waited for. Never by dropping a month's partition, even one that
   * holds nothing else when looked at: the partition holds every site's events of the month, and rows
   * arriving between the look and the drop (another site's import of that month, collection in the
   * current one) would go with it. Retention removes days that readers no longer read raw, so a
   * reader meeting its mutation half-applied reads the same answers; an import's removal (its events
   * deleted or replaced) may be read half-applied while it runs, as an import's months are read
   * attached one after another.
   */
  private async removeEvents(inScope: Sql): Promise<void> {
    const [held] = await this.query<{ n: bigint }>(sql`SELECT count() AS n FROM (SELECT 1 FROM events WHERE ${inScope} LIMIT 1)`);
    if (held!.n === 0n) return;
    await this.command(sql`ALTER TABLE events DELETE WHERE ${inScope}`);
    for (;;) {
      const [left] = await this.query<{ n: bigint }>(sql`SELECT count() AS n FROM system.mutations WHERE database = currentDatabase() AND table = 'events' AND is_done = 0`);
      if (left!.n === 0n) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  private command(statement: Sql): Promise<void> {
    return this.http.execute(inlineParams(statement));
  }

  async close(): Promise<void> {
    // A bulk write still open is abandoned: its staging table goes.
    for (const table of this.bulkTables) await this.http.execute(`DROP TABLE IF EXISTS ${table}`).catch(() => undefined);
    this.bulkTables.clear();
    this.http.close();
  }
}

/** The server and database of a ClickHouse URL (`http(s)://[user:password@]host:port/database`). */
export function parseClickHouseUrl(url: string): { server: URL; database: string } {
  const parsed = new URL(url);
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error(`a ClickHouse URL is http(s)://…, not ${parsed.protocol}`);
  const database = decodeURIComponent(parsed.pathname.replace(/^\//, ''));
  if (!DATABASE.test(database)) throw new Error(`a ClickHouse URL names its database as the path (letters, digits, _): ${JSON.stringify(database)}`);
  return { server: parsed, database };
}

function columnType(c: ColumnSpec): string {
  // A list is an Array, which ClickHouse never makes Nullable (a list column never is).
  const type = c.list ? `Array(${TYPES[c.type]})` : c.nullable ? `Nullable(${TYPES[c.type]})` : TYPES[c.type];
  return c.repeated ? `LowCardinality(${type})` : type;
}

/** A partition value of a unit (YYYYMM, YYYY) read back from the server, checked before it becomes SQL text. */
function checkedPartition(unit: PartitionUnit, value: unknown): string {
  const text = String(value);
  if (!PARTITIONS[unit].value.test(text)) throw new Error(`not a ${unit} partition: ${text}`);
  return text;
}

type Decoder = (value: unknown) => unknown;

/** How a result column of a type reads in JavaScript, as the DuckDB adapter gives it. */
function decoderOf(name: string, type: string, booleans: ReadonlySet<string>): Decoder {
  const dictionary = /^LowCardinality\((.*)\)$/.exec(type);
  if (dictionary) return decoderOf(name, dictionary[1]!, booleans);
  const array = /^Array\((.*)\)$/.exec(type);
  if (array) {
    const item = decoderOf(name, array[1]!, booleans);
    return (v) => (v as unknown[]).map(item);
  }
  const nullable = /^Nullable\((.*)\)$/.exec(type);
  if (nullable) {
    const inner = decoderOf(name, nullable[1]!, booleans);
    return (v) => (v === null ? null : inner(v));
  }
  // 64-bit integers come as JSON strings; counts and sums read as bigints, as from DuckDB.
  if (/^U?Int(64|128)$/.test(type)) return (v) => BigInt(v as string);
  if (type === 'UInt8' && booleans.has(name)) return (v) => v === 1 || v === '1';
  return (v) => v;
}



function scopePredicate(spec: TableSpec, scope: RowScope): Sql {
  const day = trusted(spec.dayColumn);
  const to = trusted(clickhouseDialect.dateLiteral(scope.days.to));
  const parts = [
    sql`site_id = ${scope.siteId}`,
    scope.days.from === null ? sql`${day} <= ${to}` : sql`${day} BETWEEN ${trusted(clickhouseDialect.dateLiteral(scope.days.from))} AND ${to}`,
  ];
  for (const [name, value] of Object.entries(scope.where ?? {})) {
    const column = spec.columns.find((c) => c.name === name);
    if (!column) throw new Error(`table ${spec.name} has no column ${name}`);
    // A NULL matches no value and leaves the predicate 0, never NULL: a mutation's DELETE (on 18.16)
    // and a swap's `NOT (scope)` would drop a row whose predicate is NULL.
    parts.push(column.nullable ? sql`ifNull(${trusted(name)} = ${value}, 0)` : sql`${trusted(name)} = ${value}`);
  }
  return joinSql(parts, ' AND ');
}

/** The events as TabSeparated lines (without the batch column), grouped by month of their day, every value checked. */
function rowsByMonth(rows: readonly StoredEvent[]): Map<number, string[]> {
  const out = new Map<number, string[]>();
  for (const row of rows) {
    const line = EVENT_COLUMNS.map((c) => tsvValue(c, c.value(row))).join('\t');
    const month = Number(row.day.slice(0, 4) + row.day.slice(5, 7));
    let lines = out.get(month);
    if (!lines) out.set(month, (lines = []));
    lines.push(line);
  }
  return out;
}

const TSV_ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r', '\0': '\\0', '\b': '\\b', '\f': '\\f' };
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** A value as a TabSeparated field of its column, refused when the column cannot hold it exactly. */
function tsvValue(c: ColumnSpec, v: EventColumnValue): string {
  if (v === null) {
    if (!c.nullable) throw new Error(`column ${c.name} is never NULL`);
    return '\\N';
  }
  const refuse = () => new RangeError(`column ${c.name} (${c.type}) cannot hold ${String(v)}`);
  switch (c.type) {
    case 'VARCHAR':
      if (typeof v !== 'string') throw refuse();
      return v.replace(/[\\\t\n\r\0\b\f]/g, (ch) => TSV_ESCAPES[ch]!);
    case 'BOOLEAN':
      if (typeof v !== 'boolean') throw refuse();
      return v ? '1' : '0';
    case 'INTEGER':
      if (typeof v !== 'number' || !Number.isInteger(v) || v < -(2 ** 31) || v >= 2 ** 31) throw refuse();
      return String(v);
    case 'BIGINT':
      if (typeof v === 'bigint' ? v < INT64_MIN || v > INT64_MAX : typeof v !== 'number' || !Number.isSafeInteger(v)) throw refuse();
      return String(v);
    case 'DATE': {
      const ms = typeof v === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(v) ? Date.parse(`${v}T00:00:00Z`) : NaN;
      // ClickHouse's Date runs from 1970 to 2105; Date.parse also takes a day past its month's end.
      if (Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== v || v < '1970-01-01' || v > '2105-12-31') throw refuse();
      return v as string;
    }
  }
}
