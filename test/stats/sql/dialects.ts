// What the builders of src/stats/sql are tested with: both dialects (plain objects, no server), a
// statement flattened to its text (whitespace normalized) and parameters, and an in-memory DuckDB
// store with the rollup tables, to prove a statement runs; queries planned as the read routes plan them.
import assert from 'node:assert/strict';
import { parseQuery, type QueryKind, type RawParams } from '../../../src/core/query.js';
import type { Dialect } from '../../../src/sql/dialect.js';
import type { Sql, SqlValue } from '../../../src/sql/sql.js';
import { DuckDbEventStore } from '../../../src/storage/events/duckdb.js';
import type { EventStore } from '../../../src/storage/events/types.js';
import { clickhouseDialect } from '../../../src/storage/events/clickhouse-dialect.js';
import { duckdbDialect } from '../../../src/storage/events/duckdb-dialect.js';
import { planQuery, type PlanInputs, type PlannedQuery } from '../../../src/stats/planner.js';
import { ROLLUP_TABLES } from '../../../src/stats/rollups/tables.js';

export const DIALECTS: ReadonlyArray<{ name: 'duckdb' | 'clickhouse'; d: Dialect }> = [
  { name: 'duckdb', d: duckdbDialect },
  { name: 'clickhouse', d: clickhouseDialect },
];

/** A statement's text with runs of whitespace as one space, and its parameters. */
export function flat(s: Sql): { text: string; params: readonly SqlValue[] } {
  return { text: s.text.replace(/\s+/g, ' ').trim(), params: s.params };
}

/**
 * A statement's flattened form, checked first for the invariant every builder keeps: one `?` per
 * parameter (client text only ever a parameter, never spliced).
 */
export function checked(s: Sql): { text: string; params: readonly SqlValue[] } {
  const f = flat(s);
  assert.equal(f.text.split('?').length - 1, f.params.length, `placeholders and parameters of: ${f.text}`);
  return f;
}

/** Runs `work` over an in-memory DuckDB store with the rollup tables, closed after. */
export async function withDuckDb<T>(work: (store: EventStore) => Promise<T>): Promise<T> {
  const store = await DuckDbEventStore.open({ path: ':memory:', readers: 1 });
  try {
    await store.createTables(ROLLUP_TABLES);
    return await work(store);
  } finally {
    await store.close();
  }
}

/** Today 2026-03-20 in UTC (raw window from 2026-02-19); rollups up to the 19th. */
export const NOW = Date.UTC(2026, 2, 20, 12);
const SITE = { id: 's', timezone: 'UTC' };

/** A query of site `s` planned as the read routes plan it, the watermark the 19th unless given. */
export function planned(kind: QueryKind, params: RawParams, inputs: Partial<PlanInputs> = {}): PlannedQuery {
  return planQuery(parseQuery(kind, params, SITE, NOW), { watermark: '2026-03-19', retentionMonths: null, rawDays: 30, ...inputs });
}
