// Session rows answer the raw path's rolled-up days: on seeded random datasets with sessions across
// local midnight, every answer read from session rows (and raw events after the watermark) equals the
// same answer read from raw events alone, for every metric and session-scoped dimension, on every
// EventStore, under the filters is not and contains, and of several values, too; rows written with another key set are
// backfilled, and go with raw events at retention.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openSqliteMetaStore } from '../../src/storage/meta/sqlite.js';
import { rollupKey } from '../../src/stats/rollups/key.js';
import { createRollupTables } from '../../src/stats/rollups/write.js';
import { rollupSite } from '../../src/stats/rollups/run.js';
import { runRetention } from '../../src/stats/rollups/retention.js';
import { addDays, startOfLocalDay } from '../../src/core/localtime.js';
import { parseQuery, type QueryKind, type RawParams } from '../../src/core/query.js';
import { METRIC_REGISTRY, metricsUnder, metricTakesFilters } from '../../src/core/metric-registry.js';
import { joinFilterValues, NONE_KEY, type Dimension, type QueryDimension } from '../../src/core/vocabulary.js';
import { planQuery, type PlannedQuery } from '../../src/stats/planner.js';
import { planInputs } from '../../src/stats/inputs.js';
import { computeBreakdown } from '../../src/stats/read/breakdown.js';
import { computeStats } from '../../src/stats/read/stats.js';
import { computeTimeseries } from '../../src/stats/read/timeseries.js';
import { SESSION_DIMENSIONS, SESSION_ROWS } from '../../src/stats/rollups/tables.js';
import { SESSION_ROWS_KEY } from '../../src/stats/rollups/coverage.js';
import { SMALL_SHAPE, dataset, session } from '../../support/datasets.js';
import { seededRandom } from '../../src/core/seeded-random.js';
import type { StoredEvent } from '../../src/storage/events/schema.js';
import type { EventStore } from '../../src/storage/events/types.js';
import type { MetaStore } from '../../src/storage/meta/types.js';
import type { Site } from '../../src/entities/sites.js';
import { sql, trusted, type Sql } from '../../src/sql/sql.js';
import { EVENT_STORE_ADAPTERS } from '../helpers/event-stores.js';

const TZ = 'America/New_York';
const DAYS = ['2026-03-05', '2026-03-06', '2026-03-07', '2026-03-08', '2026-03-09', '2026-03-10']; // 03-08 gains no hour: it loses one (DST)
const NOW = startOfLocalDay('2026-03-11', TZ) + 12 * 3_600_000;

/**
 * Sessions that start in the last minutes of each day and go on past midnight: their events after it
 * belong to the next local day, under that day's visitor hash, as ingestion stores them.
 */
function acrossMidnight(seed: number, siteId: string): StoredEvent[] {
  const rand = seededRandom(seed * 7919);
  const rows: StoredEvent[] = [];
  for (const day of DAYS.slice(0, -1)) {
    const midnight = startOfLocalDay(addDays(day, 1), TZ);
    for (let i = 0; i < 12; i++) {
      const visitor = BigInt(i % 8) + 1000n * BigInt(day.replaceAll('-', ''));
      const next = BigInt(i % 8) + 1000n * BigInt(addDays(day, 1).replaceAll('-', ''));
      for (const e of session(rand, siteId, midnight - Math.floor(rand() * 4 * 60_000) - 1, visitor, SMALL_SHAPE, TZ)) {
        rows.push(e.ts >= midnight ? { ...e, day: addDays(day, 1), visitorId: next } : e);
      }
    }
  }
  return rows;
}

async function openSite(events: EventStore, meta: MetaStore, seed: number): Promise<Site> {
  await createRollupTables(events);
  const org = await meta.createOrg('o', 0);
  const site = await meta.createSite(org.id, { domain: `s${seed}.test`, name: 's', timezone: TZ, retentionMonths: null, rawDays: 30, honorGpc: true }, `site${seed}`, 0);
  const rows = dataset({ seed, siteId: site.id, days: DAYS, dayStart: (d) => startOfLocalDay(d, TZ), sessionsPerDay: 70, visitorsPerDay: 45, timeZone: TZ });
  await events.append([...rows, ...acrossMidnight(seed, site.id)].sort((a, b) => a.ts - b.ts));
  return site;
}

/** The plan of a query from the site's own inputs (session rows where they answer), and the raw-events-only plan. */
async function plans(events: EventStore, meta: MetaStore, site: Site, kind: QueryKind, params: RawParams): Promise<{ rows: PlannedQuery; raw: PlannedQuery }> {
  const q = parseQuery(kind, params, site, NOW);
  const state = await meta.getRollupState(rollupKey(events, site.id));
  return { rows: planQuery(q, await planInputs(events, site, q, state)), raw: planQuery(q, { watermark: null, retentionMonths: null, rawDays: 30 }) };
}

const countRows = async (events: EventStore, siteId: string) =>
  Number((await events.query<{ n: unknown }>(sql`SELECT count(*) AS n FROM ${trusted(SESSION_ROWS.name)} WHERE site_id = ${siteId}`))[0]!.n);

for (const adapter of EVENT_STORE_ADAPTERS) {
  test(`session rows answer as raw events do: ${adapter.name}`, async () => {
    for (const seed of [1, 2, 3]) {
      const events = await adapter.open();
      const meta = await openSqliteMetaStore(':memory:');
      try {
        const site = await openSite(events, meta, seed);
        await rollupSite({ events, meta }, site, NOW, { dimensionKeyCap: 1000 });
        const same = async <T>(label: string, kind: QueryKind, params: RawParams, run: (q: PlannedQuery) => Promise<T>) => {
          const { rows, raw } = await plans(events, meta, site, kind, params);
          assert.ok(rows.plan.period.sessions, `seed ${seed}: ${label} reads session rows`);
          assert.equal(raw.plan.period.sessions, null);
          assert.deepEqual(await run(rows), await run(raw), `seed ${seed}: ${label}`);
        };
        // The busiest keys, so that two filters still match sessions.
        const top = async (dimension: Dimension) => {
          const { raw } = await plans(events, meta, site, 'breakdown', { dimension, from: DAYS[0], to: DAYS[5] });
          return (await computeBreakdown(events, raw)).rows[0]?.key ?? NONE_KEY;
        };
        const pairs: Array<[Dimension, Dimension]> = [['country', 'device'], ['referrer', 'browser'], ['exit', 'os'], ['entry', 'utm_source']];
        for (const [from, to] of [[DAYS[1], DAYS[4]], [DAYS[3], DAYS[3]], [DAYS[2], DAYS[3]], [DAYS[0], DAYS[5]]] as const) {
          for (const [a, b] of pairs) {
            const filter = [`${a}:${await top(a)}`, `${b}:${await top(b)}`];
            const period = { from, to, filter };
            await same(`stats ${filter} ${from}..${to}`, 'stats', period, (q) => computeStats(events, q, []));
            await same(`stats ${filter} against the previous period`, 'stats', { ...period, comparison: 'previous' }, (q) => computeStats(events, q, []));
            // A period of two days or less is read by the hour, from raw events.
            const daily = parseQuery('timeseries', period, site, NOW).grain !== 'hour';
            // Conversions under filters are read from raw events alone (session rows hold no goals).
            const sessionMetrics = metricsUnder([]).filter((m) => metricTakesFilters(m, parseQuery('stats', period, site, NOW).filters) && METRIC_REGISTRY[m].computation.kind !== 'goals');
            for (const metric of daily ? sessionMetrics : []) {
              await same(`timeseries ${metric} ${filter}`, 'timeseries', { ...period, metric, grain: 'day' }, (q) => computeTimeseries(events, q, []));
            }
            for (const dimension of SESSION_DIMENSIONS) {
              await same(`breakdown ${dimension} by ${filter}`, 'breakdown', { ...period, dimension, limit: '1000' }, (q) => computeBreakdown(events, q));
            }
          }
        }
        await same('a filter on (none) and one breakdown', 'breakdown', { from: DAYS[0], to: DAYS[5], filter: [`utm_campaign:${NONE_KEY}`, `region:${NONE_KEY}`], dimension: 'city', search: 'a' }, (q) =>
          computeBreakdown(events, q),
        );
        // Sanity: sessions cross midnight, and the filtered answers count something.
        const crossing = await events.query<{ n: unknown }>(
          sql`SELECT count(*) AS n FROM (SELECT session_id FROM ${trusted(SESSION_ROWS.name)} WHERE site_id = ${site.id} GROUP BY session_id HAVING count(*) > 1) s`,
        );
        assert.ok(Number(crossing[0]!.n) >= 20, `seed ${seed}: sessions across midnight`);
        const { rows } = await plans(events, meta, site, 'stats', { from: DAYS[0], to: DAYS[5], filter: ['country:US', 'device:desktop'] });
        const stats = await computeStats(events, rows, []);
        assert.ok((stats.visitors.value ?? 0) > 10 && (stats.bounceRate.value ?? 0) > 0 && (stats.avgDuration.value ?? 0) > 0, JSON.stringify(stats));
      } finally {
        await events.close();
        await meta.close();
      }
    }
  });

  test(`filters is not, contains and several values: session rows answer as raw events do, and keep the keys they name: ${adapter.name}`, async () => {
    const events = await adapter.open();
    const meta = await openSqliteMetaStore(':memory:');
    try {
      const site = await openSite(events, meta, 4);
      await rollupSite({ events, meta }, site, NOW, { dimensionKeyCap: 1000 });
      const period = { from: DAYS[1], to: DAYS[4] };
      const rowsOf = async (dimension: QueryDimension, filter: string[]) => {
        const { raw } = await plans(events, meta, site, 'breakdown', { ...period, dimension, filter, limit: '1000' });
        return (await computeBreakdown(events, raw)).rows.map(({ key, visitors, views }) => ({ key, visitors, views })).sort((a, b) => a.key.localeCompare(b.key));
      };
      // For each dimension: its busiest key, (none), and a piece of a key in other letter case; and
      // several values (or): two keys, none of two keys, either of two pieces.
      const filtersOf = (dimension: QueryDimension, keys: readonly string[]) => {
        const presents = keys.filter((k) => k !== NONE_KEY);
        const pieceOf = (key: string) => (key.length > 3 ? key.slice(1, 4) : key);
        const otherCase = (piece: string) => (piece.toUpperCase() === piece ? piece.toLowerCase() : piece.toUpperCase());
        const [piece, second] = [pieceOf(presents[0] ?? 'x'), pieceOf(presents.at(-1) ?? 'y')];
        const text = otherCase(piece);
        const [first, next] = [keys[0] ?? NONE_KEY, keys[1] ?? 'nothing'];
        const holds = (k: string, p: string) => k !== NONE_KEY && k.toLowerCase().includes(p.toLowerCase());
        return [
          { text: `${dimension}!:${first}`, keeps: (k: string) => k !== first },
          { text: `${dimension}!:${NONE_KEY}`, keeps: (k: string) => k !== NONE_KEY },
          { text: `${dimension}~:${text}`, keeps: (k: string) => holds(k, piece) },
          { text: `${dimension}:${joinFilterValues([first, next])}`, keeps: (k: string) => k === first || k === next },
          { text: `${dimension}!:${joinFilterValues([first, NONE_KEY])}`, keeps: (k: string) => k !== first && k !== NONE_KEY },
          { text: `${dimension}~:${joinFilterValues([text, otherCase(second)])}`, keeps: (k: string) => holds(k, piece) || holds(k, second) },
        ];
      };
      for (const dimension of [...SESSION_DIMENSIONS, 'page', 'event', 'prop.plan'] as const) {
        const all = await rowsOf(dimension, []);
        const busiest = [...all].sort((a, b) => b.visitors - a.visitors).map((r) => r.key);
        for (const { text, keeps } of filtersOf(dimension, busiest)) {
          // The breakdown of a filtered dimension keeps the rows of the keys the filter names, each as it was.
          assert.deepEqual(await rowsOf(dimension, [text]), all.filter((r) => keeps(r.key)), `${adapter.name} ${text}`);
          if (!SESSION_DIMENSIONS.includes(dimension as Dimension)) continue;
          const both = { ...period, filter: [text, dimension === 'device' ? 'browser~:i' : 'device!:tablet'] };
          const { rows } = await plans(events, meta, site, 'stats', both);
          assert.ok(rows.plan.period.sessions, `${text} reads session rows`);
          assert.deepEqual(await computeStats(events, rows, []), await computeStats(events, (await plans(events, meta, site, 'stats', both)).raw, []), `stats ${text}`);
          const byCountry = { ...both, dimension: 'country', limit: '1000' };
          const planned = await plans(events, meta, site, 'breakdown', byCountry);
          assert.deepEqual(await computeBreakdown(events, planned.rows), await computeBreakdown(events, planned.raw), `breakdown country by ${text}`);
          const series = await plans(events, meta, site, 'timeseries', { ...both, metric: 'bounceRate' });
          assert.deepEqual(await computeTimeseries(events, series.rows, []), await computeTimeseries(events, series.raw, []), `timeseries by ${text}`);
        }
      }
    } finally {
      await events.close();
      await meta.close();
    }
  });

  test(`session rows rolled up a day at a time, the next day's events already stored, are those of one run: ${adapter.name}`, async () => {
    // Each run rewrites one day between two stored ones: the parts of the day either side are those
    // of the sessions across its midnights only, and make the same rows as every part of three days.
    const rowsAfter = async (runs: readonly number[]) => {
      const events = await adapter.open();
      const meta = await openSqliteMetaStore(':memory:');
      try {
        const site = await openSite(events, meta, 5);
        for (const now of runs) await rollupSite({ events, meta }, site, now, { dimensionKeyCap: 1000 });
        const rows = await events.query(sql`SELECT * FROM ${trusted(SESSION_ROWS.name)} WHERE site_id = ${site.id}`);
        // Session ids are drawn anew for each store's dataset: a row is its other columns.
        const row = ({ session_id: _, ...r }: Record<string, unknown>) => ({ ...r, day: String(r.day instanceof Date ? r.day.toISOString() : r.day).slice(0, 10) });
        return rows.map((r) => JSON.stringify(row(r), (_, v: unknown) => (typeof v === 'bigint' ? `${v}` : v))).sort();
      } finally {
        await events.close();
        await meta.close();
      }
    };
    const dayAtATime = await rowsAfter([...DAYS.slice(1).map((day) => startOfLocalDay(day, TZ) + 12 * 3_600_000), NOW]);
    const oneRun = await rowsAfter([NOW]);
    assert.ok(oneRun.length > 400, `${oneRun.length} session rows`);
    const differing = dayAtATime.filter((row) => !oneRun.includes(row));
    assert.deepEqual([dayAtATime.length, differing.slice(0, 3)], [oneRun.length, []]);
  });

  test(`a breakdown answers the same in one statement (totals and rows before LIMIT from the engine) as in several: ${adapter.name}`, async () => {
    const events = await adapter.open();
    const meta = await openSqliteMetaStore(':memory:');
    try {
      const site = await openSite(events, meta, 4);
      await rollupSite({ events, meta }, site, NOW, { dimensionKeyCap: 1000 });
      // The same store seen as an engine that tells nothing besides a page's rows: visitors and keys counted apart.
      const apart = Object.assign(Object.create(events) as EventStore, {
        dialect: { ...events.dialect, countOverAll: () => null, groupTotals: () => null },
        queryPage: async (query: Sql) => ({ rows: await events.query(query), rowsBeforeLimit: null, totals: null }),
      });
      const days = { from: DAYS[0], to: DAYS[5] };
      const cases: RawParams[] = [
        { ...days, dimension: 'referrer', filter: ['country:US', 'device:desktop'] },
        { ...days, dimension: 'exit', filter: ['browser:Chrome', `utm_campaign:${NONE_KEY}`] },
        { ...days, dimension: 'city', filter: ['country:US', 'device:desktop'], search: 'a' },
        { ...days, dimension: 'city', filter: ['country:US', 'device:desktop'], search: 'no key holds this' },
        { ...days, dimension: 'event', filter: ['country:US', 'page:/'] },
        { ...days, dimension: 'page', filter: ['country:US', 'device:mobile'] },
        { from: DAYS[3], to: DAYS[3], dimension: 'country' },
      ];
      let answered = 0;
      let fromSessionRows = 0;
      for (const params of cases) {
        for (const [limit, offset] of [['5', '0'], ['5', '5'], ['100', '10000']] as const) {
          const { rows, raw } = await plans(events, meta, site, 'breakdown', { ...params, limit, offset });
          if (rows.plan.period.sessions) fromSessionRows++;
          for (const q of [rows, raw]) {
            const [one, several] = [await computeBreakdown(events, q), await computeBreakdown(apart, q)];
            assert.deepEqual(one, several, `${JSON.stringify(params)} limit ${limit} offset ${offset} (${q.plan.path}, session rows ${q.plan.period.sessions !== null})`);
            answered += one.rows.length;
          }
        }
      }
      assert.ok(answered >= 40, `the cases answer keys (${answered})`);
      assert.ok(fromSessionRows >= 9, `session rows answer cases (${fromSessionRows})`);
    } finally {
      await events.close();
      await meta.close();
    }
  });

  test(`session rows of days rolled up with another key set are backfilled, and retention takes them with raw events: ${adapter.name}`, async () => {
    const events = await adapter.open();
    const meta = await openSqliteMetaStore(':memory:');
    try {
      const site = await openSite(events, meta, 9);
      const key = rollupKey(events, site.id);
      await rollupSite({ events, meta }, site, NOW);
      const rowsAtFirst = await countRows(events, site.id);
      assert.ok(rowsAtFirst > 400);
      // Rollups of a deployment whose session rows had another key set (bookkeeping without them at
      // all is the same case: test/stats/journeys.test.ts drops session paths'), and none written.
      const state = (await meta.getRollupState(key))!;
      assert.equal(JSON.parse(state.definitions).sessionRows, SESSION_ROWS_KEY);
      await meta.setRollupState(key, { ...state, definitions: JSON.stringify({ ...JSON.parse(state.definitions), sessionRows: `${SESSION_ROWS_KEY}+language` }) });
      await events.replaceRows(SESSION_ROWS, { siteId: site.id, days: { from: null, to: DAYS[5]! } }, null);
      const params = { from: DAYS[0], to: DAYS[5], filter: ['country:US', 'device:desktop'] };
      const before = await plans(events, meta, site, 'stats', params);
      assert.equal(before.rows.plan.period.sessions, null, 'raw events answer until the rows are written');
      const answer = await computeStats(events, before.rows, []);
      // Two days a run: the latest first, the rest at the next runs.
      await rollupSite({ events, meta }, site, NOW, { backfillDays: 2 });
      assert.equal((await plans(events, meta, site, 'stats', params)).rows.plan.period.sessions, null, 'a part written: still raw events');
      for (let run = 0; run < 3; run++) await rollupSite({ events, meta }, site, NOW, { backfillDays: 2 });
      assert.equal(await countRows(events, site.id), rowsAtFirst);
      const after = await plans(events, meta, site, 'stats', params);
      assert.ok(after.rows.plan.period.sessions);
      assert.deepEqual(await computeStats(events, after.rows, []), answer);

      // 40 days later, the raw window (30 days) has left every day: raw events and session rows go.
      const later = NOW + 40 * 86_400_000;
      await rollupSite({ events, meta }, site, later);
      await runRetention({ events, meta }, later);
      assert.equal(await countRows(events, site.id), 0);
      assert.equal(Number((await events.query<{ n: unknown }>(sql`SELECT count(*) AS n FROM events WHERE site_id = ${site.id}`))[0]!.n), 0);
    } finally {
      await events.close();
      await meta.close();
    }
  });
}
