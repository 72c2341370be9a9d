// Web vitals per page (`include=vitals`): the 75th percentile by nearest rank of each vital over the
// page's engage events, on random datasets, equal from raw events and from rollups (daily counts
// per value summed over the days) and equal to a plain model of the rows, on both engines.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startOfLocalDay } from '../../src/core/localtime.js';
import { parseQuery } from '../../src/core/query.js';
import { VITAL_NAMES } from '../../src/core/vocabulary.js';
import type { VitalsFigures } from '../../src/core/answers.js';
import { planQuery } from '../../src/stats/planner.js';
import { computeBreakdown } from '../../src/stats/read/breakdown.js';
import { nearestRank } from '../../src/stats/read/vitals.js';
import { rollupKey } from '../../src/stats/rollups/key.js';
import { rollupSite } from '../../src/stats/rollups/run.js';
import type { StoredEvent } from '../../src/storage/events/schema.js';
import { dataset } from '../../support/datasets.js';
import { EVENT_STORE_ADAPTERS } from '../helpers/event-stores.js';
import { openRollupSite } from '../helpers/rollup-site.js';

const TZ = 'America/Sao_Paulo';
const DAYS = ['2026-04-06', '2026-04-07', '2026-04-08', '2026-04-09', '2026-04-10'];
const NOW = startOfLocalDay('2026-04-11', TZ) + 8 * 3_600_000;

test('nearest rank: the smallest value with at least ⌈0.75·n⌉ values at or below it', () => {
  const cases: Array<[values: number[], p75: number | null]> = [
    [[], null],
    [[7], 7],
    [[1, 2], 2],
    [[1, 2, 3, 4], 3],
    [[4, 3, 2, 1, 5], 4],
    [[10, 10, 10, 0], 10],
    [[0, 0, 0, 9], 0],
    [[5, 1, 5, 1, 5, 1, 5, 1], 5],
  ];
  for (const [values, p75] of cases) {
    const counts = new Map<number, number>();
    for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
    assert.equal(nearestRank(counts), p75, JSON.stringify(values));
  }
});

/** The plain model: per page, each vital's values over the period's engage events, sorted, at rank ⌈0.75·n⌉. */
function model(rows: readonly StoredEvent[], from: string, to: string): Map<string, VitalsFigures> {
  const pages = new Map<string, StoredEvent[]>();
  for (const r of rows) if (r.name === 'engage' && r.day >= from && r.day <= to) pages.set(r.page, [...(pages.get(r.page) ?? []), r]);
  const out = new Map<string, VitalsFigures>();
  for (const [page, engaged] of pages) {
    const figures = { reports: engaged.filter((r) => VITAL_NAMES.some((v) => r[v] !== null)).length } as VitalsFigures;
    for (const vital of VITAL_NAMES) {
      const values = engaged.flatMap((r) => (r[vital] === null ? [] : [r[vital]!])).sort((a, b) => a - b);
      figures[vital] = values.length === 0 ? null : values[Math.ceil(0.75 * values.length) - 1]!;
    }
    out.set(page, figures);
  }
  return out;
}

for (const adapter of EVENT_STORE_ADAPTERS) test(`vitals per page equal a plain model, from raw events and from rollups: ${adapter.name}`, async () => {
  for (const seed of [3, 11]) {
    const { events, meta, site, close } = await openRollupSite(adapter, seed, TZ);
    try {
      const rows = dataset({ seed, siteId: site.id, days: DAYS, dayStart: (d) => startOfLocalDay(d, TZ), sessionsPerDay: 80, visitorsPerDay: 50, timeZone: TZ });
      await events.append(rows);
      await rollupSite({ events, meta }, site, NOW, {});
      const watermark = (await meta.getRollupState(rollupKey(events, site.id)))?.watermark ?? null;
      assert.equal(watermark, DAYS.at(-1));
      for (const [from, to] of [[DAYS[0]!, DAYS.at(-1)!], [DAYS[1]!, DAYS[2]!], [DAYS[3]!, '2026-04-11']] as const) {
        const q = parseQuery('breakdown', { from, to, dimension: 'page', include: 'vitals', limit: '1000' }, site, NOW);
        const raw = await computeBreakdown(events, planQuery(q, { watermark: null, retentionMonths: null, rawDays: 60 }));
        const rolled = await computeBreakdown(events, planQuery(q, { watermark, retentionMonths: null, rawDays: 60 }));
        assert.deepEqual(rolled, raw, `seed ${seed}, ${from} to ${to}: rollups and raw events`);
        const expected = model(rows, from, to);
        for (const row of raw.rows) {
          const none = { lcp: null, inp: null, cls: null, ttfb: null, reports: 0 };
          assert.deepEqual(row.vitals, expected.get(row.key) ?? none, `seed ${seed}, ${from} to ${to}: ${row.key}`);
        }
        assert.ok(raw.rows.some((r) => r.vitals!.reports > 5 && VITAL_NAMES.every((v) => r.vitals![v] !== null)), 'pages with every vital reported');
      }
    } finally {
      await close();
    }
  }
});
