// Parameters at their bounds. Every day a YYYY-MM-DD can hold, at the edges of the calendar: each
// read endpoint that takes a period answers 200 or a 400 envelope, never 500 (periods, previous
// periods and buckets included). And the bounds an error message quotes are themselves accepted.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ManualClock } from '../../src/core/clock.js';
import { startTestServer, createSite, createApiKey, type TestServer, type SiteFixture } from '../helpers/server.js';

const NOW = Date.UTC(2026, 2, 20, 12, 0);

/** from..to pairs touching the first and last days a four-digit year can hold, and the epoch. */
/** from..to pairs touching the first and last days a four-digit year can hold, and the epoch. */
const PERIODS: Array<[from: string, to: string, status: 200 | 400]> = [
  ['0001-01-01', '0001-01-01', 400],
  ['0001-01-01', '0001-12-31', 400],
  ['0001-01-01', '9999-12-31', 400],
  ['0000-01-01', '0000-01-01', 400],
  ['1969-12-31', '1970-01-01', 400],
  ['1970-01-01', '1970-01-01', 200],
  ['1970-01-01', '1970-01-02', 200],
  ['1970-01-01', '1970-03-01', 200],
  ['1970-01-01', '1970-12-31', 200],
  ['1970-01-01', '1979-12-31', 200],
  ['9999-12-31', '9999-12-31', 400],
  ['9999-12-30', '9999-12-31', 400],
  ['9999-12-01', '9999-12-31', 400],
  ['9999-01-01', '9999-12-31', 400],
  ['9990-01-05', '9999-12-31', 400],
  ['9999-12-30', '9999-12-30', 200],
  ['9999-12-29', '9999-12-30', 200],
  ['9999-11-27', '9999-12-30', 200],
  ['9999-02-28', '9999-12-30', 200],
  ['9990-01-05', '9999-12-30', 200],
];

const KINDS = ['/stats?', '/timeseries?', '/timeseries?compare=true&', '/timeseries?metric=bounceRate&compare=true&', '/breakdown?dimension=page&', '/goals?', '/funnels/1?'];

describe('periods at the edges of the calendar', () => {
  let server: TestServer;
  let site: SiteFixture;
  let key: string;

  before(async () => {
    server = await startTestServer({ clock: new ManualClock(NOW), env: { SVC_API_RATE_LIMIT: '100000/60s' } });
    site = await createSite(server, { timezone: 'Pacific/Kiritimati' });
    key = await createApiKey(server, site.orgId);
    assert.equal((await server.admin('POST', `/sites/${site.siteId}/goals`, { name: 'Home', kind: 'page', pattern: '/' })).status, 201);
    const funnel = await server.admin('POST', `/sites/${site.siteId}/funnels`, {
      name: 'Buy',
      windowMinutes: 30,
      steps: [{ kind: 'page', pattern: '/' }, { kind: 'page', pattern: '/pricing' }],
    });
    assert.equal(funnel.status, 201);
  });

  after(() => server.stop());

  test('every endpoint answers 200 or 400, never 500, for days from 0000-01-01 to 9999-12-31: days 1970-01-01..9999-12-30 are accepted', async () => {
    for (const [from, to, status] of PERIODS) {
      for (const kind of KINDS) {
        const path = `/v1/sites/${site.siteId}${kind}from=${from}&to=${to}`;
        const res = await fetch(server.url + path, { headers: { authorization: `Bearer ${key}` } });
        const body = (await res.json()) as any;
        assert.equal(res.status, status, `${path}: ${JSON.stringify(body)}`);
        if (status === 200) assert.deepEqual([body.period.from, body.period.to], [from, to], path);
        else if (body.error.code === 'INVALID_PARAMS') assert.match(body.error.message, /must be a day YYYY-MM-DD from 1970-01-01 to 9999-12-30$/, path);
      }
    }
  });

  test('the bounds quoted by the limit and offset errors are accepted, one step beyond is refused', async () => {
    const breakdown = (query: string) =>
      fetch(`${server.url}/v1/sites/${site.siteId}/breakdown?dimension=page&${query}`, { headers: { authorization: `Bearer ${key}` } });
    for (const name of ['limit', 'offset']) {
      const refused = await breakdown(`${name}=x`);
      assert.equal(refused.status, 400, name);
      const message = ((await refused.json()) as any).error.message as string;
      const bounds = /^(\w+) must be an integer between (\d+) and (\d+)$/.exec(message);
      assert.ok(bounds && bounds[1] === name, message);
      const [min, max] = [BigInt(bounds[2]!), BigInt(bounds[3]!)];
      for (const accepted of [min, max]) assert.equal((await breakdown(`${name}=${accepted}`)).status, 200, `${name}=${accepted}`);
      for (const beyond of [min - 1n, max + 1n].filter((n) => n >= 0n)) {
        assert.equal((await breakdown(`${name}=${beyond}`)).status, 400, `${name}=${beyond}`);
      }
    }
  });
});
