// Held sums (src/stats/held-sums.ts): a settlement's rows added up once, the rows since its cut added
// at each read with every visitor counted once per group; the cache keeps the most recently read
// within its capacity of visitor hashes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Held, HeldSums, HeldSumsCache, OpenSessions, type HeldForm, type SettledPart } from '../../src/stats/held-sums.js';
import { sql } from '../../src/sql/sql.js';

const FORM: HeldForm = { group: ['b', 'goal_id'], visitors: 'unique_conversions', sums: ['conversions', 'revenue_minor'] };
const row = (b: string, goal: bigint, visitor: bigint, conversions: number, revenue: number) => ({ b, goal_id: goal, visitor_id: visitor, conversions: BigInt(conversions), revenue_minor: revenue });
/** The form of the traffic measures' part: per day, its visitors and the other measures' sums. */
const MEASURES: HeldForm = { group: ['b'], visitors: 'visitors', sums: ['pageviews', 'events', 'sessions', 'bounces', 'duration_ms'] };
const byGroup = (rows: ReadonlyArray<Record<string, unknown>>) => [...rows].sort((a, b) => `${a.b}${a.goal_id}`.localeCompare(`${b.b}${b.goal_id}`));

test('held sums add the recent rows, counting a visitor of both once per group', () => {
  const settled = [
    row('2026-03-05', 1n, -9_000_000_000_000_000_000n, 2, 100),
    row('2026-03-05', 1n, 5n, 1, 0),
    row('2026-03-05', 2n, 5n, 3, 0),
    row('2026-03-04', 1n, 5n, 1, 50),
    row('2026-03-05', 1n, 9_000_000_000_000_000_000n, 1, 0),
  ];
  const held = HeldSums.of(FORM, settled);
  assert.equal(held.visitors, 5);
  const recent = [
    // Held in this group: its sums add, not its visitor.
    row('2026-03-05', 1n, 5n, 4, 10),
    row('2026-03-05', 1n, 9_000_000_000_000_000_000n, 1, 0),
    // Held in another group only (day 4, goal 2): a new visitor of this one.
    row('2026-03-05', 1n, 7n, 1, 0),
    // A group only the recent rows have.
    row('2026-03-06', 2n, 5n, 2, 0),
  ];
  const expected = [
    { b: '2026-03-04', goal_id: 1n, unique_conversions: 1, conversions: 1, revenue_minor: 50 },
    { b: '2026-03-05', goal_id: 1n, unique_conversions: 4, conversions: 10, revenue_minor: 110 },
    { b: '2026-03-05', goal_id: 2n, unique_conversions: 1, conversions: 3, revenue_minor: 0 },
    { b: '2026-03-06', goal_id: 2n, unique_conversions: 1, conversions: 2, revenue_minor: 0 },
  ];
  assert.deepEqual(byGroup(held.plus(recent)), expected);
  // The held sums are unchanged by a read: the next one adds its own rows to the same.
  assert.deepEqual(byGroup(held.plus(recent)), expected);
  assert.deepEqual(byGroup(held.plus([])), [expected[0], { ...expected[1], unique_conversions: 3, conversions: 4, revenue_minor: 100 }, expected[2]]);
});

test('held sums over many visitors find each of them (the binary search over sorted hashes)', () => {
  const visitors = Array.from({ length: 1000 }, (_, i) => BigInt(i * 7919 - 3_000_000) * 1_000_003n);
  const held = HeldSums.of(FORM, visitors.map((v) => row('2026-03-05', 1n, v, 1, 0)));
  const again = held.plus(visitors.map((v) => row('2026-03-05', 1n, v, 1, 0)));
  assert.equal(again[0]!.unique_conversions, 1000);
  const others = held.plus(visitors.map((v) => row('2026-03-05', 1n, v + 1n, 1, 0)));
  assert.equal(others[0]!.unique_conversions, 2000);
});

test('the cache keeps the most recently read sums within its capacity, one cut of a site, and takes settlements of up to a quarter of it', () => {
  const part: SettledPart = { site: 's', cut: 1, key: 'k', form: FORM, settled: sql`SELECT 1`, recent: sql`SELECT 1`, whole: sql`SELECT 1` };
  const sums = (n: number) => Held.of(part, Array.from({ length: n }, (_, i) => row('2026-03-05', 1n, BigInt(i), 1, 0)), null);
  const at = (key: string, site = key, cut = 1) => ({ key, site, cut });
  const cache = new HeldSumsCache(10);
  assert.ok(cache.takes(2) && !cache.takes(3));
  cache.keep(at('a'), sums(4));
  cache.keep(at('b'), sums(4));
  assert.equal(cache.size, 8);
  // Read last, 'a' stays when 'c' pushes the total over the capacity.
  assert.ok(cache.get('a'));
  cache.keep(at('c'), sums(3));
  assert.equal(cache.get('b'), undefined);
  assert.ok(cache.get('a') && cache.get('c'));
  assert.equal(cache.size, 7);
  // Kept again under the same key: the first stays (the same rows).
  const first = cache.get('c');
  cache.keep(at('c'), sums(3));
  assert.equal(cache.get('c'), first);
  assert.equal(cache.size, 7);
  // A later cut of site 'a' lets go of the earlier one's sums; another part of the same cut stays.
  cache.keep(at('a goals', 'a'), sums(1));
  cache.keep(at('a2', 'a', 2), sums(2));
  assert.equal(cache.get('a'), undefined);
  assert.equal(cache.get('a goals'), undefined);
  assert.ok(cache.get('a2') && cache.get('c'));
  assert.equal(cache.size, 5);
  // A check that no longer holds lets go of them.
  cache.drop('a2');
  assert.equal(cache.get('a2'), undefined);
  assert.equal(cache.size, 3);
  // The reads of one load share the rows since the cut, and so what they add up to.
  const held = sums(2);
  const recent = [row('2026-03-05', 1n, 1n, 1, 0), row('2026-03-05', 1n, 9n, 1, 0)];
  assert.equal(held.plus(recent), held.plus(recent));
  assert.deepEqual(held.plus([...recent]), [{ b: '2026-03-05', goal_id: 1n, unique_conversions: 3, conversions: 4, revenue_minor: 0 }]);
  assert.ok(Object.isFrozen(held.plus(recent)[0]));
  // A declined part lets go of its sums and is remembered until a later cut of its site.
  cache.keep(at('d'), sums(1));
  cache.decline(at('d'));
  assert.ok(cache.declined('d') && cache.get('d') === undefined);
  assert.equal(cache.size, 3);
  cache.keep(at('d2', 'd', 2), sums(1));
  assert.ok(!cache.declined('d'));
  assert.equal(cache.size, 4);
});

test('a session with two visitor hashes on one day (a salt rotated) keeps a part for each', () => {
  const parts = [
    { b: '2026-03-05', session_id: 1n, visitor_id: 5n, starts: 1, events: 1, f_pageviews: 1, f_customs: 0, f_engaged_ms: 0, f_engages: 0, f_first_ts: 100, f_last_ts: 100 },
    { b: '2026-03-05', session_id: 1n, visitor_id: 6n, starts: 0, events: 1, f_pageviews: 1, f_customs: 0, f_engaged_ms: 0, f_engages: 0, f_first_ts: 200, f_last_ts: 200 },
  ];
  const rows = OpenSessions.of(parts, 0).rowsOf({ from: '2026-03-05', to: '2026-03-05' });
  assert.deepEqual(
    rows.map((r) => [r.visitor_id, r.pageviews, r.sessions, r.bounces, r.duration_ms]),
    [
      [5n, 1, 1, 0, 100],
      [6n, 1, 0, 0, 0],
    ],
  );
});

test('open sessions take their facts over both sides of the cut: a bounce undone, an engaged time, a session begun after it', () => {
  const part = (b: string, session: bigint, visitor: bigint, starts: number, facts: Partial<Record<string, number>>) => ({
    b,
    session_id: session,
    visitor_id: visitor,
    starts,
    events: (facts.pageviews ?? 0) + (facts.engages ?? 0),
    f_pageviews: facts.pageviews ?? 0,
    f_customs: 0,
    f_engaged_ms: facts.engaged_ms ?? 0,
    f_engages: facts.engages ?? 0,
    f_first_ts: facts.first_ts!,
    f_last_ts: facts.last_ts!,
  });
  const cut = 10_000_000;
  const at = cut - 1_800_000;
  const open = OpenSessions.of(
    [
      // Open at the cut: one pageview before it, across midnight (its part of the next day holds nothing yet).
      part('2026-03-04', 1n, 7n, 1, { pageviews: 1, first_ts: at + 5, last_ts: at + 5 }),
      // Ended a session gap before the cut: settled, not open.
      part('2026-03-04', 2n, 8n, 1, { pageviews: 1, first_ts: at - 10, last_ts: at - 1 }),
    ],
    at,
  );
  assert.equal(open.size, 1);
  const days = { from: '2026-03-04', to: '2026-03-05' };
  const recent = [
    // 4 s engaged before midnight, then its second pageview the next day: no bounce, its engaged time (its facts combined once).
    part('2026-03-04', 1n, 7n, 0, { engages: 1, engaged_ms: 4_000, first_ts: cut + 500, last_ts: cut + 500 }),
    part('2026-03-05', 1n, 70n, 0, { pageviews: 1, first_ts: cut + 1_000, last_ts: cut + 1_000 }),
    // A session begun after the cut, engaged 12 s: no bounce, its engaged time.
    part('2026-03-05', 3n, 70n, 1, { pageviews: 1, engages: 1, engaged_ms: 12_000, first_ts: cut + 2_000, last_ts: cut + 3_000 }),
  ];
  const byDay = (rows: ReadonlyArray<Record<string, unknown>>) => [...rows].sort((a, b) => String(a.b).localeCompare(String(b.b)));
  // Before the cut, the open session bounced.
  const before = { b: '2026-03-04', visitor_id: 7n, pageviews: 1, events: 1, sessions: 1, bounces: 1, duration_ms: 0 };
  assert.deepEqual(open.rowsOf(days), [before]);
  // What the rows since the cut change: the open session's bounce undone and its engaged time, its part of the next day, the new session.
  assert.deepEqual(byDay(open.changes(recent, days)), [
    { b: '2026-03-04', visitor_id: 7n, pageviews: 0, events: 1, sessions: 0, bounces: -1, duration_ms: 4_000 },
    { b: '2026-03-05', visitor_id: 70n, pageviews: 2, events: 3, sessions: 1, bounces: 0, duration_ms: 12_000 },
  ]);
  // Held with its part, each read adds its changes to the rows before the cut: the sessions over both sides.
  const held = Held.of({ site: 's', cut, key: 'm', form: MEASURES, settled: sql`SELECT 1`, recent: sql`SELECT 1`, open: { rows: sql`SELECT 1`, at, days } }, [], [
    part('2026-03-04', 1n, 7n, 1, { pageviews: 1, first_ts: at + 5, last_ts: at + 5 }),
  ]);
  assert.deepEqual(byDay(held.plus(recent)), [
    { b: '2026-03-04', visitors: 1, pageviews: 1, events: 2, sessions: 1, bounces: 0, duration_ms: 4_000 },
    { b: '2026-03-05', visitors: 1, pageviews: 2, events: 3, sessions: 1, bounces: 0, duration_ms: 12_000 },
  ]);
  // The held sessions are unchanged by the read before: a later read with more rows since the cut
  // (another pageview of the open session, a day outside the read's) adds only its own.
  const later = [...recent, part('2026-03-04', 1n, 7n, 0, { pageviews: 1, first_ts: cut + 800, last_ts: cut + 800 }), part('2026-03-06', 1n, 700n, 0, { pageviews: 1, first_ts: cut + 9_000, last_ts: cut + 9_000 })];
  assert.deepEqual(byDay(held.plus(later)), [
    { b: '2026-03-04', visitors: 1, pageviews: 2, events: 3, sessions: 1, bounces: 0, duration_ms: 4_000 },
    { b: '2026-03-05', visitors: 1, pageviews: 2, events: 3, sessions: 1, bounces: 0, duration_ms: 12_000 },
  ]);
  assert.deepEqual(held.plus([]), [{ b: '2026-03-04', visitors: 1, pageviews: 1, events: 1, sessions: 1, bounces: 1, duration_ms: 0 }]);
  assert.deepEqual(open.changes([], days), []);
  // A visitor of a settled session and of an open one the same day counts once.
  const withSettled = Held.of({ site: 's', cut, key: 'm2', form: MEASURES, settled: sql`SELECT 1`, recent: sql`SELECT 1`, open: { rows: sql`SELECT 1`, at, days } },
    [{ b: '2026-03-04', visitor_id: 7n, pageviews: 2, events: 2, sessions: 1, bounces: 0, duration_ms: 10 }],
    [part('2026-03-04', 1n, 7n, 1, { pageviews: 1, first_ts: at + 5, last_ts: at + 5 })],
  );
  assert.deepEqual(byDay(withSettled.plus(recent))[0], { b: '2026-03-04', visitors: 1, pageviews: 3, events: 4, sessions: 2, bounces: 0, duration_ms: 4_010 });
  // A day outside the read's days counts no part.
  assert.deepEqual(open.rowsOf({ from: '2026-03-05', to: '2026-03-05' }), []);
});
