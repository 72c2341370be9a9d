import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { decide } from '../../src/alerts/rules.js';
import type { StoredEvent } from '../../src/storage/events/schema.js';
import { event as storedEvent } from '../../support/events.js';
import { startReceiver, type Receiver } from '../../support/alert-receiver.js';
import { alertHarness, T0, type AlertHarness } from '../../support/alert-service.js';

const MIN = 60_000;
const HOUR = 60 * MIN;

function event(siteId: string, ts: number, visitor: number, name = 'pageview', page = '/'): StoredEvent {
  return storedEvent({ siteId, ts, visitorId: BigInt(visitor), sessionId: BigInt(visitor), sessionStart: true, name, page, entryPage: page }, 'Europe/Paris');
}

describe('episode decisions', () => {
  const armed = { inEpisode: false, lastFiredDay: null };
  it('fires when the condition becomes true, once per episode, and re-arms when it is false', () => {
    const first = decide('spike', true, armed, '2025-06-02');
    assert.deepEqual(first, { fire: true, next: { inEpisode: true, lastFiredDay: '2025-06-02' } });
    assert.equal(decide('spike', true, first.next, '2025-06-02').fire, false);
    const rearmed = decide('spike', false, first.next, '2025-06-02');
    assert.equal(rearmed.next.inEpisode, false);
    assert.equal(decide('spike', true, rearmed.next, '2025-06-02').fire, true, 'spike may fire again the same day');
  });
  it('fires a goal rule at most once a day', () => {
    const state = { inEpisode: false, lastFiredDay: '2025-06-02' };
    assert.equal(decide('goal', true, state, '2025-06-02').fire, false);
    assert.equal(decide('goal', true, state, '2025-06-03').fire, true);
  });
});

describe('rule evaluation over stored events', () => {
  let receiver: Receiver;
  let h: AlertHarness;
  const sid = () => h.site.id;
  const bodies = (path: string) => receiver.requestsTo(path).map((r) => JSON.parse(r.body) as Record<string, unknown>);
  const evaluateAt = async (at: number) => {
    h.clock.set(at);
    const result = await h.alerts.evaluate(at);
    await h.alerts.engine.runDue();
    return result;
  };

  before(async () => {
    receiver = await startReceiver();
  });
  beforeEach(async () => {
    await h?.close();
    h = await alertHarness();
  });
  after(async () => {
    await h.close();
    await receiver.close();
  });

  it('spike: visitors of the last 5 minutes reach the threshold', async () => {
    const rule = await h.alerts.createRule(sid(), { type: 'spike', threshold: 3, url: receiver.url('/spike'), secret: 's' });
    await h.events.append([event(sid(), T0 - 6 * MIN, 1), event(sid(), T0 - 3 * MIN, 2), event(sid(), T0 - 2 * MIN, 3), event(sid(), T0 - MIN, 3)]);
    assert.deepEqual((await evaluateAt(T0)).fired, [], 'two visitors in the window');
    await h.events.append([event(sid(), T0 + 30_000, 4)]);
    assert.deepEqual((await evaluateAt(T0 + MIN)).fired, [rule.id]);
    assert.deepEqual((await evaluateAt(T0 + 2 * MIN)).fired, [], 'not twice in one episode');
    assert.deepEqual((await evaluateAt(T0 + 10 * MIN)).fired, [], 'condition false: re-armed');
    await h.events.append([11, 12, 13].map((v) => event(sid(), T0 + 10 * MIN + v, v)));
    assert.deepEqual((await evaluateAt(T0 + 11 * MIN)).fired, [rule.id], 'a new episode fires again');
    assert.deepEqual(bodies('/spike')[0], { type: 'spike', site: 'shop.example', rule: rule.id, value: 3, threshold: 3, at: new Date(T0 + MIN).toISOString() });
  });

  it('drop: visitors of the last 12 hours fall to the threshold', async () => {
    await h.events.append([1, 2, 3].map((v) => event(sid(), T0 - 11 * HOUR, v)));
    const rule = await h.alerts.createRule(sid(), { type: 'drop', threshold: 2, url: receiver.url('/drop'), secret: 's' });
    assert.deepEqual((await evaluateAt(T0)).fired, []);
    assert.deepEqual((await evaluateAt(T0 + 2 * HOUR)).fired, [rule.id], 'the three visits left the window');
    assert.deepEqual((await evaluateAt(T0 + 3 * HOUR)).fired, []);
    assert.deepEqual(bodies('/drop')[0], { type: 'drop', site: 'shop.example', rule: rule.id, value: 0, threshold: 2, at: new Date(T0 + 2 * HOUR).toISOString() });
  });

  it('silence: hours since the last event, from site creation when there is none', async () => {
    const rule = await h.alerts.createRule(sid(), { type: 'silence', threshold: 2, url: receiver.url('/silence'), secret: 's' });
    assert.deepEqual((await evaluateAt(T0 + HOUR)).fired, []);
    assert.deepEqual((await evaluateAt(T0 + 2 * HOUR)).fired, [rule.id], 'no traffic at all since creation');
    assert.deepEqual((await evaluateAt(T0 + 3 * HOUR)).fired, []);
    await h.events.append([event(sid(), T0 + 3 * HOUR + MIN, 1)]);
    assert.deepEqual((await evaluateAt(T0 + 3 * HOUR + 2 * MIN)).fired, [], 'traffic came back: re-armed');
    assert.deepEqual((await evaluateAt(T0 + 5 * HOUR + 31 * MIN)).fired, [rule.id]);
    assert.deepEqual(
      bodies('/silence').map((b) => b.value),
      [2, 2.5],
    );
  });

  it('goal: conversions of the current site-local day, at most once a day', async () => {
    const goal = await h.meta.createGoal(h.site.internalId, { name: 'Thanks', kind: 'page', pattern: '/thanks/*' }, T0);
    const other = await h.meta.createGoal(h.site.internalId, { name: 'Signup', kind: 'event', pattern: 'signup' }, T0);
    const rule = await h.alerts.createRule(sid(), { type: 'goal', threshold: 2, goalId: goal.goalId, url: receiver.url('/goal'), secret: 's' });
    await h.alerts.createRule(sid(), { type: 'goal', threshold: 1, goalId: other.goalId, url: receiver.url('/signup'), secret: 's' });
    // Europe/Paris: T0 is 14:00 local; the previous local day's conversions do not count.
    const yesterday = T0 - 20 * HOUR;
    await h.events.append([
      event(sid(), yesterday, 1, 'pageview', '/thanks/a'),
      event(sid(), T0 - HOUR, 2, 'pageview', '/thanks/b'),
      event(sid(), T0 - HOUR, 2, 'pageview', '/thanks/b/deeper'),
      event(sid(), T0 - HOUR, 3, 'signup', '/thanks/c'),
    ]);
    const first = await evaluateAt(T0);
    assert.deepEqual(first.fired, [rule.id + 1], 'one thanks conversion today, one signup');
    await h.events.append([event(sid(), T0 + MIN, 4, 'pageview', '/thanks/d')]);
    assert.deepEqual((await evaluateAt(T0 + 2 * MIN)).fired, [rule.id]);
    await h.alerts.updateRule(rule.id, { threshold: 1 });
    assert.deepEqual((await evaluateAt(T0 + 3 * MIN)).fired, [], 'a changed rule re-arms but a goal fires once a day');
    // Next local day: the count restarts at 0 (false, re-arm), then conversions come in again.
    const tomorrow = T0 + 12 * HOUR;
    assert.deepEqual((await evaluateAt(tomorrow)).fired, []);
    await h.events.append([event(sid(), tomorrow + MIN, 5, 'pageview', '/thanks/e')]);
    assert.deepEqual((await evaluateAt(tomorrow + 2 * MIN)).fired, [rule.id]);
    assert.deepEqual(bodies('/goal')[0], { type: 'goal', site: 'shop.example', rule: rule.id, value: 2, threshold: 2, at: new Date(T0 + 2 * MIN).toISOString() });
  });

  it('does not evaluate the rules of an archived site', async () => {
    await h.alerts.createRule(sid(), { type: 'drop', threshold: 5, url: receiver.url('/archived'), secret: 's' });
    await h.meta.updateSite(sid(), { status: 'archived' });
    assert.deepEqual(await evaluateAt(T0), { evaluated: 0, fired: [] });
  });
});
