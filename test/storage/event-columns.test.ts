// An events table made before the revenue, hostname and import columns existed gains them when the store
// opens: older rows read NULL there, new rows keep theirs, on DuckDB (a file written before) and ClickHouse (a
// database made before, whose batch column stays last).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { EVENT_COLUMNS } from '../../src/storage/events/schema.js';
import { ClickHouseEventStore } from '../../src/storage/events/clickhouse.js';
import { DuckDbEventStore } from '../../src/storage/events/duckdb.js';
import type { EventStore } from '../../src/storage/events/types.js';
import { sql } from '../../src/sql/sql.js';
import { freshDatabaseUrl } from '../../support/clickhouse.js';
import { event } from '../../support/events.js';

const ADDED = ['revenue_minor', 'revenue_currency', 'hostname', 'lcp', 'inp', 'cls', 'ttfb', 'import_id'];
const EARLIER = EVENT_COLUMNS.filter((c) => !ADDED.includes(c.name));
const TS = Date.UTC(2026, 5, 1, 10);

async function checkUpgraded(store: EventStore): Promise<void> {
  await store.append([event({ siteId: 's', ts: TS + 1, name: 'order', revenueMinor: 1999, revenueCurrency: 'EUR', hostname: 'shop.s.test' })]);
  const rows = await store.query<{ ts: unknown; revenue_minor: unknown; revenue_currency: string | null; hostname: string | null }>(
    sql`SELECT ts, revenue_minor, revenue_currency, hostname FROM events WHERE site_id = 's' ORDER BY ts`,
  );
  assert.deepEqual(
    rows.map((r) => [Number(r.ts), r.revenue_minor === null ? null : Number(r.revenue_minor), r.revenue_currency, r.hostname]),
    [
      [TS, null, null, null],
      [TS + 1, 1999, 'EUR', 'shop.s.test'],
    ],
  );
}

test('duckdb: a file whose events table has no revenue or hostname columns gains them', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-columns-'));
  const path = join(dir, 'events.duckdb');
  try {
    const instance = await DuckDBInstance.create(path);
    const conn = await instance.connect();
    await conn.run(`CREATE TABLE events (${EARLIER.map((c) => `${c.name} ${c.type}${c.nullable ? '' : ' NOT NULL'}`).join(', ')})`);
    await conn.run(`INSERT INTO events (site_id, ts, day, visitor_id, session_id, session_start, name, page) VALUES ('s', ${TS}, DATE '2026-06-01', 1, 1, true, 'pageview', '/')`);
    conn.closeSync();
    instance.closeSync();
    const store = await DuckDbEventStore.open({ path, readers: 1 });
    try {
      await checkUpgraded(store);
    } finally {
      await store.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('clickhouse: a database whose events table has no revenue or hostname columns gains them, before its batch column', async () => {
  const url = await freshDatabaseUrl();
  const server = new URL(url);
  const database = server.pathname.slice(1);
  const run = async (query: string) => {
    const res = await fetch(`${server.protocol}//${server.host}/`, { method: 'POST', body: query });
    assert.equal(res.status, 200, await res.text());
  };
  const types: Record<string, string> = { VARCHAR: 'String', BIGINT: 'Int64', DATE: 'Date', BOOLEAN: 'UInt8', INTEGER: 'Int32' };
  await run(`CREATE DATABASE ${database}`);
  const columns = EARLIER.map((c) => `${c.name} ${c.nullable ? `Nullable(${types[c.type]})` : types[c.type]}`);
  await run(`CREATE TABLE ${database}.events (${columns.join(', ')}, batch_id Int64) ENGINE = MergeTree PARTITION BY toYYYYMM(day) ORDER BY (site_id, day, ts)`);
  await run(`INSERT INTO ${database}.events (site_id, ts, day, visitor_id, session_id, session_start, name, page, batch_id) VALUES ('s', ${TS}, '2026-06-01', 1, 1, 1, 'pageview', '/', 7)`);
  const store = await ClickHouseEventStore.open({ url });
  try {
    await checkUpgraded(store);
    // 18.16's system.columns has no position column: it lists a table's columns in their order.
    const order = await store.query<{ name: string }>(sql`SELECT name FROM system.columns WHERE database = currentDatabase() AND table = 'events'`);
    assert.deepEqual(order.map((c) => c.name), [...EVENT_COLUMNS.map((c) => c.name), 'batch_id']);
  } finally {
    await store.close();
  }
});
