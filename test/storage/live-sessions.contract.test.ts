// The LiveSessionStore contract, written once and run against every implementation: in process
// (SessionCache) and Redis (each test on a key prefix of its own).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { SESSION_GAP_MS } from '../../src/core/session-gap.js';
import type { LiveSessionStore, SessionDecision } from '../../src/storage/counters/live-sessions.js';
import { COUNTER_KINDS } from '../../support/counters.js';
import { sessionAttributes } from '../../support/events.js';

const MIN = 60_000;
const T0 = Date.UTC(2026, 5, 10, 10, 0);

const attrs = (referrer: string) =>
  sessionAttributes({ referrer, utmMedium: 'email', country: 'FR', region: 'Île-de-France', city: 'Paris', browser: 'Firefox', os: 'Linux', device: 'desktop' });

for (const kind of COUNTER_KINDS) {
  describe(`LiveSessionStore contract: ${kind.name}`, () => {
    const withStores = (name: string, processes: number, body: (stores: LiveSessionStore[]) => Promise<void>) =>
      test(name, async () => {
        const { counters, dispose } = await kind.open(processes);
        try {
          await body(counters.map((c) => c.liveSessions));
        } finally {
          await dispose();
        }
      });
    const withStore = (name: string, body: (store: LiveSessionStore) => Promise<void>) => withStores(name, 1, ([store]) => body(store!));

    /** A touch of visitor `v`: a pageview of `page` unless told, with attributes naming `page`. */
    const touch = (store: LiveSessionStore, v: bigint, ts: number, page: string, o: { previous?: bigint; pageview?: boolean } = {}): Promise<SessionDecision> =>
      Promise.resolve(store.touch({ visitorId: v, previousVisitorId: o.previous, ts, page, isPageview: o.pageview ?? true, start: () => attrs(`ref${page}`) }));

    withStore('a session goes on within the gap and starts anew at 30 minutes; lastTs is the latest instant', async (store) => {
      const first = await touch(store, 1n, T0, '/one');
      assert.equal(first.started, true);
      const second = await touch(store, 1n, T0 + 29 * MIN, '/two');
      assert.deepEqual([second.started, second.session.sessionId, second.session.lastTs], [false, first.session.sessionId, T0 + 29 * MIN]);
      const third = await touch(store, 1n, T0 + 29 * MIN + SESSION_GAP_MS, '/three');
      assert.equal(third.started, true);
      assert.notEqual(third.session.sessionId, first.session.sessionId);
      assert.equal(third.session.entryPage, '/three');
      assert.equal(third.session.attrs.referrer, 'ref/three');
      // One millisecond under the gap still goes on.
      const fourth = await touch(store, 1n, T0 + 29 * MIN + 2 * SESSION_GAP_MS - 1, '/four');
      assert.deepEqual([fourth.started, fourth.session.sessionId], [false, third.session.sessionId]);
    });

    withStore('a session keeps its first event\'s attributes and its first pageview as entry page', async (store) => {
      const click = await store.touch({ visitorId: 2n, previousVisitorId: undefined, ts: T0, page: '/landing', isPageview: false, start: () => attrs('first') });
      assert.deepEqual([click.started, click.session.entryPage, click.session.attrs], [true, null, attrs('first')]);
      const view = await touch(store, 2n, T0 + MIN, '/b');
      assert.deepEqual([view.started, view.session.entryPage, view.session.attrs], [false, '/b', attrs('first')]);
      const next = await touch(store, 2n, T0 + 2 * MIN, '/c');
      assert.deepEqual([next.session.entryPage, next.session.attrs.referrer, typeof next.session.sessionId], ['/b', 'first', 'bigint']);
      assert.equal(next.session.sessionId, click.session.sessionId);
      // An earlier pageview that arrives late is the entry page all the same, and lastTs stays.
      await store.touch({ visitorId: 20n, previousVisitorId: undefined, ts: T0 + 5000, page: '/later', isPageview: false, start: () => attrs('x') });
      const late = await touch(store, 20n, T0 + 1000, '/first');
      assert.deepEqual([late.started, late.session.entryPage, late.session.lastTs], [false, '/first', T0 + 5000]);
      assert.equal((await touch(store, 20n, T0 + 6000, '/next')).session.entryPage, '/first');
    });

    withStore('an out-of-order event within the gap joins the session without moving lastTs back', async (store) => {
      const first = await touch(store, 3n, T0 + 10 * MIN, '/late');
      const earlier = await touch(store, 3n, T0 + 2 * MIN, '/early');
      assert.deepEqual([earlier.started, earlier.session.sessionId, earlier.session.lastTs], [false, first.session.sessionId, T0 + 10 * MIN]);
      // The gap counts from the latest instant seen.
      const after = await touch(store, 3n, T0 + 10 * MIN + 29 * MIN, '/after');
      assert.equal(after.started, false);
      // An event a whole gap before lastTs is no part of it.
      const old = await touch(store, 3n, T0 + 9 * MIN, '/old');
      assert.equal(old.started, true);
    });

    withStore('a session crosses midnight under yesterday\'s visitor id and goes on under today\'s', async (store) => {
      const before = await touch(store, 40n, T0, '/before');
      const after = await touch(store, 41n, T0 + 20 * MIN, '/after', { previous: 40n });
      assert.deepEqual([after.started, after.session.sessionId, after.session.entryPage], [false, before.session.sessionId, '/before']);
      // It moved: yesterday's id no longer holds it, today's does.
      assert.equal((await touch(store, 41n, T0 + 21 * MIN, '/again')).session.sessionId, before.session.sessionId);
      assert.equal((await touch(store, 40n, T0 + 22 * MIN, '/yesterday')).started, true);
    });

    withStore('yesterday\'s session is not continued past the gap, nor when today\'s id has a session', async (store) => {
      await touch(store, 50n, T0, '/y');
      const late = await touch(store, 51n, T0 + SESSION_GAP_MS, '/t', { previous: 50n });
      assert.equal(late.started, true);
      const other = await touch(store, 60n, T0, '/y2');
      const today = await touch(store, 61n, T0 + MIN, '/t2');
      const both = await touch(store, 61n, T0 + 2 * MIN, '/t3', { previous: 60n });
      assert.deepEqual([both.started, both.session.sessionId], [false, today.session.sessionId]);
      assert.notEqual(both.session.sessionId, other.session.sessionId);
    });

    withStore('visitors never share a session', async (store) => {
      const a = await touch(store, 7n, T0, '/');
      const b = await touch(store, 8n, T0, '/');
      assert.notEqual(a.session.sessionId, b.session.sessionId);
      assert.equal(b.started, true);
    });

    withStore('touches of one visitor made at once start one session, in the order made', async (store) => {
      const decisions = await Promise.all([0, 1, 2, 3, 4].map((i) => touch(store, 9n, T0 + i * 1000, `/p${i}`)));
      assert.deepEqual(decisions.map((d) => d.started), [true, false, false, false, false]);
      assert.equal(new Set(decisions.map((d) => d.session.sessionId)).size, 1);
      assert.equal(decisions[4]!.session.entryPage, '/p0');
    });

    withStores('processes sharing the store: one visitor\'s touches alternating between them form one session', 2, async ([a, b]) => {
      const pages = ['/1', '/2', '/3', '/4', '/5', '/6'];
      const decisions: SessionDecision[] = [];
      for (const [i, page] of pages.entries()) decisions.push(await touch(i % 2 === 0 ? a! : b!, 10n, T0 + i * MIN, page));
      assert.deepEqual(decisions.map((d) => d.started), [true, false, false, false, false, false]);
      assert.equal(new Set(decisions.map((d) => d.session.sessionId)).size, 1);
      assert.equal(decisions[5]!.session.entryPage, '/1');
      // At the same instant from both: still one session.
      const racing = await Promise.all([touch(a!, 11n, T0, '/x'), touch(b!, 11n, T0, '/y')]);
      assert.deepEqual(racing.map((d) => d.started).sort(), [false, true]);
      assert.equal(racing[0]!.session.sessionId, racing[1]!.session.sessionId);
    });

    withStores('a session\'s texts come back as written: quotes, backslashes, control characters, any script', 2, async ([a, b]) => {
      const page = '/a"b\\c\u0001\u001f\n/Łódź/日本/😀';
      const odd = { ...attrs('r"\\\u0001'), city: 'Łódź 😀' };
      const first = await Promise.resolve(a!.touch({ visitorId: 12n, previousVisitorId: undefined, ts: T0, page, isPageview: true, start: () => odd }));
      const other = await touch(b!, 12n, T0 + MIN, '/next');
      assert.equal(other.started, false);
      assert.deepEqual([first.session.entryPage, other.session.entryPage], [page, page]);
      assert.deepEqual([first.session.attrs, other.session.attrs], [odd, odd]);
    });
  });
}

test('Redis: touches past the batch size go in further batches, in the order made', async () => {
  const redis = COUNTER_KINDS.find((k) => k.name === 'redis')!;
  const { counters, dispose } = await redis.open(1, { maxBatch: 2 });
  try {
    const store = counters[0]!.liveSessions;
    const decisions = await Promise.all([0, 1, 2, 3, 4].map((i) => store.touch({ visitorId: 5n, previousVisitorId: undefined, ts: T0 + i, page: `/p${i}`, isPageview: true, start: () => attrs(`/p${i}`) })));
    assert.deepEqual(decisions.map((d) => d.started), [true, false, false, false, false]);
    assert.equal(new Set(decisions.map((d) => d.session.sessionId)).size, 1);
    assert.deepEqual(decisions.map((d) => d.session.attrs.referrer), Array(5).fill('/p0'));
  } finally {
    await dispose();
  }
});

test('Redis: a lone surrogate in a page or a rate-limit key is written as U+FFFD, as UTF-8 writes it', async () => {
  const redis = COUNTER_KINDS.find((k) => k.name === 'redis')!;
  const { counters, dispose } = await redis.open(2);
  try {
    const [a, b] = counters.map((c) => c.liveSessions);
    const visit = (page: string, ts: number) => ({ visitorId: 13n, previousVisitorId: undefined, ts, page, isPageview: true, start: () => attrs('lone') });
    const first = await a!.touch(visit('/x\ud800y', T0));
    const other = await b!.touch(visit('/z', T0 + MIN));
    assert.deepEqual([first.started, other.started], [true, false]);
    assert.deepEqual([first.session.entryPage, other.session.entryPage], ['/x\ufffdy', '/x\ufffdy']);
    const limiter = counters[0]!.rateLimiter('lone', 1, MIN);
    assert.equal(await limiter.hit('k\udc00', T0), true);
    // The same key.
    assert.equal(await limiter.hit('k\ufffd', T0 + 1), false);
  } finally {
    await dispose();
  }
});
