// The relations and measure rows alone (src/stats/sql/events.ts, measures.ts), with the builders
// that read them (properties.ts, scroll.ts, goals.ts, realtime.ts, daily.ts's hourly read, and the
// rollup job's own, rollups/sql.ts): inputs in, text and parameters out, on both dialects; then run
// on DuckDB over a few events.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { SESSION_GAP_MS } from '../../../src/core/session-gap.js';
import { sql, trusted, type Sql } from '../../../src/sql/sql.js';
import { measurePropertyNones, sessionPartDays, sessionPartsOfEvents, sessionRowsOfParts } from '../../../src/stats/rollups/sql.js';
import { SESSION_ROWS } from '../../../src/stats/rollups/tables.js';
import { cutDayStatements, hourlyMeasures } from '../../../src/stats/sql/daily.js';
import { eventsRelation, sessionRowsRelation, type EventScope } from '../../../src/stats/sql/events.js';
import { funnelStatements } from '../../../src/stats/sql/goals.js';
import { DAY_BUCKET, measureEvents, measureSessionRows } from '../../../src/stats/sql/measures.js';
import { measurePropertyPairs, propertyKeysStatement } from '../../../src/stats/sql/properties.js';
import { anyEventStatement, realtimeStatements, recentVisitorsStatement } from '../../../src/stats/sql/realtime.js';
import { measureScrollDepth, scrollDepthStatements } from '../../../src/stats/sql/scroll.js';
import { storedEvent } from '../../helpers/stored-event.js';
import { checked, DIALECTS, NOW, planned, withDuckDb } from './dialects.js';

const DAY = { from: '2026-03-01', to: '2026-03-01' };
const SCOPE: EventScope = { siteId: 's', days: DAY, filters: [], exit: false };
const SOURCES = { rollup: DAY, sessions: null, raw: { from: '2026-03-02', to: '2026-03-02' }, imported: null, firstComputable: DAY.from };
const PANEL = { currentMs: 300_000, minutes: 30, topSize: 10, feedSize: 20 };

for (const { name, d } of DIALECTS) {
  const range = (from: string, to: string) => `day BETWEEN ${d.dateLiteral(from)} AND ${d.dateLiteral(to)}`;
  describe(`sql/events and measures: ${name}`, () => {
    test('eventsRelation: the scope alone, its filters, the exit page over the days around it', () => {
      assert.deepEqual(checked(eventsRelation(d, SCOPE)), { text: `(SELECT * FROM events WHERE site_id = ? AND ${range(DAY.from, DAY.to)}) ev`, params: ['s'] });
      const exit = checked(eventsRelation(d, { ...SCOPE, filters: [{ dimension: 'country', value: 'FR', values: ['FR'] }], exit: true }));
      assert.equal(
        exit.text,
        `(SELECT * FROM (SELECT e.*, CASE WHEN x.matched = 1 THEN x.exit_page END AS exit_page FROM (SELECT * FROM events WHERE site_id = ? AND ${range(DAY.from, DAY.to)}) e` +
          ` LEFT JOIN (SELECT p.p_session AS session_id, min(p.p_page) AS exit_page, 1 AS matched` +
          ` FROM (SELECT session_id AS p_session, ts AS p_ts, page AS p_page FROM events WHERE site_id = ? AND ${range('2026-02-28', '2026-03-02')} AND name = 'pageview') p` +
          ` JOIN (SELECT session_id AS l_session, max(ts) AS l_ts FROM events WHERE site_id = ? AND ${range('2026-02-28', '2026-03-02')} AND name = 'pageview'` +
          ` AND session_id IN (SELECT session_id FROM events WHERE site_id = ? AND ${range(DAY.from, DAY.to)}) GROUP BY session_id) l` +
          ` ON p.p_session = l.l_session AND p.p_ts = l.l_ts GROUP BY p.p_session) x` +
          ` ON e.session_id = x.session_id) f WHERE coalesce(country, '(none)') = ?) ev`,
      );
      assert.deepEqual(exit.params, ['s', 's', 's', 's', 'FR']);
      const property = checked(eventsRelation(d, { ...SCOPE, property: 'prop.plan' }));
      assert.ok(property.text.endsWith(`AS prop_token FROM (SELECT * FROM events WHERE site_id = ? AND ${range(DAY.from, DAY.to)}) c WHERE NOT name = 'engage') ev`), property.text);
    });

    test('measureEvents: session facts read a day on (and 25 hours on for instants), counted where they start', () => {
      const m = checked(measureEvents(d, { ...SCOPE, instants: { from: 1, to: 2 } }, { bucket: DAY_BUCKET, sessions: true }));
      assert.deepEqual(m.params, ['s', 1, 2, 2, 's', 1, 2 + 25 * 3_600_000]);
      assert.ok(m.text.includes(`FROM events WHERE site_id = ? AND ${range(DAY.from, '2026-03-02')} AND ts >= ? AND ts < ?`), m.text);
      assert.ok(m.text.includes(`min(CASE WHEN session_start AND day <= ${d.dateLiteral(DAY.from)} AND ts < ? THEN day END) AS sb`), m.text);
      const flat = checked(measureEvents(d, SCOPE, { bucket: DAY_BUCKET, key: trusted('page'), sessions: false }));
      assert.ok(flat.text.startsWith('SELECT a.b AS b, a.k AS k, a.visitors, a.pageviews, a.events, a.sessions, 0 AS bounces, 0 AS duration_ms FROM (SELECT day AS b, page AS k, '), flat.text);
      assert.ok(flat.text.endsWith('GROUP BY b, k) a') && !flat.text.includes('LEFT JOIN'), flat.text);
    });

    test('session rows: the filters first where the engine reads them first', () => {
      const rows = checked(sessionRowsRelation(d, 's', DAY, [{ dimension: 'country', value: 'FR', values: ['FR'] }]));
      const first = d.readFirst();
      assert.equal(
        rows.text,
        first === null
          ? `(SELECT * FROM ${SESSION_ROWS.name} WHERE site_id = ? AND ${range(DAY.from, DAY.to)} AND country = ?) ev`
          : `(SELECT * FROM ${SESSION_ROWS.name} ${first} country = ? WHERE site_id = ? AND ${range(DAY.from, DAY.to)}) ev`,
      );
      assert.deepEqual(rows.params, first === null ? ['s', 'FR'] : ['FR', 's']);
      checked(measureSessionRows(d, 's', DAY, []));
    });

    test('the rollup job: session parts of the days and one either side, session rows from them', () => {
      assert.deepEqual(sessionPartDays({ from: '2026-03-01', to: '2026-03-02' }), { from: '2026-02-28', to: '2026-03-03' });
      const parts = sessionPartsOfEvents(d, 's', { from: '2026-03-01', to: '2026-03-02' }).map(checked);
      assert.equal(parts.length, 4, 'a select a day, and one for each day around');
      assert.throws(() => sessionPartsOfEvents(d, 's', { from: '2026-03-02', to: '2026-03-01' }), RangeError);
      const shared = sessionPartsOfEvents(d, 's', { from: '2026-03-01', to: '2026-03-02' }, (day) => (day === '2026-03-02' ? 3 : 1)).map(checked);
      assert.equal(shared.length, 6, 'a heavy day a select a share of its sessions');
      assert.ok(shared[2]!.text.includes('AND (session_id % ? + ?) % ? = ?'), shared[2]!.text);
      // A share's exit pages are those of its own sessions: the parts of the days around are read for them alone.
      assert.deepEqual(sessionRowsOfParts(d, 's', DAY).map(checked).map((s) => s.params), [['s', 's', 's', 's']]);
      assert.equal(sessionRowsOfParts(d, 's', DAY, 2).map(checked).length, 2);
      checked(measurePropertyNones(d, 's', DAY));
    });

    test('properties, scroll depth, funnels: rolled-up days and raw days, each a statement or a part', () => {
      const keys = checked(propertyKeysStatement(d, 's', SOURCES, 7)!);
      assert.ok(keys.text.endsWith('GROUP BY k ORDER BY n DESC, k ASC LIMIT ?'));
      assert.deepEqual([keys.params.slice(0, 3), keys.params.at(-1)], [['s', 'prop.%', '(none)'], 7]);
      assert.equal(propertyKeysStatement(d, 's', { ...SOURCES, rollup: null, raw: null }, 7), null);
      checked(measurePropertyPairs(d, 's', DAY));
      assert.equal(scrollDepthStatements(d, 's', SOURCES, ['/a']).length, 2);
      assert.deepEqual(scrollDepthStatements(d, 's', SOURCES, []), []);
      assert.deepEqual(checked(measureScrollDepth(d, DAY_BUCKET, 's', DAY, ['/a', '/b'])).params, ['s', '/a', '/b']);
      const funnel = funnelStatements(d, 's', SOURCES, { id: 4, version: 2, steps: [{ kind: 'page', pattern: '/' }, { kind: 'event', pattern: 'Buy' }] });
      assert.deepEqual(checked(funnel.rollup!), {
        text: `SELECT step, sum(visitors) AS visitors FROM funnel_daily WHERE site_id = ? AND funnel_id = 4 AND version = 2 AND ${range(DAY.from, DAY.to)} GROUP BY step`,
        params: ['s'],
      });
      // Each step's pattern twice: in the bits of the steps a row matches, and in the rows kept.
      assert.deepEqual(checked(funnel.raw!).params, ['^/$', 'Buy', 's', '^/$', 'Buy']);
    });

    test('realtime: bounded by the local days from the day before the first minute, and by instant', () => {
      const from = NOW - 30 * 60_000;
      const s = realtimeStatements(d, 's', 'UTC', NOW, from, PANEL);
      assert.deepEqual(checked(s.current).params, ['s', from, from + 30 * 60_000, NOW - PANEL.currentMs, NOW]);
      assert.ok(checked(s.current).text.includes(range('2026-03-19', '2026-03-20')));
      assert.deepEqual(checked(s.topPages).params.at(-1), PANEL.topSize);
      assert.deepEqual(checked(s.feed).params.at(-1), PANEL.feedSize);
      assert.deepEqual(checked(recentVisitorsStatement(d, 's', 'UTC', NOW, 60_000)).params, ['s', NOW - 60_000, NOW + 1]);
      assert.deepEqual(checked(anyEventStatement(d, 's', DAY)), { text: `SELECT 1 AS one FROM events WHERE site_id = ? AND ${range(DAY.from, DAY.to)} LIMIT 1`, params: ['s'] });
    });

    test('hourly and cut-day reads: a bucket per hour, the day up to the cut', () => {
      const q = planned('stats', { period: 'today' });
      const hours = checked(hourlyMeasures(d, q, { from: '2026-03-20', to: '2026-03-20' }, [0, 3_600_000], 7_200_000));
      assert.ok(hours.text.includes('(CASE WHEN ts < ? THEN NULL WHEN ts < ? THEN 0 WHEN ts < ? THEN 1 ELSE NULL END)'), hours.text);
      const cut = cutDayStatements(d, q, { day: '2026-03-20', until: NOW, share: 0.5 }, [{ goalId: 1, kind: 'event', pattern: 'Buy' }]);
      assert.ok(checked(cut.measures).params.includes(NOW));
      assert.ok(checked(cut.goals!).params.includes(NOW));
      assert.equal(cutDayStatements(d, q, { day: '2026-03-20', until: NOW, share: 0.5 }, []).goals, null);
    });
  });
}

test('sql/events and measures: the statements run on DuckDB and count a session across midnight once', async () => {
  const { d } = DIALECTS[0]!;
  await withDuckDb(async (store) => {
    const start = Date.UTC(2026, 2, 1, 23, 59);
    const base = { ...storedEvent(0), siteId: 's', sessionStart: true, page: '/a', props: '{"plan":"pro"}' };
    // One session: a pageview before midnight, another just after (inside the session gap).
    await store.append([
      { ...base, ts: start, day: '2026-03-01' },
      { ...base, ts: start + 120_000, day: '2026-03-02', sessionStart: false, page: '/b' },
    ]);
    assert.ok(120_000 < SESSION_GAP_MS);
    const rows = await store.query<{ b: unknown; visitors: bigint; sessions: bigint; bounces: bigint }>(measureEvents(d, SCOPE, { bucket: DAY_BUCKET, sessions: true }));
    assert.deepEqual(rows.map((r) => [Number(r.visitors), Number(r.sessions), Number(r.bounces)]), [[1, 1, 0]], 'not a bounce: its second pageview is the next day');
    const exit = await store.query<{ exit_page: string }>(sql`SELECT exit_page FROM ${eventsRelation(d, { ...SCOPE, exit: true })}`);
    assert.deepEqual(exit, [{ exit_page: '/b' }]);
    const pairs = await store.query<{ dim: string; k: string }>(measurePropertyPairs(d, 's', DAY));
    assert.deepEqual(pairs.map((r) => [r.dim, r.k]), [['prop.plan', 'pro']]);
    // Not sessionRowsOfParts: session parts are a scratch table, of the rollup job's connection only.
    const statements: Sql[] = [
      ...sessionPartsOfEvents(d, 's', DAY), measurePropertyNones(d, 's', DAY), measureSessionRows(d, 's', DAY, [{ dimension: 'country', value: 'FR', values: ['FR'] }]),
      propertyKeysStatement(d, 's', SOURCES, 7)!, ...scrollDepthStatements(d, 's', SOURCES, ['/a']),
      ...Object.values(realtimeStatements(d, 's', 'UTC', NOW, NOW - 30 * 60_000, PANEL)), recentVisitorsStatement(d, 's', 'UTC', NOW, 60_000), anyEventStatement(d, 's', DAY),
    ];
    for (const s of statements) await store.query(s);
  });
});
