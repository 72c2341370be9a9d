// A shared link locked to a page pattern (`page:/blog/**`) on a real listening server: every read
// through it counts only the events on matching pages, a client's own page filter narrows within it,
// its answers equal the read API's with the exact filter where one page is all that matches, reads
// past the raw window are refused with their reason, and a pattern the goals' rules refuse is
// refused at creation. On DuckDB and on ClickHouse (the service's events there, SVC_CLICKHOUSE_URL).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ManualClock } from '../../src/core/clock.js';
import { OTHER_PAGE_KEY } from '../../src/core/vocabulary.js';
import { AppClient, signedInUser } from '../helpers/app-client.js';
import { freshDatabaseUrl } from '../../support/clickhouse.js';
import { BROWSER_UA, createApiKey, createSite, importEvents, startTestServer, type SiteFixture, type TestServer } from '../helpers/server.js';

const NOW = Date.UTC(2026, 2, 20, 12, 0);
const DAY = 86_400_000;

/** Visitor i comes i + 1 days ago from country DE (even i) or FR, and views `/`, then the pages given for it. */
function visits(pagesOf: (i: number) => string[]) {
  const out: Array<Record<string, unknown>> = [];
  for (let i = 0; i < 10; i++) {
    const ts = NOW - (i + 1) * DAY;
    const visitor = { ua: BROWSER_UA, ip: `198.51.100.${i + 1}`, country: i % 2 === 0 ? 'DE' : 'FR' };
    out.push({ ts, u: '/', ...visitor });
    pagesOf(i).forEach((page, j) => out.push({ ts: ts + (j + 1) * 60_000, u: page, ...visitor }));
  }
  return out;
}

/** Blog pages at several depths, and pages that only look like them. */
const BLOG_SITE = (i: number): string[] =>
  [i < 4 ? '/blog/a' : null, i < 2 ? '/blog/x/y' : null, i === 5 ? '/blogger' : null, i === 6 ? '/blog' : null, i === 7 ? '/pricing' : null].filter(
    (p): p is string => p !== null,
  );
/** One blog page: the pattern `/blog/**` and the exact filter `page:/blog/a` select the same events. */
const ONE_POST_SITE = (i: number): string[] => (i < 5 ? ['/blog/a', '/pricing'] : i < 7 ? ['/blog/a', '/blog/a'] : ['/pricing']);

const ENGINES: ReadonlyArray<{ name: string; env(): Promise<Record<string, string>> }> = [
  { name: 'duckdb', env: async () => ({}) },
  { name: 'clickhouse', env: async () => ({ SVC_CLICKHOUSE_URL: await freshDatabaseUrl() }) },
];

for (const engine of ENGINES) describe(`shared links locked to a page pattern (${engine.name})`, () => {
  const clock = new ManualClock(NOW);
  let server: TestServer;
  let blog: SiteFixture;
  let onePost: SiteFixture;
  let key: string;
  let admin: AppClient;

  before(async () => {
    server = await startTestServer({ clock, env: { SVC_TRUSTED_PROXIES: '127.0.0.1', ...(await engine.env()) } });
    blog = await createSite(server);
    onePost = await createSite(server);
    key = await createApiKey(server, onePost.orgId);
    assert.equal((await importEvents(server, blog.siteId, visits(BLOG_SITE))).body.rejected, 0);
    assert.equal((await importEvents(server, onePost.siteId, visits(ONE_POST_SITE))).body.rejected, 0);
    // Rollups cover the past days: the read API answers an exact filter from them, the pattern from raw events.
    await server.admin('POST', '/maintenance/run', { tasks: ['rollup'] });
    const orgs = [blog.orgId, onePost.orgId].map((orgId) => ({ orgId, role: 'admin' as const }));
    admin = (await signedInUser(server, 'pattern-admin@example.com', orgs)).client;
  });
  after(() => server.stop());

  const create = (site: SiteFixture, filters: unknown) => admin.request('POST', `/app/v1/manage/sites/${site.siteId}/shared-links`, { filters });
  const opened = async (site: SiteFixture, filters: string[]): Promise<string> => {
    const created = await create(site, filters);
    assert.equal(created.status, 201, created.text);
    assert.deepEqual(created.body.filters, filters);
    const token = new URL(created.body.url).pathname.split('/')[2]!;
    const res = await new AppClient(server).request('POST', '/app/v1/share', { token });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body.filters, filters);
    return res.body.access as string;
  };
  const read = async (access: string, site: SiteFixture, path: string) => {
    const res = await fetch(`${server.url}/app/v1/sites/${site.siteId}${path}`, { headers: { 'x-share-access': access } });
    return { status: res.status, text: await res.text() };
  };
  const json = async (access: string, site: SiteFixture, path: string) => {
    const res = await read(access, site, path);
    assert.equal(res.status, 200, `${path}: ${res.text}`);
    return JSON.parse(res.text);
  };
  const v1 = async (path: string) => {
    const res = await fetch(`${server.url}/v1/sites/${onePost.siteId}${path}`, { headers: { authorization: `Bearer ${key}` } });
    assert.equal(res.status, 200, `${path}: ${await res.clone().text()}`);
    return res.text();
  };

  test('every read counts the events on matching pages only, and the visitors who have them', async () => {
    const access = await opened(blog, ['page:/blog/**']);
    const stats = (await json(access, blog, '/stats?period=30d')).stats;
    // /blog/a by visitors 0–3, /blog/x/y by visitors 0–1; not /blog, /blogger, /pricing or /.
    assert.equal(stats.pageviews.value, 6);
    assert.equal(stats.visitors.value, 4);
    for (const kpi of ['sessions', 'bounceRate', 'avgDuration', 'conversions']) assert.equal(stats[kpi].value, null, `${kpi}: as under any page filter`);
    const pages = (await json(access, blog, '/breakdown?period=30d&dimension=page')).rows;
    assert.deepEqual(
      pages.map((r: { key: string; visitors: number; views: number }) => [r.key, r.visitors, r.views]),
      [
        ['/blog/a', 4, 4],
        ['/blog/x/y', 2, 2],
      ],
    );
    const countries = (await json(access, blog, '/breakdown?period=30d&dimension=country')).rows;
    assert.deepEqual(
      countries.map((r: { key: string; visitors: number }) => [r.key, r.visitors]),
      [
        ['DE', 2],
        ['FR', 2],
      ],
    );
    const series = await json(access, blog, '/timeseries?period=7d&metric=pageviews');
    assert.equal(
      series.points.reduce((sum: number, p: { value: number | null }) => sum + (p.value ?? 0), 0),
      6,
    );
    const hourly = await json(access, blog, `/timeseries?period=custom&from=2026-03-19&to=2026-03-19&metric=pageviews`);
    assert.equal(hourly.grain, 'hour');
    assert.equal(
      hourly.points.reduce((sum: number, p: { value: number | null }) => sum + (p.value ?? 0), 0),
      2,
      'the day before: visitor 0 on /blog/a and /blog/x/y',
    );
  });

  test("a client's own filter cannot widen the lock: a page filter narrows within it, as filters on other dimensions do", async () => {
    const access = await opened(blog, ['page:/blog/**']);
    const figures = async (filter: string) => {
      const { stats } = await json(access, blog, `/stats?period=30d&filter=${encodeURIComponent(filter)}`);
      return [stats.visitors.value, stats.pageviews.value];
    };
    // A client's page value is exact (no pattern of its own) and must match the lock's pattern too.
    for (const outside of ['page:/', 'page:/pricing', 'page:/**', 'page:/blog/**', 'page:/blogger', 'page:/blog']) assert.deepEqual(await figures(outside), [0, 0], outside);
    assert.deepEqual(await figures('page:/blog/x/y'), [2, 2], 'one post of the blog');
    const post = await read(access, blog, '/breakdown?period=30d&dimension=page&filter=page:/blog/a');
    assert.deepEqual(JSON.parse(post.text).rows.map((r: { key: string }) => r.key), ['/blog/a']);
    const narrowed = (await json(access, blog, '/stats?period=30d&filter=country:DE')).stats;
    assert.deepEqual([narrowed.visitors.value, narrowed.pageviews.value], [2, 3], 'visitors 0 (/blog/a, /blog/x/y) and 2 (/blog/a)');
    for (const path of ['/goals?period=30d', '/funnels', '/realtime']) {
      const refused = await read(access, blog, path);
      assert.equal(refused.status, 403, path);
      assert.match(refused.text, /locked to (filters|pages)/);
    }
  });

  test('where one page matches, the answers equal the read API filtered by that page, but for the pages outside it', async () => {
    const access = await opened(onePost, ['page:/blog/**']);
    const paths = [
      // The compared days lie in the raw window: the pattern compares as the exact filter does.
      '/stats?period=7d',
      '/stats?period=30d&comparison=off',
      '/stats?period=custom&from=2026-03-14&to=2026-03-20&elapsed=true',
      '/timeseries?period=custom&from=2026-03-06&to=2026-03-20',
      '/timeseries?period=7d&metric=pageviews&compare=true',
      '/timeseries?period=today',
      '/breakdown?period=30d&dimension=page',
      '/breakdown?period=30d&dimension=country',
    ];
    for (const path of paths) {
      const shared = await read(access, onePost, path);
      assert.equal(shared.status, 200, `${path}: ${shared.text}`);
      assert.equal(shared.text, await v1(`${path}&filter=page:/blog/a`), path);
    }
    // Every visit entered on /, which the lock does not show (test/accounts/shared-link-page-lock.test.ts).
    const entry = '/breakdown?period=30d&dimension=entry&limit=1';
    assert.equal((await read(access, onePost, entry)).text, (await v1(`${entry}&filter=page:/blog/a`)).replace('"key":"/"', `"key":"${OTHER_PAGE_KEY}"`));
    assert.equal(JSON.parse((await read(access, onePost, '/stats?period=30d')).text).stats.pageviews.value, 9, 'five visitors once, two twice');
  });

  test('past the raw window a pattern is refused with its reason; a literal page locks as an exact filter', async () => {
    const access = await opened(blog, ['page:/blog/**']);
    const refused = await read(access, blog, '/stats?period=90d');
    assert.equal(refused.status, 400);
    assert.deepEqual(JSON.parse(refused.text).error, {
      code: 'RAW_WINDOW_EXCEEDED',
      message: 'a page pattern (this shared link is limited to matching pages) needs a period within the last 30 days',
    });
    assert.equal((await read(access, blog, '/breakdown?period=year&dimension=page')).status, 400);
    // A compared period before the raw window is not computable: its figures are null, as under two filters.
    const stats = (await json(access, blog, '/stats?period=30d')).stats;
    assert.deepEqual([stats.pageviews.value, stats.pageviews.prev], [6, null]);
    const exact = await opened(onePost, ['page:/blog/a']);
    const year = await read(exact, onePost, '/stats?period=year');
    assert.equal(year.status, 200, 'a page without wildcards reads rollups, as the read API does');
    assert.equal(year.text, await v1('/stats?period=year&filter=page:/blog/a'));
  });

  test('a pattern the goals refuse is refused at creation, with its error', async () => {
    const cases: Array<[string[], RegExp]> = [
      [['page:blog/**'], /^filters\[0\]: a page pattern starts with \//],
      [['country:DE', `page:/${'*/'.repeat(17)}`], /^filters\[1\]: a page pattern has at most 16 wildcards \(\* or \*\*\), this one has 17$/],
      [[`page:/${'a'.repeat(512)}*`], /^filters\[0\]: a page pattern has at most 512 characters$/],
    ];
    for (const [filters, message] of cases) {
      const res = await create(blog, filters);
      assert.equal(res.status, 400, JSON.stringify(filters));
      assert.equal(res.body.error.code, 'INVALID_PARAMS');
      assert.match(res.body.error.message, message);
    }
    assert.equal((await create(blog, ['country:*'])).status, 201, 'only page values are patterns: elsewhere * is a character');
  });

  test('a lock with is not (!:) or contains (~:) keeps what it names; the request\'s own filter on its dimension gives way', async () => {
    const contains = await opened(blog, ['page~:BLOG']);
    // /blog/a (visitors 0–3), /blog/x/y (0–1), /blogger (5) and /blog (6): `*` or case play no part.
    const stats = (await json(contains, blog, '/stats?period=30d')).stats;
    assert.deepEqual([stats.visitors.value, stats.pageviews.value], [6, 8]);
    const pages = (await json(contains, blog, '/breakdown?period=30d&dimension=page')).rows.map((r: { key: string }) => r.key).sort();
    assert.deepEqual(pages, ['/blog', '/blog/a', '/blog/x/y', '/blogger']);
    const notGermany = await opened(blog, ['country!:DE']);
    for (const own of ['', '&filter=country:DE', '&filter=country~:D']) {
      assert.equal((await json(notGermany, blog, `/stats?period=30d${own}`)).stats.visitors.value, 5, own);
    }
    assert.equal((await json(notGermany, blog, '/stats?period=30d&filter=page!:/')).stats.visitors.value, 4, 'FR visitors 1, 3, 5 and 7 view another page than /');
    assert.equal((await read(notGermany, blog, '/stats?period=90d')).status, 400, 'past the raw window');
    assert.equal((await create(blog, ['country~:' + 'x'.repeat(257)])).status, 400);
  });
});
