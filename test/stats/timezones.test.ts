// Events land in the right local day and hour buckets in zones with 30/45-minute offsets and on
// DST days, on the raw path and the rollup path.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DuckDbEventStore } from '../../src/storage/events/duckdb.js';
import { localToEpoch, localParts } from '../../src/core/localtime.js';
import { parseQuery } from '../../src/core/query.js';
import { planQuery } from '../../src/stats/planner.js';
import { computeTimeseries } from '../../src/stats/read/timeseries.js';
import { createRollupTables } from '../../src/stats/rollups/write.js';
import { rollupSite } from '../../src/stats/rollups/run.js';
import { openSqliteMetaStore } from '../../src/storage/meta/sqlite.js';
import { event } from '../../support/events.js';

const ZONES: Array<[string, string]> = [
  ['Asia/Kathmandu', '2026-03-20'],
  ['Asia/Kolkata', '2026-03-20'],
  ['America/St_Johns', '2026-03-08'],
  ['Europe/Paris', '2026-03-29'],
  ['Europe/Paris', '2026-10-25'],
  ['America/New_York', '2026-03-08'],
  ['America/New_York', '2026-11-01'],
];

test('day and hour buckets on the day of the zone, raw and rolled up', async () => {
  const events = await DuckDbEventStore.open({ path: ':memory:', readers: 1 });
  const meta = await openSqliteMetaStore(':memory:');
  try {
    await createRollupTables(events);
    const org = await meta.createOrg('o', 0);
    for (const [zone, day] of ZONES) {
      const site = await meta.createSite(org.id, { domain: `${zone}-${day}.test`.replaceAll('/', '-').toLowerCase(), name: zone, timezone: zone, retentionMonths: null, rawDays: 30, honorGpc: true }, `${zone}${day}`, 0);
      const [y, m, d] = day.split('-').map(Number) as [number, number, number];
      // One pageview just after local midnight, two in the last local hour, one the next morning.
      const instants = [localToEpoch(y, m, d, 0, 5, zone), localToEpoch(y, m, d, 23, 10, zone), localToEpoch(y, m, d, 23, 50, zone), localToEpoch(y, m, d + 1, 0, 5, zone)];
      let id = 1n;
      await events.append(instants.map((ts) => event({ siteId: site.id, ts, visitorId: id, sessionId: id++, sessionStart: true }, zone)));
      const now = localToEpoch(y, m, d + 3, 12, 0, zone);
      const series = async (params: Record<string, string>, watermark: string | null) =>
        (await computeTimeseries(events, planQuery(parseQuery('timeseries', { metric: 'pageviews', ...params }, site, now), { watermark, retentionMonths: null, rawDays: 30 }), [])).points;

      const nextDay = `${day.slice(0, 8)}${String(d + 1).padStart(2, '0')}`;
      const days = { from: day, to: `${day.slice(0, 8)}${String(d + 2).padStart(2, '0')}` };
      const raw = await series(days, null);
      assert.deepEqual(raw.map((p) => p.value), [3, 1, 0], `${zone} ${day} days (raw)`);
      await rollupSite({ events, meta }, site, now);
      assert.deepEqual(await series(days, nextDay), raw, `${zone} ${day} days (rollups)`);

      const hours = await series({ from: day, to: day }, null);
      const counted = hours.filter((p) => p.value !== 0);
      assert.deepEqual(counted.map((p) => [localParts(p.t, zone).hour, p.value]), [[0, 1], [23, 2]], `${zone} ${day} hours`);
      assert.equal(hours.at(-1)!.t, localToEpoch(y, m, d, 23, 0, zone));
    }
  } finally {
    await events.close();
    await meta.close();
  }
});
