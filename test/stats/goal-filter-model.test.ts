// docs/api.md, "Goal filters": on random datasets, what reads with `filter=goal:<goalId>` (and
// `raw=clip`) answer (stats' visitors, conversions, conversion rate and revenue; breakdown rows'
// converters, conversions and conversion rates; daily and hourly conversions and conversion rates)
// equals a plain model of the raw events, on both engines.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startOfLocalDay } from '../../src/core/localtime.js';
import { majorUnits } from '../../src/core/money.js';
import { parseQuery, resolveGoalFilter, type QueryKind, type RawParams } from '../../src/core/query.js';
import { NONE_KEY, splitFilterParam } from '../../src/core/vocabulary.js';
import type { Goal } from '../../src/entities/goals.js';
import { meanHalfUp } from '../../src/stats/measures.js';
import { planQuery } from '../../src/stats/planner.js';
import { computeBreakdown } from '../../src/stats/read/breakdown.js';
import { computeStats } from '../../src/stats/read/stats.js';
import { computeTimeseries } from '../../src/stats/read/timeseries.js';
import type { StoredEvent } from '../../src/storage/events/schema.js';
import { dataset } from '../../support/datasets.js';
import { EVENT_STORE_ADAPTERS } from '../helpers/event-stores.js';
import { openRollupSite } from '../helpers/rollup-site.js';

const TZ = 'Europe/Berlin';
const DAYS = ['2026-03-02', '2026-03-03', '2026-03-04'];
const NOW = startOfLocalDay('2026-03-05', TZ) + 8 * 3_600_000;
/** The goals filtered by (the fixture's goals by name), with the request's other filters. */
const CASES: ReadonlyArray<{ goals: readonly string[]; others: readonly string[] }> = [
  { goals: ['pricing'], others: [] },
  { goals: ['blog'], others: ['country:FR'] },
  { goals: ['signup', 'trial'], others: [] },
  { goals: ['trial'], others: ['page!:/'] },
  { goals: ['pro signup'], others: [] },
  { goals: ['pricing', 'signup'], others: ['hostname:r.test'] },
];
const DIMENSIONS = ['country', 'page', 'event'] as const;

type Row = StoredEvent;

function valueOf(e: Row, dimension: string): string {
  const plain: Record<string, string | null> = { page: e.page, hostname: e.hostname, event: e.name, country: e.country };
  return plain[dimension] ?? NONE_KEY;
}

/** A page goal's pattern over a page: `*` any text of one path segment (the fixture's patterns use no other wildcard). */
const pageMatches = (pattern: string, page: string) => new RegExp(`^${pattern.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\/]/g, '\\$&')).join('[^/]*')}$`).test(page);

function completes(e: Row, goal: Goal): boolean {
  if (goal.kind === 'page') return e.name === 'pageview' && pageMatches(goal.pattern, e.page);
  if (e.name !== goal.pattern) return false;
  const props = e.props === null ? {} : (JSON.parse(e.props) as Record<string, unknown>);
  return Object.entries(goal.props ?? {}).every(([key, value]) => typeof props[key] === 'string' && props[key] === value);
}

const otherMatch = (e: Row, texts: readonly string[]) =>
  texts.every((text) => {
    const { dimension, operator, value } = splitFilterParam(text)!;
    return (valueOf(e, dimension) === value) !== (operator === 'is_not');
  });

/** Visitors as every read counts them: each day's distinct visitors, summed. */
const visitorDays = (rows: readonly Row[]) => new Set(rows.map((e) => `${e.day}|${e.visitorId}`)).size;
const rate = (n: number, d: number) => (d > 0 ? Math.round((n / d) * 10_000) / 10_000 : null);

/** The model's figures of the events `base` (the other filters') and those of them completing one of `goals`. */
function figures(base: readonly Row[], goals: readonly Goal[]) {
  const converting = base.filter((e) => goals.some((g) => completes(e, g)));
  return { visitors: visitorDays(converting), conversions: converting.length, conversionRate: rate(visitorDays(converting), visitorDays(base)), converting };
}

for (const adapter of EVENT_STORE_ADAPTERS) test(`goal filters' conversions and conversion rates equal the model: ${adapter.name}`, async () => {
  for (const seed of [5, 6]) {
    const { events, site, goals, close } = await openRollupSite(adapter, seed, TZ);
    try {
      const rows = dataset({ seed, siteId: site.id, days: DAYS, dayStart: (d) => startOfLocalDay(d, TZ), sessionsPerDay: 40, visitorsPerDay: 30, timeZone: TZ });
      await events.append(rows);
      const read = <K extends QueryKind>(kind: K, params: RawParams) =>
        planQuery(resolveGoalFilter(parseQuery(kind, { from: DAYS[0], to: DAYS.at(-1), raw: 'clip', ...params }, site, NOW), goals), { watermark: null, retentionMonths: null, rawDays: 60 });
      let converted = 0;
      for (const c of CASES) {
        const chosen = c.goals.map((name) => goals.find((g) => g.name === name)!);
        const filter = [`goal:${chosen.map((g) => g.goalId).join('|')}`, ...c.others];
        const label = `seed ${seed} [${filter.join(' ')}] (${c.goals.join(', ')})`;
        const inPeriod = rows.filter((e) => e.day >= DAYS[0]! && e.day <= DAYS.at(-1)! && otherMatch(e, c.others));
        const want = figures(inPeriod, chosen);
        if (want.conversions > 0) converted++;

        const stats = await computeStats(events, read('stats', { filter }), goals);
        assert.deepEqual(
          { visitors: stats.visitors.value, conversions: stats.conversions.value, conversionRate: stats.conversionRate?.value },
          { visitors: want.visitors, conversions: want.conversions, conversionRate: want.conversionRate },
          label,
        );
        // Revenue: the conversions of the filter's revenue goals, in their currency.
        const paying = chosen.filter((g) => g.currency !== null);
        if (paying.length === 0) assert.equal('revenue' in stats, false, `${label}: no revenue goal`);
        else {
          const paid = want.converting.filter((e) => paying.some((g) => completes(e, g)));
          const inCurrency = paid.filter((e) => e.revenueCurrency === 'EUR');
          const minor = inCurrency.reduce((sum, e) => sum + (e.revenueMinor ?? 0), 0);
          const expected = { currency: 'EUR', total: majorUnits(minor), average: inCurrency.length > 0 ? majorUnits(meanHalfUp(minor, inCurrency.length)) : null, otherCurrency: paid.filter((e) => e.revenueCurrency !== null && e.revenueCurrency !== 'EUR').length };
          assert.deepEqual(stats.revenue, expected, `${label}: revenue`);
        }

        for (const dimension of DIMENSIONS) {
          const breakdown = await computeBreakdown(events, read('breakdown', { filter, dimension, limit: '1000' }));
          const keys = [...new Set(want.converting.map((e) => valueOf(e, dimension)))].filter((k) => k !== 'engage').sort();
          assert.deepEqual(breakdown.rows.map((r) => r.key).sort(), keys, `${label}: ${dimension} keys`);
          for (const row of breakdown.rows) {
            const keyed = figures(inPeriod.filter((e) => valueOf(e, dimension) === row.key), chosen);
            assert.deepEqual({ visitors: row.visitors, conversions: row.conversions, conversionRate: row.conversionRate }, { visitors: keyed.visitors, conversions: keyed.conversions, conversionRate: keyed.conversionRate }, `${label}: ${dimension} ${row.key}`);
          }
        }

        const onDay = (day: string) => figures(inPeriod.filter((e) => e.day === day), chosen);
        for (const metric of ['conversions', 'conversionRate'] as const) {
          const daily = await computeTimeseries(events, read('timeseries', { filter, metric }), goals);
          assert.deepEqual(daily.points.map((p) => p.value), DAYS.map((day) => onDay(day)[metric]), `${label}: daily ${metric}`);
        }
        // A one-day period is charted by hour, conversions included.
        const day = DAYS[1]!;
        const hour = startOfLocalDay(day, TZ) + 10 * 3_600_000;
        const inHour = figures(inPeriod.filter((e) => e.ts >= hour && e.ts < hour + 3_600_000), chosen);
        for (const metric of ['conversions', 'conversionRate'] as const) {
          const hourly = await computeTimeseries(events, read('timeseries', { filter, metric, from: day, to: day }), goals);
          assert.equal(hourly.points.find((p) => p.t === hour)?.value, inHour[metric], `${label}: 10:00's ${metric}`);
        }
      }
      assert.ok(converted >= CASES.length - 1, `seed ${seed}: only ${converted} cases had conversions`);
    } finally {
      await close();
    }
  }
});
