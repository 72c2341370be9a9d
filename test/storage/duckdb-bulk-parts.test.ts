// A DuckDB bulk write sends the row that starts each row group after the first by a statement (the
// appender would write the full row group before it inside its synchronous flush): the parts end
// at row group boundaries, ROW_GROUP_ROWS is the store's, and rows either way arrive once, in
// order, with every column, or not at all.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bulkParts, DuckDbEventStore } from '../../src/storage/events/duckdb.js';
import { ROW_GROUP_ROWS } from '../../src/storage/events/duckdb-file.js';
import { sql } from '../../src/sql/sql.js';
import { event } from '../../support/events.js';
import type { StoredEvent } from '../../src/storage/events/schema.js';

const G = ROW_GROUP_ROWS;

test('bulk parts end at row group boundaries and mark the parts that start one after the first', () => {
  const cases: Array<[number, number, Array<[number, number, boolean]>]> = [
    [0, 5000, [[0, 5000, false]]],
    [0, G, [[0, G, false]]],
    [0, G + 1, [[0, G, false], [G, 1, true]]],
    [G - 2048, 2048, [[0, 2048, false]]],
    [G, 2048, [[0, 2048, true]]],
    [G - 10, 2048, [[0, 10, false], [10, 2038, true]]],
    [5, 2 * G, [[0, G - 5, false], [G - 5, G, true], [2 * G - 5, 5, true]]],
    [G + 1, 0, []],
  ];
  for (const [handed, rows, parts] of cases) {
    assert.deepEqual(bulkParts(handed, rows).map((p) => [p.offset, p.count, p.startsRowGroup]), parts, `${rows} rows after ${handed}`);
  }
});

test('a bulk write across row groups commits every row once in order, rolls back whole, and keeps apart from another', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-bulk-parts-'));
  try {
    const store = await DuckDbEventStore.open({ path: join(dir, 'events.duckdb'), readers: 1 });
    const rowsOf = (siteId: string) =>
      Array.from({ length: 2 * G + 3 }, (_, i) => event({ siteId, ts: Date.UTC(2026, 5, 1) + i, page: `/p${i % 7}`, visitorId: BigInt(i), lcp: i % 5 === 0 ? i % 10_000 : null }));
    const inCalls = async (bulk: Awaited<ReturnType<DuckDbEventStore['beginBulk']>>, rows: ReturnType<typeof rowsOf>) => {
      for (let i = 0; i < rows.length; i += 2048) await bulk.append(rows.slice(i, i + 2048));
    };
    const [kept, gone] = [await store.beginBulk(), await store.beginBulk()];
    const keptRows = rowsOf('kept');
    await Promise.all([inCalls(kept, keptRows), inCalls(gone, rowsOf('gone'))]);
    const count = async (siteId: string) => (await store.query<{ n: bigint }>(sql`SELECT count(*) AS n FROM events WHERE site_id = ${siteId}`))[0]!.n;
    assert.equal(await count('kept'), 0n, 'nothing before commit');
    await gone.rollback();
    await kept.commit();
    assert.equal(await count('gone'), 0n, 'a rollback takes back the rows that went in by a statement too');
    // In order: the visitor ids, numbered as appended, rise with the table's row order.
    const [summary] = await store.query<{ n: bigint; visitors: bigint; lcp: bigint; pages: bigint; out_of_order: bigint }>(
      sql`SELECT count(*) AS n, count(DISTINCT visitor_id) AS visitors, sum(lcp) AS lcp, count(DISTINCT page) AS pages,
        count(*) FILTER (WHERE visitor_id <> rowid) AS out_of_order FROM events WHERE site_id = 'kept'`,
    );
    const lcp = keptRows.reduce((sum, r) => sum + BigInt(r.lcp ?? 0), 0n);
    assert.deepEqual(summary, { n: BigInt(keptRows.length), visitors: BigInt(keptRows.length), lcp, pages: 7n, out_of_order: 0n });
    // ROW_GROUP_ROWS is the store's: the committed rows lie in row groups of that many.
    const groups = await store.query<{ rows: bigint }>(sql`SELECT sum(count) AS rows FROM pragma_storage_info('events') WHERE column_id = 0 AND segment_type <> 'VALIDITY' GROUP BY row_group_id ORDER BY row_group_id`);
    assert.deepEqual(groups.map((g) => Number(g.rows)), [G, G, 3]);
    await store.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("the row that starts a row group is checked and stored as the appender's rows are", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-bulk-first-row-'));
  try {
    const store = await DuckDbEventStore.open({ path: join(dir, 'events.duckdb'), readers: 1 });
    const rowsOf = (siteId: string, bad?: { at: number; change: Partial<StoredEvent> }) =>
      Array.from({ length: G + 2 }, (_, i) => ({ ...event({ siteId, ts: Date.UTC(2026, 5, 1) + i, page: '/p', visitorId: BigInt(i), engagedMs: 1200, lcp: 2500, revenueMinor: 2 ** 40 }), ...(i === bad?.at ? bad.change : {}) }));
    const write = async (rows: StoredEvent[]) => {
      const bulk = await store.beginBulk();
      try {
        for (let i = 0; i < rows.length; i += 2048) await bulk.append(rows.slice(i, i + 2048));
        await bulk.commit();
      } catch (err) {
        await bulk.rollback();
        throw err;
      }
    };
    // G starts the second row group (by a statement), G + 1 follows it (by the appender).
    for (const at of [G, G + 1]) {
      await assert.rejects(write(rowsOf('bad', { at, change: { engagedMs: 12.5 } })), /not a 32-bit integer/, `a fraction at row ${at}`);
      await assert.rejects(write(rowsOf('bad', { at, change: { day: '2026-6-1' } })), /not a calendar day/, `a loose day at row ${at}`);
      await assert.rejects(write(rowsOf('bad', { at, change: { revenueMinor: 2 ** 60 } })), /not a safe integer/, `an inexact integer at row ${at}`);
    }
    await write(rowsOf('good'));
    // Rows G - 1 (appended), G (by the statement) and G + 1 hold the same values but for their instant and visitor.
    const stored = await store.query<Record<string, unknown>>(sql`SELECT * EXCLUDE (ts, visitor_id) FROM events WHERE site_id = 'good' AND visitor_id BETWEEN ${G - 1} AND ${G + 1} ORDER BY visitor_id`);
    assert.equal(stored.length, 3);
    assert.deepEqual(stored[1], stored[0]);
    assert.deepEqual(stored[2], stored[0]);
    assert.equal((await store.query(sql`SELECT 1 FROM events WHERE site_id = 'bad'`)).length, 0);
    await store.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
