// A shared link locked to pages (`page:/blog/**`, or exact pages, or `page~:`) on a real listening
// server: no answer through it names a page the lock does not admit. Entry and exit pages outside
// it fold into one `(other page)` row (the rows' visitors still add up to the visitors), a filter on
// them reads the same folded values, journeys (first paths, from a page, to a page) show a step
// outside it as `(other page)` and a page outside it gives no row; the reads that list pages
// without taking filters (realtime, goals, properties, the export) stay unshared. On DuckDB and on
// ClickHouse (the service's events there, SVC_CLICKHOUSE_URL).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ManualClock } from '../../src/core/clock.js';
import { OTHER_PAGE_KEY } from '../../src/core/vocabulary.js';
import { AppClient, signedInUser } from '../helpers/app-client.js';
import { freshDatabaseUrl } from '../../support/clickhouse.js';
import { BROWSER_UA, createSite, importEvents, startTestServer, type SiteFixture, type TestServer } from '../helpers/server.js';

const NOW = Date.UTC(2026, 2, 20, 12, 0);
const DAY = 86_400_000;
const O = OTHER_PAGE_KEY;

/** Visitor i's one visit, i + 1 days ago, a minute a page. */
const VISITS: ReadonlyArray<readonly string[]> = [
  ...Array.from({ length: 4 }, () => ['/', '/blog/a', '/pricing', '/about', '/blog/b']),
  ['/blog/a', '/blog/b'],
  ['/blog/a', '/blog/b'],
  ['/blog/a', '/pricing'],
  ['/pricing', '/signup'],
  ['/docs'],
  ['/blog/b', '/contact', '/blog/a'],
];

function events() {
  return VISITS.flatMap((pages, i) => pages.map((u, j) => ({ ts: NOW - (i + 1) * DAY + j * 60_000, u, ua: BROWSER_UA, ip: `198.51.100.${i + 1}`, country: i % 2 === 0 ? 'DE' : 'FR' })));
}

/** Locks that admit /blog/a and /blog/b alone of the site's pages: a pattern, exact pages (rollups answer some reads), and `contains`. */
const LOCKS = ['page:/blog/**', 'page:/blog/a|/blog/b', 'page~:BLOG/'];

const ENGINES: ReadonlyArray<{ name: string; env(): Promise<Record<string, string>> }> = [
  { name: 'duckdb', env: async () => ({}) },
  { name: 'clickhouse', env: async () => ({ SVC_CLICKHOUSE_URL: await freshDatabaseUrl() }) },
];

type Row = { key: string; visitors: number };
type Journey = { path: string[]; sessions: number };

for (const engine of ENGINES) describe(`shared links locked to pages show no other page (${engine.name})`, () => {
  const clock = new ManualClock(NOW);
  let server: TestServer;
  let site: SiteFixture;
  let admin: AppClient;
  const accesses = new Map<string, string>();

  before(async () => {
    server = await startTestServer({ clock, env: { SVC_TRUSTED_PROXIES: '127.0.0.1', ...(await engine.env()) } });
    site = await createSite(server);
    assert.equal((await importEvents(server, site.siteId, events())).body.rejected, 0);
    await server.admin('POST', '/maintenance/run', { tasks: ['rollup'] });
    admin = (await signedInUser(server, 'page-lock-admin@example.com', [{ orgId: site.orgId, role: 'admin' }])).client;
    for (const lock of LOCKS) {
      const created = await admin.request('POST', `/app/v1/manage/sites/${site.siteId}/shared-links`, { filters: [lock] });
      assert.equal(created.status, 201, created.text);
      const opened = await new AppClient(server).request('POST', '/app/v1/share', { token: new URL(created.body.url).pathname.split('/')[2] });
      assert.equal(opened.status, 200, opened.text);
      accesses.set(lock, opened.body.access as string);
    }
  });
  after(() => server.stop());

  const read = async (access: string, path: string) => {
    const res = await fetch(`${server.url}/app/v1${path}`, { headers: { 'x-share-access': access } });
    return { status: res.status, text: await res.text() };
  };
  const json = async (access: string, path: string) => {
    const res = await read(access, `/sites/${site.siteId}${path}`);
    assert.equal(res.status, 200, `${path}: ${res.text}`);
    return JSON.parse(res.text);
  };
  const rows = async (access: string, path: string) => ((await json(access, path)).rows as Row[]).map((r) => [r.key, r.visitors]);
  const journeys = async (access: string, path: string) => {
    const answer = await json(access, `/journeys?period=30d${path}`);
    return { rows: (answer.rows as Journey[]).map((r) => [r.path, r.sessions]), totalSessions: answer.totalSessions };
  };

  for (const lock of LOCKS) {
    test(`${lock}: entry and exit pages outside the lock fold into one ${O} row, and a filter reads them folded`, async () => {
      const access = accesses.get(lock)!;
      // The visits holding a blog page: 0–6 and 9; visitors 0–3 entered on /, visitor 6 left on /pricing.
      assert.deepEqual(await rows(access, '/breakdown?period=30d&dimension=entry'), [
        [O, 4],
        ['/blog/a', 3],
        ['/blog/b', 1],
      ]);
      const exits = await rows(access, '/breakdown?period=30d&dimension=exit');
      assert.deepEqual(exits, [
        ['/blog/b', 6],
        ['/blog/a', 1],
        [O, 1],
      ]);
      // Every visitor has one entry and one exit row: the rows add up to the visitors, as on an unlocked view.
      const { stats } = await json(access, '/stats?period=30d');
      assert.equal(stats.visitors.value, 8);
      assert.equal(
        exits.reduce((sum, [, visitors]) => sum + Number(visitors), 0),
        8,
      );
      const exitCount = await json(access, '/breakdown?period=30d&dimension=exit&limit=1&offset=2');
      assert.deepEqual([exitCount.totalKeys, exitCount.rows.map((r: Row) => r.key)], [3, [O]]);
      // A search finds a page outside the lock under no name.
      for (const search of ['pricing', 'about', '/']) {
        const found = await json(access, `/breakdown?period=30d&dimension=exit&search=${encodeURIComponent(search)}`);
        assert.ok(
          found.rows.every((r: Row) => r.key !== '/pricing' && r.key !== '/about'),
          `${search}: ${JSON.stringify(found.rows)}`,
        );
      }
      assert.deepEqual(await rows(access, '/breakdown?period=30d&dimension=exit&search=pricing'), []);
      // A request's own filter on the entry or exit page compares the folded values: a page outside the lock matches nothing.
      const visitors = async (filter: string) => (await json(access, `/stats?period=30d&filter=${encodeURIComponent(filter)}`)).stats.visitors.value;
      assert.equal(await visitors('exit:/pricing'), 0, 'visitor 6 left on /pricing, which the lock does not show');
      assert.equal(await visitors('entry:/'), 0);
      assert.equal(await visitors(`exit:${O}`), 1);
      assert.equal(await visitors(`entry:${O}`), 4);
      assert.equal(await visitors(`entry!:${O}`), 4);
      assert.equal(await visitors('entry:/blog/a|/'), 3);
      assert.deepEqual(await rows(access, `/breakdown?period=30d&dimension=country&filter=${encodeURIComponent(`exit:${O}`)}`), [['DE', 1]]);
      // A row's figures are those of `stats` under the row's key as a filter, `(other page)` included.
      const detailed = await json(access, '/breakdown?period=30d&dimension=entry&include=bounceRate,avgDuration&raw=clip');
      for (const row of detailed.rows as Array<Row & { bounceRate: number | null; avgDuration: number | null }>) {
        const keyed = (await json(access, `/stats?period=30d&raw=clip&filter=${encodeURIComponent(`entry:${row.key}`)}`)).stats;
        assert.deepEqual([row.visitors, row.bounceRate, row.avgDuration], [keyed.visitors.value, keyed.bounceRate.value, keyed.avgDuration.value], row.key);
      }
    });

    test(`${lock}: journeys show a step outside the lock as ${O}, and a page outside it gives no row`, async () => {
      const access = accesses.get(lock)!;
      // Pages outside the lock in a row read as one step: /, /blog/a, /pricing, /about, /blog/b is (other page), /blog/a, (other page), /blog/b.
      assert.deepEqual(await journeys(access, '&steps=3'), {
        rows: [
          [[O, '/blog/a', O], 4],
          [['/blog/a', '/blog/b'], 2],
          [['/blog/a', O], 1],
          [['/blog/b', O, '/blog/a'], 1],
        ],
        totalSessions: 8,
      });
      assert.deepEqual(await journeys(access, '&steps=3&page=/blog/a'), {
        rows: [
          [['/blog/a', O, '/blog/b'], 4],
          [['/blog/a', '/blog/b'], 2],
          [['/blog/a'], 1],
          [['/blog/a', O], 1],
        ],
        totalSessions: 8,
      });
      assert.deepEqual(await journeys(access, '&steps=2&page=/blog/b&direction=previous'), {
        rows: [
          [[O, '/blog/b'], 4],
          [['/blog/a', '/blog/b'], 2],
          [['/blog/b'], 1],
        ],
        totalSessions: 7,
      });
      for (const outside of ['/pricing', '/', '/about']) {
        for (const direction of ['next', 'previous']) {
          assert.deepEqual(await journeys(access, `&page=${encodeURIComponent(outside)}&direction=${direction}`), { rows: [], totalSessions: 0 }, `${outside} ${direction}`);
        }
      }
      const folded = await read(access, `/sites/${site.siteId}/journeys?period=30d&page=${encodeURIComponent(O)}`);
      assert.equal(folded.status, 400, 'a journey starts at a page, and (other page) names none');
      // Under a filter of the request's own, the same.
      assert.deepEqual(await journeys(access, '&steps=2&filter=country:FR'), {
        rows: [
          [[O, '/blog/a'], 2],
          [['/blog/a', '/blog/b'], 1],
          [['/blog/b', O], 1],
        ],
        totalSessions: 4,
      });
    });
  }

  test('the reads that list pages and take no filters are not shared through a locked link, nor goals through a page lock', async () => {
    const access = accesses.get(LOCKS[0]!)!;
    for (const path of ['/realtime', '/funnels', '/properties?period=30d']) {
      const refused = await read(access, `/sites/${site.siteId}${path}`);
      assert.equal(refused.status, 403, `${path}: ${refused.text}`);
      // The refusal names the read refused.
      assert.match(refused.text, new RegExp(`locked to filters: ${path.slice(1).split('?')[0]} takes no filters`));
    }
    const goals = await read(access, `/sites/${site.siteId}/goals?period=30d`);
    assert.equal(goals.status, 403, goals.text);
    assert.match(goals.text, /locked to pages: its goals, whose patterns may name pages outside the lock/);
    // Nor a goal filter, which reads the site's goals.
    const goal = await server.admin('POST', `/sites/${site.siteId}/goals`, { name: 'Pricing', kind: 'page', pattern: '/pricing' });
    const goalFiltered = await read(access, `/sites/${site.siteId}/stats?period=30d&raw=clip&filter=goal:${goal.body.goalId}`);
    assert.equal(goalFiltered.status, 403, goalFiltered.text);
    assert.match(goalFiltered.text, /goal filters, which read the site's goals, are not shared through it/);
    for (const path of [`/manage/sites/${site.siteId}/export`, '/sites']) {
      const refused = await read(access, path);
      assert.equal(refused.status, 403, `${path}: ${refused.text}`);
      assert.match(refused.text, /its own site only/);
    }
  });
});
