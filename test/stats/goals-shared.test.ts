// On a dashboard load under filters, the goals read and the stats count conversions with the same
// statement (shared by src/stats/shared-reads.ts), whole comparison or not: the goals read no longer
// reads the compared days' raw events when the comparison is cut off by the raw window.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startOfLocalDay } from '../../src/core/localtime.js';
import { parseQuery, type QueryKind, type RawParams } from '../../src/core/query.js';
import { planQuery } from '../../src/stats/planner.js';
import { computeGoals } from '../../src/stats/read/goals.js';
import { computeStats } from '../../src/stats/read/stats.js';
import type { EventReader } from '../../src/storage/events/types.js';
import type { Sql } from '../../src/sql/sql.js';
import { dataset } from '../../support/datasets.js';
import { EVENT_STORE_ADAPTERS } from '../helpers/event-stores.js';
import { openRollupSite } from '../helpers/rollup-site.js';

const TZ = 'UTC';
const DAYS = ['2026-03-16', '2026-03-17', '2026-03-18', '2026-03-19'];
const NOW = startOfLocalDay('2026-03-20', TZ) + 10 * 3_600_000;

test('the goals read counts conversions under filters with the stats statement, compared days only where the comparison is whole', async () => {
  const { events, site, goals, close } = await openRollupSite(EVENT_STORE_ADAPTERS[0]!, 3, TZ);
  try {
    await events.append(dataset({ seed: 3, siteId: site.id, days: DAYS, dayStart: (d) => startOfLocalDay(d, TZ), sessionsPerDay: 40, visitorsPerDay: 30, timeZone: TZ }));
    const statementsOf = async (run: (reader: EventReader) => Promise<unknown>) => {
      const seen = new Set<string>();
      const key = (s: Sql) => `${s.text} ${JSON.stringify(s.params, (_, v) => (typeof v === 'bigint' ? String(v) : v))}`;
      await run({ dialect: events.dialect, query: (s, o) => (seen.add(key(s)), events.query(s, o)), queryPage: (s, o) => (seen.add(key(s)), events.queryPage(s, o)) });
      return seen;
    };
    // The site keeps 10 days of single events: a 7-day period's compared week lies partly before them (cut off); a 3-day period's is whole.
    for (const [params, compared] of [[{ period: '7d' }, false], [{ from: DAYS[1], to: DAYS[3] }, true]] as const) {
      const planned = (kind: QueryKind, extra: RawParams = {}) =>
        planQuery(parseQuery(kind, { ...params, filter: 'country:FR', raw: 'clip', ...extra }, site, NOW, [], { filteredGoals: true }), { watermark: null, retentionMonths: null, rawDays: 10 });
      assert.equal(planned('stats').plan.goalsCompared, compared);
      const goalStatements = await statementsOf((reader) => computeGoals(reader, planned('goals'), goals));
      const statsStatements = await statementsOf((reader) => computeStats(reader, planned('stats'), goals));
      // Two statements: the goals' rows, shared with the stats, and the period's visitors (the stats read the span's measures).
      assert.equal(goalStatements.size, 2);
      const shared = [...goalStatements].filter((s) => statsStatements.has(s));
      assert.equal(shared.length, 1, `the goals' rows are the stats' (${JSON.stringify(params)})`);
      assert.match(shared[0]!, /goal/i);
    }
  } finally {
    await close();
  }
});
