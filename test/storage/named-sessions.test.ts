// An import's named sessions in the in-process cache (SessionVisit.session): one session per visitor
// and name whatever the gaps, held through the sweeps for NAMED_SESSION_HOLD_MS, then let go, and
// apart from the visitor's unnamed session.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NAMED_SESSION_HOLD_MS, SessionCache } from '../../src/storage/counters/memory-sessions.js';
import { sessionAttributes } from '../../support/events.js';

const T0 = Date.UTC(2026, 5, 10, 1, 0);
const attrs = sessionAttributes({ browser: 'Firefox', os: 'Linux', device: 'desktop' });

test('a named session goes on by its name through the sweeps until its hold ends', () => {
  const cache = new SessionCache({ maxSessions: 100 });
  const touch = (ts: number, session?: string, visitorId = 1n) => cache.touch({ visitorId, previousVisitorId: undefined, ts, page: '/', isPageview: true, session, start: () => attrs });
  const first = touch(T0, 'visit-1');
  const open = touch(T0 + 1_000);
  assert.deepEqual([first.started, open.started, cache.size], [true, true, 2], 'an unnamed event is not part of a named session');
  // Two hours later, past the gap: the sweep lets the unnamed session go and keeps the named one.
  cache.sweep(T0 + 2 * 3_600_000);
  assert.equal(cache.size, 1);
  const later = touch(T0 + 2 * 3_600_000, 'visit-1');
  assert.deepEqual([later.started, later.session.sessionId], [false, first.session.sessionId]);
  const other = touch(T0 + 2 * 3_600_000 + 1_000, 'visit-2');
  assert.equal(other.started, true, 'another name is another session, however soon');
  assert.equal(touch(T0 + 2 * 3_600_000 + 2_000, 'visit-1').session.sessionId, first.session.sessionId, 'both are open at once');
  cache.sweep(T0 + 2 * 3_600_000 + NAMED_SESSION_HOLD_MS - 1);
  assert.equal(cache.size, 2);
  cache.sweep(T0 + 2 * 3_600_000 + 2_000 + NAMED_SESSION_HOLD_MS);
  assert.equal(cache.size, 0);
});

test('past its count bound the cache lets the least recently seen session of either kind go', () => {
  const cache = new SessionCache({ maxSessions: 2 });
  const touch = (ts: number, visitorId: bigint, session?: string) => cache.touch({ visitorId, previousVisitorId: undefined, ts, page: '/', isPageview: true, session, start: () => attrs });
  const named = touch(T0, 1n, 'visit');
  touch(T0 + 1, 2n);
  touch(T0 + 2, 3n);
  assert.equal(cache.size, 2);
  assert.equal(touch(T0 + 3, 1n, 'visit').started, true, 'the oldest, the named session, went');
  assert.notEqual(touch(T0 + 4, 1n, 'visit').session.sessionId, named.session.sessionId);
});
