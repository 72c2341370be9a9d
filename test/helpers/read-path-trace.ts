// Run under ./stage-trace.mjs by test/stats/read-path-stages.test.ts: reads of each kind through the
// one entry (src/stats/entry.ts) on a site with rolled-up days and today's raw events, printing per
// read, as JSON, the calls of the read path's modules and the event store's statements, in order.
import { startOfLocalDay } from '../../src/core/localtime.js';
import type { QueryKind, RawParams } from '../../src/core/query.js';
import { answers, planRead, readSourceOf } from '../../src/stats/entry.js';
import { rollupSite } from '../../src/stats/rollups/run.js';
import type { EventReader } from '../../src/storage/events/types.js';
import { dataset } from '../../support/datasets.js';
import { EVENT_STORE_ADAPTERS } from './event-stores.js';
import { openRollupSite } from './rollup-site.js';

export type Step = { module: string; name: string } | { query: string };

const TZ = 'UTC';
const DAYS = ['2026-03-16', '2026-03-17', '2026-03-18', '2026-03-19', '2026-03-20'];
const NOW = startOfLocalDay('2026-03-20', TZ) + 15 * 3_600_000;

/** The reads traced: a label, its kind and its parameters. */
export const TRACED_READS: ReadonlyArray<[string, QueryKind & keyof typeof answers, RawParams]> = [
  ['stats, 7 days', 'stats', { period: '7d' }],
  ['stats, 7 days, a filter', 'stats', { period: '7d', filter: 'country:FR' }],
  ['stats, today against yesterday until the same hour', 'stats', { period: 'today', elapsed: 'true' }],
  ['timeseries, 7 days, compared', 'timeseries', { period: '7d', metric: 'visitors', compare: 'true' }],
  ['timeseries of conversions', 'timeseries', { period: '7d', metric: 'conversions' }],
  ['timeseries, hours of today', 'timeseries', { period: 'today', metric: 'pageviews' }],
  ['breakdown of pages, 7 days', 'breakdown', { period: '7d', dimension: 'page' }],
  ['breakdown of referrers, a filter', 'breakdown', { period: '7d', dimension: 'referrer', filter: 'device:mobile', include: 'bounceRate' }],
  ['breakdown of pages with scroll depth and vitals', 'breakdown', { period: '7d', dimension: 'page', include: 'scrollDepth,vitals' }],
  // The fixture's goals 3 and 4: signup, and trial (a revenue goal).
  ['stats under a goal filter', 'stats', { period: '7d', raw: 'clip', filter: 'goal:3|4' }],
  ['timeseries of a goal filter\'s conversion rate', 'timeseries', { period: '7d', raw: 'clip', metric: 'conversionRate', filter: 'goal:3' }],
  ['breakdown of countries under a goal filter', 'breakdown', { period: '7d', raw: 'clip', dimension: 'country', filter: 'goal:4' }],
  ['goals, 7 days', 'goals', { period: '7d' }],
  ['journeys', 'journeys', { period: '7d' }],
  ['funnel', 'funnel', { period: '7d' }],
];

const { events, meta, site, close } = await openRollupSite(EVENT_STORE_ADAPTERS[0]!, 7, TZ);
const trace: Step[] = [];
try {
  await events.append(dataset({ seed: 7, siteId: site.id, days: DAYS, dayStart: (d) => startOfLocalDay(d, TZ), sessionsPerDay: 40, visitorsPerDay: 30, timeZone: TZ }));
  await rollupSite({ events, meta }, site, NOW, { dimensionKeyCap: 1000 });
  const funnel = { id: 1, name: 'f', version: 1, currentVersion: 1, windowMinutes: 30, steps: [{ kind: 'page' as const, pattern: '/' }, { kind: 'event' as const, pattern: 'signup' }] };
  const recording: EventReader = {
    dialect: events.dialect,
    query: (s, o) => (trace.push({ query: s.text.slice(0, 60) }), events.query(s, o)),
    queryPage: (s, o) => (trace.push({ query: s.text.slice(0, 60) }), events.queryPage(s, o)),
  };
  const source = readSourceOf(events, meta, recording);
  const out: Record<string, Step[]> = {};
  for (const [label, kind, params] of TRACED_READS) {
    (globalThis as { __stageTrace?: Step[] }).__stageTrace = trace;
    trace.length = 0;
    const planned = await planRead(source, { kind, params, site, now: NOW });
    if (kind === 'funnel') await answers.funnel(source, planned, funnel);
    else await (answers[kind] as (s: typeof source, p: typeof planned) => Promise<unknown>)(source, planned);
    (globalThis as { __stageTrace?: Step[] }).__stageTrace = undefined;
    out[label] = [...trace];
  }
  process.stdout.write(JSON.stringify(out));
} finally {
  await close();
}
