// docs/api.md, "Visits under filters": on random datasets, what reads
// with `raw=clip` answer under event and session filters (stats, a day and an hour timeseries, page
// rows with include=bounceRate,avgDuration,timeOnPage) equals a plain model of the definitions over
// the same events, on both engines; the base API's requests (no `raw=clip`) keep their answers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startOfLocalDay } from '../../src/core/localtime.js';
import { parseQuery, type QueryKind, type RawParams } from '../../src/core/query.js';
import { NONE_KEY, splitFilterParam } from '../../src/core/vocabulary.js';
import { BUILT_IN_EVENTS } from '../../src/ingest/event-shape.js';
import { planQuery } from '../../src/stats/planner.js';
import { computeBreakdown } from '../../src/stats/read/breakdown.js';
import { computeStats } from '../../src/stats/read/stats.js';
import { computeTimeseries } from '../../src/stats/read/timeseries.js';
import type { StoredEvent } from '../../src/storage/events/schema.js';
import { dataset } from '../../support/datasets.js';
import { storedValue } from '../../support/events.js';
import { EVENT_STORE_ADAPTERS } from '../helpers/event-stores.js';
import { openRollupSite } from '../helpers/rollup-site.js';

const TZ = 'America/New_York';
const DAYS = ['2026-03-02', '2026-03-03', '2026-03-04'];
const NOW = startOfLocalDay('2026-03-05', TZ) + 8 * 3_600_000;
const FILTER_SETS: ReadonlyArray<readonly string[]> = [
  ['page:/'],
  ['page:/pricing', 'country:FR'],
  ['page!:/'],
  ['hostname:blog.r.test'],
  ['event:signup'],
  ['prop.plan:pro'],
  ['page:/blog/a', 'event:pageview'],
  ['country:US'],
  ['entry:/docs/start', 'hostname:r.test'],
];

type Row = StoredEvent;

/** A dimension's value on an event, `(none)` where it has none. */
function valueOf(e: Row, dimension: string): string {
  const stored = storedValue(e, dimension);
  if (stored !== undefined) return stored ?? NONE_KEY;
  const value = e.props === null ? undefined : (JSON.parse(e.props) as Record<string, unknown>)[dimension.slice('prop.'.length)];
  return value === undefined ? NONE_KEY : String(value);
}

interface ModelFilter {
  dimension: string;
  value: string;
  not: boolean;
}

function parsed(texts: readonly string[]): ModelFilter[] {
  return texts.map((text) => {
    const parts = splitFilterParam(text)!;
    return { dimension: parts.dimension, value: parts.value, not: parts.operator === 'is_not' };
  });
}

const matches = (e: Row, filters: readonly ModelFilter[]) =>
  filters.every((f) => {
    // Properties' filters look at the events that carry properties: engage events carry their measurements, none.
    if (f.dimension.startsWith('prop.') && e.name === 'engage') return false;
    return (valueOf(e, f.dimension) === f.value) !== f.not;
  });

const ratio = (n: number, d: number, divideBy: number, digits: number) => (d > 0 ? Math.round((n / d / divideBy) * 10 ** digits) / 10 ** digits : null);

/** The definitions, over the events of whole sessions: the figures of the sessions starting in `inPeriod` under `filters`. */
function model(rows: readonly Row[], filters: readonly ModelFilter[], inPeriod: (e: Row) => boolean) {
  const sessions = new Map<bigint, Row[]>();
  for (const e of rows) sessions.set(e.sessionId, [...(sessions.get(e.sessionId) ?? []), e]);
  const landingFilters = filters.filter((f) => f.dimension === 'page' || f.dimension === 'hostname');
  let [visits, landings, bounces, durationMs] = [0, 0, 0, 0];
  for (const events of sessions.values()) {
    const start = events.find((e) => e.sessionStart)!;
    if (!inPeriod(start) || !events.some((e) => matches(e, filters))) continue;
    visits++;
    const pageviews = events.filter((e) => e.name === 'pageview').sort((a, b) => a.ts - b.ts);
    const engages = events.filter((e) => e.name === 'engage');
    const engaged = engages.reduce((sum, e) => sum + (e.engagedMs ?? 0), 0);
    const customs = events.filter((e) => !(BUILT_IN_EVENTS as readonly string[]).includes(e.name)).length;
    const ts = events.map((e) => e.ts);
    durationMs += engages.length > 0 ? engaged : Math.max(...ts) - Math.min(...ts);
    if (pageviews[0] === undefined || !matches(pageviews[0], landingFilters)) continue;
    landings++;
    if (!(pageviews.length >= 2 || customs >= 1 || engaged >= 10_000)) bounces++;
  }
  const matching = rows.filter((e) => inPeriod(e) && matches(e, filters));
  // Engaged time per page is counted where visits are read under an event filter (no rollup holds it).
  const engagedViews = filters.some((f) => ['page', 'hostname', 'event'].includes(f.dimension) || f.dimension.startsWith('prop.')) ? matching.filter((e) => e.name === 'engage') : [];
  return {
    sessions: visits,
    pageviews: matching.filter((e) => e.name === 'pageview').length,
    bounceRate: ratio(bounces, landings, 1, 4),
    avgDuration: ratio(durationMs, visits, 1000, 1),
    timeOnPage: ratio(
      engagedViews.reduce((sum, e) => sum + (e.engagedMs ?? 0), 0),
      engagedViews.length,
      1000,
      1,
    ),
  };
}

for (const adapter of EVENT_STORE_ADAPTERS) test(`visits, bounce rate, duration and time on page under any filter equal the model: ${adapter.name}`, async () => {
  for (const seed of [3, 4]) {
    const { events, site, goals, close } = await openRollupSite(adapter, seed, TZ);
    try {
      const rows = dataset({ seed, siteId: site.id, days: DAYS, dayStart: (d) => startOfLocalDay(d, TZ), sessionsPerDay: 40, visitorsPerDay: 30, timeZone: TZ });
      await events.append(rows);
      const read = <K extends QueryKind>(kind: K, params: RawParams) =>
        planQuery(parseQuery(kind, { from: DAYS[0], to: DAYS.at(-1), raw: 'clip', ...params }, site, NOW), { watermark: null, retentionMonths: null, rawDays: 60 });
      const inPeriod = (e: Row) => e.day >= DAYS[0]! && e.day <= DAYS.at(-1)!;
      let landed = 0;
      for (const texts of FILTER_SETS) {
        const label = `seed ${seed} [${texts.join(' ')}]`;
        const filters = parsed(texts);
        const want = model(rows, filters, inPeriod);
        const stats = await computeStats(events, read('stats', { filter: [...texts] }), goals);
        const got = { sessions: stats.sessions.value, pageviews: stats.pageviews.value, bounceRate: stats.bounceRate.value, avgDuration: stats.avgDuration.value, timeOnPage: stats.timeOnPage?.value };
        assert.deepEqual(got, want, label);
        if (want.bounceRate !== null) landed++;
        // A day's visits are its sessions: the daily and hourly series add up to the period's.
        const daily = await computeTimeseries(events, read('timeseries', { filter: [...texts], metric: 'sessions' }), goals);
        assert.deepEqual(
          daily.points.map((p) => p.value),
          DAYS.map((day) => model(rows, filters, (e) => e.day === day).sessions),
          `${label}: daily visits`,
        );
        const day = DAYS[1]!;
        const hourly = await computeTimeseries(events, read('timeseries', { filter: [...texts], metric: 'bounceRate', from: day, to: day, grain: 'hour' }), goals);
        const hour = startOfLocalDay(day, TZ) + 14 * 3_600_000;
        const inHour = (e: Row) => e.ts >= hour && e.ts < hour + 3_600_000;
        assert.equal(hourly.points.find((p) => p.t === hour)?.value, model(rows, filters, inHour).bounceRate, `${label}: 14:00's bounce rate`);
        // Each page row is what stats answers with the page's filter added.
        const pages = await computeBreakdown(events, read('breakdown', { filter: [...texts], dimension: 'page', include: 'bounceRate,avgDuration,timeOnPage', limit: '100' }));
        for (const row of pages.rows) {
          const keyed = model(rows, [...filters, { dimension: 'page', value: row.key, not: false }], inPeriod);
          assert.deepEqual({ bounceRate: row.bounceRate, avgDuration: row.avgDuration, timeOnPage: row.timeOnPage }, { bounceRate: keyed.bounceRate, avgDuration: keyed.avgDuration, timeOnPage: keyed.timeOnPage }, `${label}: ${row.key}`);
        }
      }
      assert.ok(landed >= FILTER_SETS.length - 2, `seed ${seed}: only ${landed} filter sets had landings`);
      // The base API's requests: sessions refused under filters, bounce rate and duration under an event filter, no time on page.
      const spec = await computeStats(events, planQuery(parseQuery('stats', { from: DAYS[0], to: DAYS.at(-1), filter: 'page:/' }, site, NOW), { watermark: null, retentionMonths: null, rawDays: 60 }), goals);
      assert.deepEqual([spec.sessions.value, spec.bounceRate.value, spec.avgDuration.value], [null, null, null]);
      assert.equal('timeOnPage' in spec, false, 'the base API keeps its six KPIs');
      assert.ok((spec.visitors.value ?? 0) > 0);
    } finally {
      await close();
    }
  }
});
