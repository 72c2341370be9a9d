// Revenue goals and scroll depth over both engines, from raw events and from rollups: sums exact to
// the cent (no float ever holds an amount), averages rounded half up, revenue in another currency
// counted apart, and the mean deepest scroll per visitor and day.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openSqliteMetaStore } from '../../src/storage/meta/sqlite.js';
import { rollupKey } from '../../src/stats/rollups/key.js';
import { createRollupTables } from '../../src/stats/rollups/write.js';
import { rollupSite } from '../../src/stats/rollups/run.js';
import { parseQuery, type QueryKind, type RawParams } from '../../src/core/query.js';
import { planQuery, type PlannedQuery } from '../../src/stats/planner.js';
import { computeBreakdown } from '../../src/stats/read/breakdown.js';
import { computeGoals } from '../../src/stats/read/goals.js';
import { parseAmount } from '../../src/core/money.js';
import { event } from '../../support/events.js';
import { EVENT_STORE_ADAPTERS } from '../helpers/event-stores.js';

const DAYS = ['2026-04-06', '2026-04-07'];
const NOW = Date.UTC(2026, 3, 8, 12);

for (const adapter of EVENT_STORE_ADAPTERS) test(`revenue and scroll depth, raw and rolled up: ${adapter.name}`, async () => {
  const events = await adapter.open();
  const meta = await openSqliteMetaStore(':memory:');
  try {
    await createRollupTables(events);
    const org = await meta.createOrg('o', 0);
    const site = await meta.createSite(org.id, { domain: 'r.test', name: 'r', timezone: 'UTC', retentionMonths: null, rawDays: 30, honorGpc: true }, 'rev', 0);
    const goals = [
      await meta.createGoal(site.internalId, { name: 'purchase', kind: 'event', pattern: 'purchase', currency: 'EUR' }, 0),
      await meta.createGoal(site.internalId, { name: 'tip', kind: 'event', pattern: 'tip', currency: 'USD' }, 0),
      await meta.createGoal(site.internalId, { name: 'signup', kind: 'event', pattern: 'signup' }, 0),
    ];
    let ts = Date.UTC(2026, 3, 6, 8);
    const at = (day: number) => (ts += 1000) + day * 86_400_000;
    const money = (amount: string, currency: string) => ({ revenueMinor: parseAmount(amount)!, revenueCurrency: currency });
    const rows = [
      // Day 1: 0.10 + 0.20 EUR (0.1 + 0.2 in floats is 0.30000000000000004), a purchase without revenue, one in USD.
      event({ siteId: 'rev', ts: at(0), visitorId: 1n, name: 'purchase', ...money('0.1', 'EUR') }),
      event({ siteId: 'rev', ts: at(0), visitorId: 2n, name: 'purchase', ...money('0.2', 'EUR') }),
      event({ siteId: 'rev', ts: at(0), visitorId: 3n, name: 'purchase' }),
      event({ siteId: 'rev', ts: at(0), visitorId: 4n, name: 'purchase', ...money('5', 'USD') }),
      // Day 2: 19.99 three times and 0.01: 60.28 EUR over 6 conversions with revenue, 10.0466… → 10.05.
      ...[5n, 6n, 7n].map((v) => event({ siteId: 'rev', ts: at(1), visitorId: v, name: 'purchase', ...money('19.99', 'EUR') })),
      event({ siteId: 'rev', ts: at(1), visitorId: 8n, name: 'purchase', ...money('0.01', 'EUR') }),
      // The USD goal: 0.01 and 0.02, whose mean 0.015 rounds half up to 0.02; a tip in EUR is another currency.
      event({ siteId: 'rev', ts: at(1), visitorId: 9n, name: 'tip', ...money('0.01', 'USD') }),
      event({ siteId: 'rev', ts: at(1), visitorId: 9n, name: 'tip', ...money('0.02', 'USD') }),
      event({ siteId: 'rev', ts: at(1), visitorId: 9n, name: 'tip', ...money('3', 'EUR') }),
      event({ siteId: 'rev', ts: at(1), visitorId: 10n, name: 'signup', ...money('1', 'EUR') }),
      // Scroll depth of /a: visitor 1 reaches 40 then 81 on day 1 (deepest 81) and 30 on day 2; visitor 2 reaches 50 on day 1.
      // Per visitor and day: 81, 50, 30, mean 53.67 → 54. /b: 0 and 1, mean 0.5 → 1 (half up). /c: no engage: null.
      ...[
        [0, 1n, '/a', 40],
        [0, 1n, '/a', 81],
        [0, 2n, '/a', 50],
        [1, 1n, '/a', 30],
        [0, 3n, '/b', 0],
        [1, 3n, '/b', 1],
      ].map(([day, visitorId, page, depth]) =>
        event({ siteId: 'rev', ts: at(day as number), visitorId: visitorId as bigint, name: 'engage', page: page as string, engagedMs: 1000, scrollDepth: depth as number }),
      ),
      ...[1n, 2n, 3n].flatMap((v) => ['/a', '/b', '/c'].map((page) => event({ siteId: 'rev', ts: at(0), visitorId: v, page }))),
    ];
    await events.append(rows);

    const plans = async (kind: QueryKind, params: RawParams): Promise<PlannedQuery[]> => {
      const q = parseQuery(kind, { from: DAYS[0], to: DAYS[1], ...params }, site, NOW);
      const raw = planQuery(q, { watermark: null, retentionMonths: null, rawDays: 30 });
      await rollupSite({ events, meta }, site, NOW, { dimensionKeyCap: 1000 });
      const watermark = (await meta.getRollupState(rollupKey(events, site.id)))?.watermark ?? null;
      assert.equal(watermark, DAYS[1]);
      return [raw, planQuery(q, { watermark, retentionMonths: null, rawDays: 30 })];
    };

    for (const [path, q] of (await plans('goals', {})).entries()) {
      const answer = await computeGoals(events, q, goals);
      const label = path === 0 ? 'raw' : 'rollups';
      assert.deepEqual(answer[0]!.revenue, { currency: 'EUR', total: 60.28, average: 10.05, otherCurrency: 1 }, label);
      assert.equal(answer[0]!.conversions, 8, label);
      assert.deepEqual(answer[1]!.revenue, { currency: 'USD', total: 0.03, average: 0.02, otherCurrency: 1 }, label);
      assert.equal(answer[2]!.revenue, undefined, `${label}: a goal without a currency has no revenue`);
      assert.equal(JSON.stringify(answer[0]!.revenue), '{"currency":"EUR","total":60.28,"average":10.05,"otherCurrency":1}');
    }
    for (const [path, q] of (await plans('breakdown', { dimension: 'page', include: 'scrollDepth' })).entries()) {
      const { rows: pages } = await computeBreakdown(events, q);
      const depth = Object.fromEntries(pages.map((r) => [r.key, r.scrollDepth]));
      assert.deepEqual(depth, { '/': null, '/a': 54, '/b': 1, '/c': null }, path === 0 ? 'raw' : 'rollups');
    }
    for (const q of await plans('breakdown', { dimension: 'page' })) {
      const { rows: pages } = await computeBreakdown(events, q);
      assert.ok(pages.length === 4 && pages.every((r) => !('scrollDepth' in r)), 'without include, rows are as before');
    }
  } finally {
    await events.close();
    await meta.close();
  }
});
