import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ManualClock } from '../../src/core/clock.js';
import { browserHeaders, createRelayKey, createSite, startTestServer, type SiteFixture, type TestServer } from '../helpers/server.js';
import { startReceiver, type Receiver } from '../../support/alert-receiver.js';
import { loopbackResolver } from '../../support/alert-service.js';
import { testCertificates } from '../../support/test-certificates.js';

const MIN = 60_000;
const HOUR = 60 * MIN;

describe('alert rules through the admin API and live traffic', () => {
  let receiver: Receiver;
  let server: TestServer;
  let clock: ManualClock;
  let relayKey: string;
  let site: SiteFixture;

  before(async () => {
    receiver = await startReceiver();
    clock = new ManualClock(Date.now());
    server = await startTestServer({
      clock,
      env: { SVC_WEBHOOK_ALLOW_PRIVATE: '1' },
      alerts: { resolve: loopbackResolver, ca: testCertificates().ca, timeoutMs: 1_000 },
    });
    relayKey = await createRelayKey(server);
    site = await createSite(server);
  });
  after(async () => {
    await server.stop();
    await receiver.close();
  });

  let visitor = 0;
  /** One event from a new visitor, through /api/e with trusted-relay headers for a distinct IP. */
  const visit = (target: SiteFixture, event: Record<string, unknown> = {}) => {
    visitor++;
    return server.collect(
      { s: target.siteId, u: '/pricing', ...event },
      browserHeaders(target.domain, { 'x-svc-relay-key': relayKey, 'x-svc-client-ip': `81.${visitor}.69.${visitor % 250}` }),
    );
  };
  /** One evaluation at the current clock, then every due delivery sent. */
  const evaluate = async () => {
    await server.flush();
    const result = await server.ctx.alerts.evaluate(clock.now());
    await server.ctx.alerts.engine.runDue();
    return result.fired;
  };
  const received = (path: string) => receiver.requestsTo(path).map((r) => JSON.parse(r.body) as Record<string, unknown>);
  const createRule = (target: SiteFixture, rule: Record<string, unknown>) =>
    server.admin('POST', `/sites/${target.siteId}/alerts`, { secret: 'shared-secret', ...rule });

  it('creates, lists, changes and deletes a rule', async () => {
    const created = await createRule(site, { type: 'spike', threshold: 100, url: receiver.url('/crud') });
    assert.equal(created.status, 201);
    assert.deepEqual(created.body, { id: created.body.id, type: 'spike', threshold: 100, url: receiver.url('/crud'), goalId: null, emails: [] });
    assert.equal(typeof created.body.id, 'number');

    const listed = await server.admin('GET', `/sites/${site.siteId}/alerts`);
    assert.deepEqual(listed.body.alerts, [created.body]);

    const changed = await server.admin('PATCH', `/alerts/${created.body.id}`, { threshold: 50, emails: ['ops@shop.example'] });
    assert.equal(changed.status, 200);
    assert.equal(changed.body.threshold, 50);
    assert.deepEqual(changed.body.emails, ['ops@shop.example']);

    assert.equal((await server.admin('DELETE', `/alerts/${created.body.id}`)).status, 204);
    assert.equal((await server.admin('GET', `/alerts/${created.body.id}/history`)).status, 404);
    assert.equal((await server.admin('DELETE', `/alerts/${created.body.id}`)).status, 404);
  });

  it('refuses invalid rules with the documented errors', async () => {
    const cases: Array<[Record<string, unknown>, number, string, string?]> = [
      [{ type: 'spike', threshold: 1, url: 'http://hooks.example.com/x' }, 400, 'INVALID_WEBHOOK_URL', 'rejected:scheme'],
      [{ type: 'spike', threshold: 1, url: 'https://u:p@hooks.example.com/x' }, 400, 'INVALID_WEBHOOK_URL', 'rejected:credentials'],
      [{ type: 'spike', threshold: 1, url: 'https://metadata.google.internal/x' }, 400, 'INVALID_WEBHOOK_URL', 'rejected:internal'],
      [{ type: 'spike', threshold: 1, url: `${receiver.url()}\r\nX-Injected: 1` }, 400, 'INVALID_WEBHOOK_URL', 'rejected:control-character'],
      [{ type: 'spike', threshold: 1, url: 'https://hooks.example.com:0/x' }, 400, 'INVALID_WEBHOOK_URL', 'rejected:port'],
      [{ type: 'nope', threshold: 1, url: receiver.url() }, 400, 'INVALID_PARAMS'],
      [{ type: 'spike', threshold: -1, url: receiver.url() }, 400, 'INVALID_PARAMS'],
      [{ type: 'goal', threshold: 1, url: receiver.url() }, 400, 'INVALID_PARAMS'],
      [{ type: 'spike', threshold: 1, url: receiver.url(), colour: 'red' }, 400, 'INVALID_PARAMS'],
    ];
    for (const [body, status, code, prefix] of cases) {
      const res = await createRule(site, body);
      assert.equal(res.status, status, JSON.stringify(body));
      assert.equal(res.body.error.code, code);
      if (prefix) assert.ok(res.body.error.message.startsWith(prefix), res.body.error.message);
    }
    assert.equal((await server.admin('POST', '/sites/nosuchsite/alerts', { type: 'spike', threshold: 1, url: receiver.url(), secret: 's' })).status, 404);
    assert.equal((await server.admin('POST', '/alerts/999999/test')).status, 404);
  });

  it('queues a test send and shows it in the history, newest first', async () => {
    const rule = await createRule(site, { type: 'drop', threshold: 7, url: receiver.url('/test-send') });
    const first = await server.admin('POST', `/alerts/${rule.body.id}/test`);
    const second = await server.admin('POST', `/alerts/${rule.body.id}/test`);
    assert.equal(first.status, 202);
    assert.match(first.body.deliveryId, /^[0-9a-f-]{36}$/);
    await server.ctx.alerts.engine.runDue();
    const history = await server.admin('GET', `/alerts/${rule.body.id}/history`);
    assert.deepEqual(
      history.body.deliveries.map((d: { id: string; test: boolean; status: string; attempts: unknown[] }) => [d.id, d.test, d.status, d.attempts.length]),
      [
        [second.body.deliveryId, true, 'succeeded', 1],
        [first.body.deliveryId, true, 'succeeded', 1],
      ],
    );
    const body = received('/test-send')[0]!;
    assert.equal(body.test, true);
    assert.equal(body.threshold, 7);
    assert.equal(body.site, site.domain);
  });

  it('fires spike, drop and goal rules on live traffic, once per episode', async () => {
    const live = await createSite(server);
    const goal = await server.admin('POST', `/sites/${live.siteId}/goals`, { name: 'Signup', kind: 'event', pattern: 'signup' });
    const spike = await createRule(live, { type: 'spike', threshold: 3, url: receiver.url('/live-spike') });
    const drop = await createRule(live, { type: 'drop', threshold: 2, url: receiver.url('/live-drop') });
    const goalRule = await createRule(live, { type: 'goal', threshold: 2, goalId: goal.body.goalId, url: receiver.url('/live-goal') });
    assert.equal(goalRule.status, 201);

    // Three distinct visitors, two of whom sign up.
    for (const event of [{}, { e: 'signup' }, { e: 'signup' }]) assert.equal(await visit(live, event), 202);
    const fired = await evaluate();
    assert.deepEqual(fired.filter((id) => [spike.body.id, goalRule.body.id].includes(id)).sort(), [spike.body.id, goalRule.body.id].sort());
    assert.ok(!fired.includes(drop.body.id), 'three visitors are above the drop threshold');
    assert.equal(received('/live-spike')[0]!.value, 3);
    assert.equal(received('/live-goal')[0]!.value, 2);

    await visit(live);
    clock.advance(MIN);
    assert.deepEqual((await evaluate()).filter((id) => [spike.body.id, goalRule.body.id].includes(id)), [], 'still true: no second firing');

    clock.advance(13 * HOUR);
    assert.ok((await evaluate()).includes(drop.body.id), 'the visits left the 12-hour window');
    assert.equal(received('/live-drop')[0]!.value, 0);
    clock.advance(MIN);
    await evaluate();
    assert.equal(received('/live-spike').length, 1);
    assert.equal(received('/live-drop').length, 1);
    assert.equal(received('/live-goal').length, 1);
  });

  it('fires a silence rule on no traffic, and again only after traffic resumed', async () => {
    const quiet = await createSite(server);
    const rule = await createRule(quiet, { type: 'silence', threshold: 1, url: receiver.url('/silence') });
    clock.advance(30 * MIN);
    assert.ok(!(await evaluate()).includes(rule.body.id));
    clock.advance(30 * MIN);
    assert.ok((await evaluate()).includes(rule.body.id));
    clock.advance(MIN);
    assert.ok(!(await evaluate()).includes(rule.body.id), 'one firing per episode');
    await visit(quiet);
    assert.ok(!(await evaluate()).includes(rule.body.id), 'traffic re-arms the rule');
    clock.advance(HOUR);
    assert.ok((await evaluate()).includes(rule.body.id));
    assert.deepEqual(
      received('/silence').map((b) => b.value),
      [1, 1],
    );
  });

  it('runs the evaluation as a maintenance task', async () => {
    const res = await server.admin('POST', '/maintenance/run', { tasks: ['alerts'] });
    assert.deepEqual(res.body, { ran: ['alerts'] });
  });
});

describe('alert URLs without SVC_WEBHOOK_ALLOW_PRIVATE', () => {
  it('refuses literal and loopback targets at configuration', async () => {
    const server = await startTestServer();
    try {
      const site = await createSite(server);
      for (const [url, reason] of [
        ['https://127.1:8443/x', 'ip-literal'],
        ['https://[::ffff:127.0.0.1]/x', 'ip-literal'],
        ['https://localhost/x', 'localhost'],
      ]) {
        const res = await server.admin('POST', `/sites/${site.siteId}/alerts`, { type: 'spike', threshold: 1, url, secret: 's' });
        assert.equal(res.status, 400);
        assert.equal(res.body.error.code, 'INVALID_WEBHOOK_URL');
        assert.ok(res.body.error.message.startsWith(`rejected:${reason}`), res.body.error.message);
      }
    } finally {
      await server.stop();
    }
  });
});
