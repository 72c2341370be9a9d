// GET /v1/sites/:siteId/journeys over HTTP (docs/api.md, Journeys): the answer of three known
// sessions with and without a page, both directions, under a filter; every bad parameter answered
// 400 with the catalogue's message; authentication and other organisations; the raw window and
// `raw=clip`.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ManualClock } from '../../src/core/clock.js';
import { addDays } from '../../src/core/localtime.js';
import { RAW_WINDOW_HEADER, rawWindowHeader } from '../../src/core/answer-headers.js';
import { BROWSER_UA, createApiKey, createSite, importEvents, startTestServer, type SiteFixture, type TestServer } from '../helpers/server.js';

const NOW = Date.UTC(2026, 2, 20, 12, 0);
const TODAY = '2026-03-20';

/** Three visitors, a session each: / → /pricing (twice, a reload) → /signup; / → /docs → /pricing (in France); /pricing → / → /pricing. */
const JOURNEYS: ReadonlyArray<{ pages: string[]; country: string }> = [
  { pages: ['/', '/pricing', '/pricing', '/signup'], country: 'DE' },
  { pages: ['/', '/docs', '/pricing'], country: 'FR' },
  { pages: ['/pricing', '/', '/pricing'], country: 'DE' },
];

function collected() {
  return JOURNEYS.flatMap(({ pages, country }, i) => {
    const start = Date.parse(`${addDays(TODAY, -(i + 1))}T09:00:00Z`);
    return pages.map((u, k) => ({ ts: start + k * 60_000, ua: BROWSER_UA, ip: `198.51.100.${i + 1}`, u, country }));
  });
}

describe('journeys', () => {
  let server: TestServer;
  let site: SiteFixture;
  let foreign: SiteFixture;
  let key: string;

  before(async () => {
    server = await startTestServer({ clock: new ManualClock(NOW), env: { SVC_API_RATE_LIMIT: '100000/60s' } });
    site = await createSite(server);
    foreign = await createSite(server);
    key = await createApiKey(server, site.orgId);
    const imported = await importEvents(server, site.siteId, collected());
    assert.equal(imported.body.rejected, 0, JSON.stringify(imported.body.errors));
  });
  after(() => server.stop());

  const get = async (query: string, siteId = site.siteId, headers: Record<string, string> = { authorization: `Bearer ${key}` }, method = 'GET') => {
    const res = await fetch(`${server.url}/v1/sites/${siteId}/journeys${query ? `?${query}` : ''}`, { method, headers });
    return { status: res.status, headers: res.headers, body: (await res.json()) as { error?: { code: string; message: string } } & Record<string, unknown> };
  };

  test('the rows of known sessions: first paths, paths from and to a page, under a filter', async () => {
    const cases: Array<[query: string, answer: Record<string, unknown>]> = [
      [
        'period=7d',
        {
          steps: 3,
          rows: [
            { path: ['/', '/docs', '/pricing'], sessions: 1, visitors: 1 },
            { path: ['/', '/pricing', '/signup'], sessions: 1, visitors: 1 },
            { path: ['/pricing', '/', '/pricing'], sessions: 1, visitors: 1 },
          ],
          totalSessions: 3,
        },
      ],
      [
        'period=7d&page=/pricing&direction=previous&steps=2',
        {
          steps: 2,
          // The last session (/pricing → / → /pricing) gives the row up to its last /pricing alone.
          rows: [
            { path: ['/', '/pricing'], sessions: 2, visitors: 2 },
            { path: ['/docs', '/pricing'], sessions: 1, visitors: 1 },
          ],
          totalSessions: 3,
        },
      ],
      [
        'period=7d&page=/pricing&steps=5&limit=2',
        {
          steps: 5,
          rows: [
            { path: ['/pricing'], sessions: 1, visitors: 1 },
            { path: ['/pricing', '/', '/pricing'], sessions: 1, visitors: 1 },
          ],
          totalSessions: 3,
        },
      ],
      ['period=7d&page=/docs&direction=next&steps=2', { steps: 2, rows: [{ path: ['/docs', '/pricing'], sessions: 1, visitors: 1 }], totalSessions: 1 }],
      ['period=7d&filter=country:FR&steps=2', { steps: 2, rows: [{ path: ['/', '/docs'], sessions: 1, visitors: 1 }], totalSessions: 1 }],
      ['period=7d&filter=page:/signup', { steps: 3, rows: [{ path: ['/', '/pricing', '/signup'], sessions: 1, visitors: 1 }], totalSessions: 1 }],
      ['period=7d&page=/nowhere', { steps: 3, rows: [], totalSessions: 0 }],
      ['period=today', { steps: 3, rows: [], totalSessions: 0 }],
    ];
    for (const [query, answer] of cases) {
      const res = await get(query);
      assert.equal(res.status, 200, `${query}: ${JSON.stringify(res.body)}`);
      assert.equal(res.headers.get('cache-control'), 'no-store');
      const { period, ...rest } = res.body;
      assert.deepEqual(rest, answer, query);
      assert.deepEqual(period, query.includes('today') ? { from: TODAY, to: TODAY } : { from: addDays(TODAY, -6), to: TODAY }, query);
    }
    // Without a page the rows are the journeys' first paths, whichever direction is asked (docs/api.md).
    assert.deepEqual((await get('period=7d&direction=previous')).body, (await get('period=7d')).body);
    // A session gives one row: the last session's journey (/pricing → / → /pricing) from its first
    // /pricing only, so the rows' sessions add up to the sessions that gave one.
    const both = await get('period=7d&page=/pricing&steps=3');
    assert.deepEqual((both.body.rows as Array<{ path: string[]; sessions: number }>).map((r) => [r.path, r.sessions]), [[['/pricing'], 1], [['/pricing', '/', '/pricing'], 1], [['/pricing', '/signup'], 1]]);
    assert.equal((both.body.rows as Array<{ sessions: number }>).reduce((sum, r) => sum + r.sessions, 0), both.body.totalSessions);
  });

  test('every bad parameter is 400 INVALID_PARAMS with the catalogue message', async () => {
    const cases: Array<[query: string, message: string]> = [
      ['steps=1', 'steps must be an integer between 2 and 5'],
      ['steps=6', 'steps must be an integer between 2 and 5'],
      ['steps=three', 'steps must be an integer between 2 and 5'],
      ['steps=2&steps=3', 'steps must be given at most once'],
      ['limit=0', 'limit must be an integer between 1 and 100'],
      ['limit=101', 'limit must be an integer between 1 and 100'],
      ['direction=up&page=/', 'direction must be one of next, previous'],
      ['page=pricing', 'page must be a path starting with / of at most 2048 characters'],
      [`page=/${'a'.repeat(2048)}`, 'page must be a path starting with / of at most 2048 characters'],
      ['page=', 'page must be a path starting with / of at most 2048 characters'],
      ['filter=planet:mars', 'unknown filter dimension; expected one of'],
      ['filter=country:DE&filter=country!:FR', 'filter country is given twice'],
      ['raw=all', 'raw must be one of clip'],
      ['period=nope', 'unknown period; expected one of'],
    ];
    for (const [query, message] of cases) {
      const res = await get(query);
      assert.equal(res.status, 400, query);
      assert.equal(res.body.error?.code, 'INVALID_PARAMS', query);
      assert.ok(res.body.error?.message.startsWith(message), `${query}: ${res.body.error?.message}`);
    }
  });

  test('authentication first; another organisation\'s site, an unknown one and other methods as every read', async () => {
    assert.equal((await get('', site.siteId, {})).status, 401);
    assert.equal((await get('steps=9', site.siteId, {})).status, 401, 'before the parameters');
    for (const siteId of [foreign.siteId, 'nosuchsite']) {
      const res = await get('period=7d', siteId);
      assert.equal(res.status, 404, siteId);
      assert.equal(res.body.error?.code, 'NOT_FOUND');
    }
    const post = await get('', site.siteId, { authorization: `Bearer ${key}` }, 'POST');
    assert.equal(post.status, 405);
    assert.equal(post.headers.get('allow'), 'GET');
  });

  test("the raw window: past it 400 RAW_WINDOW_EXCEEDED; raw=clip reads the days inside it and says so", async () => {
    const refused = await get('period=90d');
    assert.equal(refused.status, 400);
    assert.deepEqual(refused.body.error, { code: 'RAW_WINDOW_EXCEEDED', message: 'journeys read single events and need a period within the last 30 days' });
    const clipped = await get('period=90d&raw=clip');
    assert.equal(clipped.status, 200, JSON.stringify(clipped.body));
    assert.deepEqual(clipped.body.period, { from: addDays(TODAY, -29), to: TODAY });
    assert.equal(clipped.headers.get(RAW_WINDOW_HEADER), rawWindowHeader(addDays(TODAY, -89)));
    assert.deepEqual(clipped.body.rows, (await get('period=30d')).body.rows);
    assert.equal((await get('period=30d')).headers.get(RAW_WINDOW_HEADER), null);
  });
});
