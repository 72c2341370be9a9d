// Session paths over a long run of days (a backfill, an import's days) are written a few days a
// statement: one statement of every day's selects would pass ClickHouse's max_query_size (256 KiB).
// A day of many events is read in parts by session id, which give the rows one part gives.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { addDays, startOfLocalDay } from '../../src/core/localtime.js';
import { writeSessionPaths } from '../../src/stats/rollups/write.js';
import { SESSION_PATHS } from '../../src/stats/rollups/tables.js';
import { sessionPathRows } from '../../src/stats/sql/session-paths.js';
import { joinSql, sql, trusted } from '../../src/sql/sql.js';
import { dataset } from '../../support/datasets.js';
import { EVENT_STORE_ADAPTERS } from '../helpers/event-stores.js';
import { openRollupSite } from '../helpers/rollup-site.js';

const TZ = 'UTC';
const FIRST = '2026-01-01';
const LAST = addDays(FIRST, 119);

for (const adapter of EVENT_STORE_ADAPTERS) {
  test(`session paths of 120 days written in one call: ${adapter.name}`, async () => {
    const { events, site, close } = await openRollupSite(adapter, 11, TZ);
    try {
      await events.append(dataset({ seed: 11, siteId: site.id, days: [FIRST, LAST], dayStart: (d) => startOfLocalDay(d, TZ), sessionsPerDay: 5, visitorsPerDay: 4, timeZone: TZ }));
      await writeSessionPaths(events, site.id, { from: FIRST, to: LAST });
      const rows = await events.query<{ day: string; n: unknown }>(
        sql`SELECT ${trusted(events.dialect.dayText('day'))} AS day, count(*) AS n FROM ${trusted(SESSION_PATHS.name)} WHERE site_id = ${site.id} GROUP BY day ORDER BY day`,
      );
      assert.deepEqual(rows.map((r) => r.day), [FIRST, LAST]);
      assert.ok(rows.every((r) => Number(r.n) > 0), rows.map((r) => `${r.day}: ${Number(r.n)}`).join(', '));
    } finally {
      await close();
    }
  });
}

for (const adapter of EVENT_STORE_ADAPTERS) {
  test(`a day's session paths read in parts are the rows of one part: ${adapter.name}`, async () => {
    const { events, site, close } = await openRollupSite(adapter, 12, TZ);
    try {
      await events.append(dataset({ seed: 12, siteId: site.id, days: [FIRST, FIRST], dayStart: (d) => startOfLocalDay(d, TZ), sessionsPerDay: 60, visitorsPerDay: 40, timeZone: TZ }));
      // The events a day is said to have decide its parts: 10 in one, 400 000 in eight.
      const rowsOf = async (claimed: number) => {
        const rows = await events.query<Record<string, unknown>>(joinSql(sessionPathRows(events.dialect, site.id, [{ day: FIRST, events: claimed }])!, ' UNION ALL '));
        return rows.map((r) => JSON.stringify(r, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v))).sort();
      };
      const whole = await rowsOf(10);
      assert.ok(whole.length >= 50, `${whole.length} sessions`);
      assert.deepEqual(await rowsOf(400_000), whole);
    } finally {
      await close();
    }
  });
}
