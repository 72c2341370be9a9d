// The Admission contract (collection's rate-limit hit and session touch of an event, decided
// together), written once and run against both implementations: in process (the window, then the
// session cache) and Redis (one call of the turn's script; each test on a key prefix of its own).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { SESSION_GAP_MS } from '../../src/core/session-gap.js';
import type { SessionDecision } from '../../src/storage/counters/live-sessions.js';
import type { Admission } from '../../src/storage/counters/admission.js';
import type { Counters } from '../../src/storage/counters/open.js';
import { COUNTER_KINDS, testWithCounters } from '../../support/counters.js';
import { sessionAttributes } from '../../support/events.js';

const MIN = 60_000;
const T0 = Date.UTC(2026, 5, 10, 10, 0);
const attrs = (referrer: string) => sessionAttributes({ referrer, country: 'DE', browser: 'Chrome', os: 'Windows', device: 'desktop' });

/** An admission of visitor `v` under the rate key `key`, a pageview of `page` whose candidate attributes name the page. */
const admit = (a: Admission, key: string, v: bigint, ts: number, page: string, start = () => attrs(page)): Promise<SessionDecision | null> =>
  Promise.resolve(a.admit(key, { visitorId: v, previousVisitorId: undefined, ts, page, isPageview: true, start }));

for (const kind of COUNTER_KINDS) {
  describe(`Admission contract: ${kind.name}`, () => {
    const withCounters = (name: string, processes: number, body: (counters: Counters[]) => Promise<void>) => testWithCounters(kind, name, processes, body);

    withCounters('an event over the limit is refused: the hit is not counted and no session is started or moved', 1, async ([counters]) => {
      const admission = counters!.admission('collect', 2, 30 * MIN);
      const first = await admit(admission, 'net', 1n, T0, '/a');
      assert.equal(first?.started, true);
      assert.equal((await admit(admission, 'net', 1n, T0 + 1, '/b'))?.started, false);
      // Refused at T0 + 20 minutes: the session's latest instant stays T0 + 1.
      assert.equal(await admit(admission, 'net', 1n, T0 + 20 * MIN, '/c'), null);
      // A visitor of the same network is refused too, and has no session.
      assert.equal(await admit(admission, 'net', 2n, T0 + 2, '/d'), null);
      assert.equal((await counters!.liveSessions.touch({ visitorId: 2n, previousVisitorId: undefined, ts: T0 + 3, page: '/d', isPageview: true, start: () => attrs('/d') })).started, true);
      const later = await counters!.liveSessions.touch({ visitorId: 1n, previousVisitorId: undefined, ts: T0 + 2, page: '/e', isPageview: true, start: () => attrs('/e') });
      assert.deepEqual([later.started, later.session.sessionId, later.session.lastTs], [false, first!.session.sessionId, T0 + 2]);
      // Once the oldest counted hit has left the window, events are admitted again.
      assert.equal((await admit(admission, 'net', 1n, T0 + 30 * MIN, '/f'))?.session.sessionId, first!.session.sessionId);
    });

    withCounters('an admission hits the window of the same name and limit that rateLimiter gives', 1, async ([counters]) => {
      const limiter = counters!.rateLimiter('collect', 2, MIN);
      assert.equal(await limiter.hit('k', T0), true);
      assert.notEqual(await admit(counters!.admission('collect', 2, MIN), 'k', 3n, T0 + 1, '/'), null);
      assert.equal(await limiter.hit('k', T0 + 2), false);
      // Another name is another window.
      assert.notEqual(await admit(counters!.admission('other', 2, MIN), 'k', 3n, T0 + 3, '/'), null);
    });

    withCounters('admissions made at once are decided in the order made: the counted ones form one session', 1, async ([counters]) => {
      const admission = counters!.admission('collect', 3, MIN);
      const decisions = await Promise.all([0, 1, 2, 3, 4].map((i) => admit(admission, 'burst', 4n, T0 + i * 1000, `/p${i}`)));
      assert.deepEqual(decisions.map((d) => d?.started ?? null), [true, false, false, null, null]);
      assert.equal(new Set(decisions.slice(0, 3).map((d) => d!.session.sessionId)).size, 1);
      assert.deepEqual([decisions[2]!.session.entryPage, decisions[2]!.session.lastTs, decisions[2]!.session.attrs.referrer], ['/p0', T0 + 2000, '/p0']);
    });

    withCounters('a session\'s attributes are computed for the event that starts it, not for those that go on with it', 1, async ([counters]) => {
      const admission = counters!.admission('collect', 100, MIN);
      let computed = 0;
      const start = () => {
        computed++;
        return attrs('first');
      };
      for (let i = 0; i < 4; i++) assert.equal((await admit(admission, 'n', 5n, T0 + i * MIN, `/p${i}`, start))?.session.attrs.referrer, 'first');
      assert.equal(computed, 1);
      // Past the gap a new session starts, with new attributes.
      const next = await admit(admission, 'n', 5n, T0 + 3 * MIN + SESSION_GAP_MS, '/q', () => attrs('second'));
      assert.deepEqual([next?.started, next?.session.attrs.referrer, next?.session.entryPage], [true, 'second', '/q']);
    });

    withCounters('processes sharing the counters: one window and one session', 2, async ([a, b]) => {
      const decisions: Array<SessionDecision | null> = [];
      for (let i = 0; i < 5; i++) decisions.push(await admit((i % 2 === 0 ? a! : b!).admission('collect', 4, MIN), 'shared', 6n, T0 + i * MIN / 10, `/${i}`));
      assert.deepEqual(decisions.map((d) => d?.started ?? null), [true, false, false, false, null]);
      assert.equal(new Set(decisions.slice(0, 4).map((d) => d!.session.sessionId)).size, 1);
      assert.deepEqual(decisions.slice(0, 4).map((d) => d!.session.attrs.referrer), Array(4).fill('/0'));
    });
  });
}

const redisKind = COUNTER_KINDS.find((k) => k.name === 'redis')!;

test('Redis: a known session Redis no longer holds: the next event starts a new one, with its attributes', async () => {
  const { counters, redis, prefix, dispose } = await redisKind.open();
  try {
    const admission = counters[0]!.admission('collect', 100, MIN);
    const first = await admit(admission, 'n', 7n, T0, '/a');
    // As an eviction under maxmemory would.
    assert.equal(await redis!.del(`${prefix}ls:7`), 1);
    const next = await admit(admission, 'n', 7n, T0 + MIN, '/b');
    assert.deepEqual([next?.started, next?.session.entryPage, next?.session.attrs.referrer], [true, '/b', '/b']);
    assert.notEqual(next!.session.sessionId, first!.session.sessionId);
    assert.equal(await redis!.hget(`${prefix}ls:7`, 'id'), String(next!.session.sessionId));
    const touched = await counters[0]!.liveSessions.touch({ visitorId: 7n, previousVisitorId: undefined, ts: T0 + 2 * MIN, page: '/c', isPageview: true, start: () => attrs('/c') });
    assert.deepEqual([touched.started, touched.session.sessionId, touched.session.attrs.referrer], [false, next!.session.sessionId, '/b']);
  } finally {
    await dispose();
  }
});

test('Redis: another process\'s new session of a visitor replaces the one this process knows', async () => {
  const { counters, redis, prefix, dispose } = await redisKind.open(2);
  try {
    const [a, b] = counters.map((c) => c.admission('collect', 100, MIN));
    await admit(a!, 'n', 8n, T0, '/a');
    await redis!.del(`${prefix}ls:8`);
    const other = await admit(b!, 'n', 8n, T0 + MIN, '/b', () => attrs('from b'));
    assert.equal(other?.started, true);
    const seen = await admit(a!, 'n', 8n, T0 + 2 * MIN, '/c');
    assert.deepEqual([seen?.started, seen?.session.sessionId, seen?.session.attrs.referrer, seen?.session.entryPage], [false, other!.session.sessionId, 'from b', '/b']);
  } finally {
    await dispose();
  }
});
