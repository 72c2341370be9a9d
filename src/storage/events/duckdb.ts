import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DuckDBConnection, DuckDBDateValue, DuckDBInstance, type DuckDBValue } from '@duckdb/node-api';
import { EVENT_COLUMNS, type StoredEvent } from './schema.js';
import { duckdbDialect } from './dialect.js';
import type { EventStore, SqlValue } from './types.js';

const DAY_MS = 86_400_000;

export function dayToEpochDays(day: string): number {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return Math.round(Date.UTC(y, m - 1, d) / DAY_MS);
}

/**
 * Serializes the work of one DuckDB connection: a connection runs one statement at a time, and
 * a transaction (BEGIN … COMMIT around an appender) must not interleave with anything else.
 */
class SerialConnection {
  private tail: Promise<unknown> = Promise.resolve();
  constructor(readonly conn: DuckDBConnection) {}
  run<T>(work: (conn: DuckDBConnection) => Promise<T>): Promise<T> {
    const next = this.tail.then(() => work(this.conn));
    this.tail = next.catch(() => undefined);
    return next;
  }
}

export interface DuckDbEventStoreOptions {
  /** File path, or ':memory:'. */
  path: string;
  /** Read connections; DuckDB parallelizes inside a query too, so a few are enough. */
  readers?: number;
}

export class DuckDbEventStore implements EventStore {
  readonly dialect = duckdbDialect;
  private writer!: SerialConnection;
  private readers: SerialConnection[] = [];
  private nextReader = 0;

  private constructor(private readonly instance: DuckDBInstance) {}

  static async open(options: DuckDbEventStoreOptions): Promise<DuckDbEventStore> {
    if (options.path !== ':memory:') mkdirSync(dirname(options.path), { recursive: true });
    const instance = await DuckDBInstance.create(options.path);
    const store = new DuckDbEventStore(instance);
    store.writer = new SerialConnection(await instance.connect());
    for (let i = 0; i < (options.readers ?? 3); i++) {
      store.readers.push(new SerialConnection(await instance.connect()));
    }
    await store.init();
    return store;
  }

  async init(): Promise<void> {
    const columns = EVENT_COLUMNS.map(([name, type]) => `${name} ${type}`).join(', ');
    await this.exec(`CREATE TABLE IF NOT EXISTS events (${columns})`);
  }

  append(rows: readonly StoredEvent[]): Promise<void> {
    if (rows.length === 0) return Promise.resolve();
    return this.writer.run(async (conn) => {
      await conn.run('BEGIN TRANSACTION');
      try {
        const appender = await conn.createAppender('events');
        for (const row of rows) appendRow(appender, row);
        appender.closeSync(); // flushes into the open transaction
        await conn.run('COMMIT');
      } catch (err) {
        await conn.run('ROLLBACK').catch(() => undefined);
        throw err;
      }
    });
  }

  query<T = Record<string, unknown>>(sql: string, params: readonly SqlValue[] = []): Promise<T[]> {
    const reader = this.readers[this.nextReader++ % this.readers.length]!;
    return reader.run(async (conn) => {
      const result = await conn.runAndReadAll(sql, params as DuckDBValue[]);
      return result.getRowObjectsJS() as T[];
    });
  }

  exec(sql: string, params: readonly SqlValue[] = []): Promise<void> {
    return this.writer.run(async (conn) => {
      await conn.run(sql, params as DuckDBValue[]);
    });
  }

  async close(): Promise<void> {
    // Wait for queued work, then release the file so another process may open it.
    await this.writer.run(async () => undefined);
    await Promise.all(this.readers.map((r) => r.run(async () => undefined)));
    for (const c of [this.writer, ...this.readers]) c.conn.closeSync();
    this.instance.closeSync();
  }
}

type Appender = Awaited<ReturnType<DuckDBConnection['createAppender']>>;

function appendText(a: Appender, v: string | null): void {
  if (v === null) a.appendNull();
  else a.appendVarchar(v);
}

function appendInt(a: Appender, v: number | null): void {
  if (v === null) a.appendNull();
  else a.appendInteger(v);
}

// Order must follow EVENT_COLUMNS.
function appendRow(a: Appender, e: StoredEvent): void {
  a.appendVarchar(e.siteId);
  a.appendBigInt(BigInt(e.ts));
  a.appendDate(new DuckDBDateValue(dayToEpochDays(e.day)));
  a.appendBigInt(e.visitorId);
  a.appendBigInt(e.sessionId);
  a.appendBoolean(e.sessionStart);
  a.appendVarchar(e.name);
  a.appendVarchar(e.page);
  appendText(a, e.entryPage);
  appendText(a, e.referrer);
  appendText(a, e.utmSource);
  appendText(a, e.utmMedium);
  appendText(a, e.utmCampaign);
  appendText(a, e.country);
  appendText(a, e.region);
  appendText(a, e.city);
  appendText(a, e.browser);
  appendText(a, e.os);
  appendText(a, e.device);
  appendInt(a, e.screenWidth);
  appendText(a, e.language);
  appendText(a, e.props);
  appendInt(a, e.engagedMs);
  appendInt(a, e.scrollDepth);
  a.endRow();
}
