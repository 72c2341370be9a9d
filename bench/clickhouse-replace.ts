// bench/clickhouse-replace: the two ways ClickHouse 18.16 can replace a site's rollup rows without a
// synchronous DELETE, on a private server (support/clickhouse.ts), for one rollup rewrite of
// dim_daily (31 days across two months, BENCH_KEYS keys a day, beside 9 other sites of the same size):
//
// - partition swap (what the adapter does): `EventStore.replaceRows`, partitions (site, month)
//   rebuilt in a staging table and swapped in with REPLACE PARTITION; reads are plain;
// - versions: a ReplacingMergeTree with a version column, the rewrite a plain INSERT of the new rows
//   (removed keys would still need tombstones, not counted here); reads need FINAL.
//
// Prints the median write time of the rewrite and the median time of a month's breakdown read.
//
//   node --import tsx bench/clickhouse-replace.ts      (BENCH_KEYS, BENCH_REPEAT to scale)
import { ClickHouseEventStore } from '../src/storage/events/clickhouse.js';
import { ClickHouseHttp } from '../src/storage/events/clickhouse-http.js';
import { inlineParams } from '../src/storage/events/clickhouse-literal.js';
import { DIM_DAILY } from '../src/stats/rollups/tables.js';
import { sql, trusted, type Sql } from '../src/sql/sql.js';
import { startClickHouse } from '../support/clickhouse.js';

const KEYS = Number(process.env.BENCH_KEYS ?? 3000);
const REPEAT = Number(process.env.BENCH_REPEAT ?? 7);
const SITES = 10;
const FROM = '2026-01-16';
const TO = '2026-02-15';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function timed(work: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await work();
  return performance.now() - start;
}

const server = await startClickHouse();
try {
  const store = await ClickHouseEventStore.open({ url: `${server.url}/bench` });
  await store.createTables([DIM_DAILY]);
  const columns = DIM_DAILY.columns.map((c) => c.name).join(', ');
  // The rows of a rewrite: every site, day and key of the two months, generated server-side.
  const generated = (site: string, generation: number) =>
    sql`SELECT ${site} AS site, toDate('2026-01-01') + intDiv(number, ${KEYS}) AS d, 'page' AS dim, concat('/p/', toString(number % ${KEYS})) AS k,
      toInt64(number % 97 + ${generation}) AS visitors, toInt64(number % 13) AS pageviews, toInt64(number % 17) AS events, toInt64(number % 5) AS sessions,
      toInt64(number % 3) AS bounces, toInt64(number % 1000) AS duration_ms FROM system.numbers LIMIT ${59 * KEYS}`;
  const versioned = `dim_daily_versions`;
  // The versioned table is not the adapter's: its statements go by a connection of their own.
  const client = new ClickHouseHttp(new URL(server.url), 'bench', 300_000);
  const command = (statement: Sql) => client.execute(inlineParams(statement));
  await command(trusted(
    `CREATE TABLE ${versioned} (${DIM_DAILY.columns.map((c) => `${c.name} ${c.type === 'VARCHAR' ? 'String' : c.type === 'DATE' ? 'Date' : 'Int64'}`).join(', ')}, version UInt64)
      ENGINE = ReplacingMergeTree(version) PARTITION BY (site_id, toYYYYMM(day)) ORDER BY (site_id, day, dimension, key)`,
  ));
  for (let s = 0; s < SITES; s++) {
    const site = `site${s}`;
    await store.replaceRows(DIM_DAILY, { siteId: site, days: { from: '2026-01-01', to: '2026-02-28' } }, generated(site, 0));
    await command(sql`INSERT INTO ${trusted(versioned)} SELECT *, 0 FROM (${generated(site, 0)})`);
  }
  const scope = { siteId: 'site0', days: { from: FROM, to: TO } };
  const swap: number[] = [];
  const versions: number[] = [];
  for (let i = 1; i <= REPEAT; i++) {
    swap.push(await timed(() => store.replaceRows(DIM_DAILY, scope, generated('site0', i))));
    versions.push(
      await timed(() => command(sql`INSERT INTO ${trusted(versioned)} SELECT *, ${i} FROM (${generated('site0', i)}) WHERE d BETWEEN toDate(${FROM}) AND toDate(${TO})`)),
    );
  }
  const read = (table: string, final: boolean) =>
    store.query(
      sql`SELECT key, sum(visitors) AS v FROM ${trusted(table)}${trusted(final ? ' FINAL' : '')} WHERE site_id = 'site0' AND dimension = 'page'
        AND day BETWEEN toDate('2026-01-01') AND toDate('2026-01-31') GROUP BY key ORDER BY v DESC LIMIT 10`,
    );
  const plainReads: number[] = [];
  const finalReads: number[] = [];
  for (let i = 0; i < REPEAT * 2; i++) {
    plainReads.push(await timed(() => read('dim_daily', false)));
    finalReads.push(await timed(() => read(versioned, true)));
  }
  const rows = 31 * KEYS;
  console.log(`rewrite of ${rows} dim_daily rows (31 days × ${KEYS} keys, 2 months), ${SITES} sites of ${59 * KEYS} rows each, median of ${REPEAT}:`);
  console.log(`  partition swap (adapter replaceRows): write ${median(swap).toFixed(0)} ms; month breakdown read ${median(plainReads).toFixed(1)} ms`);
  console.log(`  ReplacingMergeTree + version:         write ${median(versions).toFixed(0)} ms; month breakdown read with FINAL ${median(finalReads).toFixed(1)} ms`);
  client.close();
  await store.close();
} finally {
  await server.stop();
}
