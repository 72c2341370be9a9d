// POST /admin/v1/sites/:siteId/events/import: a day of events through the same enrichment and
// sessionization as live traffic; bots dropped; a report of rejected lines.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { BROWSER_UA, createSite, importEvents, startTestServer, type TestServer } from '../helpers/server.js';
import { ApiError } from '../../src/core/errors.js';
import { PrometheusRegistry } from '../../src/core/prometheus.js';
import { GeoDatabases } from '../../src/ingest/geo.js';
import { Ingestor } from '../../src/ingest/ingestor.js';
import { openCounters } from '../../src/storage/counters/open.js';
import { DuckDbEventStore } from '../../src/storage/events/duckdb.js';
import { openSqliteMetaStore } from '../../src/storage/meta/sqlite.js';
import { loadConfig } from '../../src/config.js';
import { sql } from '../../src/sql/sql.js';

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(() => server.stop());

const DAY = Date.UTC(2026, 2, 3);

/** A day of traffic: `visitors` visitors, each with a few pageviews a minute apart. */
function dayOfEvents(visitors: number) {
  const lines: Array<Record<string, unknown>> = [];
  for (let v = 0; v < visitors; v++) {
    const start = DAY + ((v * 86_400_000) / visitors);
    for (let p = 0; p < 3; p++) {
      lines.push({ ts: start + p * 60_000, ua: BROWSER_UA, ip: `10.${(v >> 8) & 255}.${v & 255}.1`, u: `/page/${p}?utm_source=mail`, r: 'https://news.ycombinator.com/', w: 1440 });
    }
  }
  // Shuffled: the importer must sort before sessionizing.
  return lines.sort((a, b) => ((a.ts as number) * 7919) % 1000 - ((b.ts as number) * 7919) % 1000);
}

test('a day of events is stored, sessionized per visitor, in the site-local day', async () => {
  const site = await createSite(server, { timezone: 'America/New_York' });
  const lines = dayOfEvents(500);
  const report = await importEvents(server, site.siteId, lines);
  assert.equal(report.status, 200);
  assert.deepEqual(report.body, { accepted: 1500, rejected: 0, errors: [] });
  const rows = await server.storedEvents(site.siteId);
  assert.equal(rows.length, 1500);
  assert.equal(new Set(rows.map((r) => r.session_id)).size, 500);
  // Visitor 104's three pageviews straddle local midnight (05:00 UTC): one session, but a new
  // daily visitor id after the salt rotation, so 501 visitor-days.
  assert.equal(new Set(rows.map((r) => r.visitor_id)).size, 501);
  assert.equal(rows.filter((r) => r.session_start).length, 500);
  assert.ok(rows.every((r) => r.referrer === 'news.ycombinator.com' && r.utm_source === 'mail' && r.device === 'desktop'));
  // Midnight UTC is still the previous evening in New York.
  assert.equal(rows[0]!.local_day, '2026-03-02');
  assert.equal(rows.at(-1)!.local_day, '2026-03-03');
});

test("a line's absolute u gives its hostname (any host: imports skip the origin check), a path none", async () => {
  const site = await createSite(server, { domain: 'hosts.example' });
  const line = (u: string, i: number) => ({ ts: DAY + i * 60_000, ua: BROWSER_UA, ip: '10.9.9.9', u });
  const report = await importEvents(server, site.siteId, [line('https://Docs.Hosts.Example:8080/a', 0), line('http://mirror.test./b', 1), line('/c', 2)]);
  assert.deepEqual(report.body, { accepted: 3, rejected: 0, errors: [] });
  const rows = await server.storedEvents(site.siteId);
  assert.deepEqual(rows.map((r) => [r.page, r.hostname]), [['/a', 'docs.hosts.example'], ['/b', 'mirror.test'], ['/c', null]]);
});

/** Each session as its events' instants and pages: equal across imports whatever the random ids. */
async function sessionShapes(siteId: string): Promise<string[]> {
  const sessions = new Map<bigint, string[]>();
  for (const r of await server.storedEvents(siteId)) {
    const events = sessions.get(r.session_id) ?? [];
    events.push(`${r.ts}${r.page}${r.session_start ? '*' : ''}${r.local_day}`);
    sessions.set(r.session_id, events);
  }
  return [...sessions.values()].map((events) => events.join(' ')).sort();
}

test('sorted, shuffled and nearly sorted files give the same sessions', async () => {
  const lines = dayOfEvents(1500).sort((a, b) => (a.ts as number) - (b.ts as number));
  // Sorted but for one early line moved to the end, after several thousand lines were enriched.
  const late = [...lines.slice(0, 10), ...lines.slice(11), lines[10]!];
  // Shuffled, with CRLF endings, blank lines and rejected lines of every kind among the accepted ones:
  // the second reading must find the accepted lines again, and only them.
  const noise = ['', 'not json', JSON.stringify({ ts: DAY, ua: 'Googlebot/2.1', ip: '10.9.9.9', u: '/bot' }), JSON.stringify({ ts: DAY, ua: BROWSER_UA, u: '/x', pad: 'x'.repeat(70_000) })];
  const noisy: string[] = [];
  const noiseLines = new Map<number, number>();
  dayOfEvents(1500).forEach((line, i) => {
    if (i % 500 === 7) {
      const kind = (i / 500) | 0;
      noisy.push(noise[kind % noise.length]!);
      noiseLines.set(noisy.length, kind % noise.length);
    }
    noisy.push(`${JSON.stringify(line)}\r`);
  });
  const shapes: string[][] = [];
  const reports = [];
  for (const file of [lines, late, dayOfEvents(1500), noisy]) {
    const site = await createSite(server, { timezone: 'America/New_York' });
    const report = await importEvents(server, site.siteId, file);
    reports.push(report.body);
    shapes.push(await sessionShapes(site.siteId));
    assert.equal((await server.storedEvents(site.siteId)).length, 4500);
  }
  for (const report of reports.slice(0, 3)) assert.deepEqual(report, { accepted: 4500, rejected: 0, errors: [] });
  // Blank lines are skipped; the others are rejected where they stand.
  const rejectedLines = [...noiseLines].filter(([, kind]) => kind !== 0).map(([line]) => line);
  assert.equal(rejectedLines.length, 6);
  assert.deepEqual(
    reports[3]!.errors.map((e) => [e.line, e.reason.split(':')[0]]),
    rejectedLines.map((line) => [line, ['', 'bad_json', 'bot_ua', 'too_large'][noiseLines.get(line)!]]),
  );
  assert.deepEqual([reports[3]!.accepted, reports[3]!.rejected], [4500, 6]);
  assert.equal(shapes[0]!.length, 1500);
  assert.deepEqual(shapes[1], shapes[0]);
  assert.deepEqual(shapes[2], shapes[0]);
  assert.deepEqual(shapes[3], shapes[0]);
});

test('an unsorted import is sorted from its body up to a bound; a sorted one has none', async () => {
  const meta = await openSqliteMetaStore(':memory:');
  const events = await DuckDbEventStore.open({ path: ':memory:' });
  const ingest = new Ingestor({
    clock: { now: () => Date.now() }, meta, events, geo: GeoDatabases.fromConfig(undefined), metrics: new PrometheusRegistry(),
    collectRateLimit: { count: 100, windowMs: 10_000 }, counters: await openCounters(undefined, { sessionCacheBytes: loadConfig({}).sessionCacheBytes }), maxSortBytes: 50_000,
  });
  const org = await meta.createOrg('o', 0);
  const site = await meta.createSite(org.id, { domain: 'sort.example', name: 's', timezone: 'UTC', retentionMonths: null, rawDays: 30, honorGpc: true }, 'SortSite', 0);
  const lines = Array.from({ length: 1000 }, (_, i) => JSON.stringify({ ts: DAY + i * 1000, ua: BROWSER_UA, ip: '203.0.113.1', u: `/p${i}` }));
  const chunks = (file: string[]) => file.map((l) => `${l}\n`);
  assert.ok(lines.join('\n').length > 50_000);
  assert.equal((await ingest.imports.importLines(site, chunks(lines))).accepted, 1000);
  const unsorted = [...lines.slice(1), lines[0]!];
  await assert.rejects(ingest.imports.importLines(site, chunks(unsorted)), (err: unknown) => err instanceof ApiError && err.code === 'PAYLOAD_TOO_LARGE' && /not sorted/.test(err.message));
  assert.deepEqual(await events.query(sql`SELECT count(*) AS n FROM events`), [{ n: 1000n }]);
  assert.equal((await ingest.imports.importLines(site, chunks(unsorted.slice(-40)))).accepted, 40);
  await events.close();
  await meta.close();
});

test('ISO timestamps, geo overrides and custom events', async () => {
  const site = await createSite(server);
  const report = await importEvents(server, site.siteId, [
    { ts: '2026-03-04T10:00:00Z', ua: BROWSER_UA, ip: '203.0.113.5', u: '/', country: 'de', region: 'Bavaria', city: 'Munich' },
    { ts: '2026-03-04T11:01:00.500+01:00', ua: BROWSER_UA, ip: '203.0.113.5', u: '/', e: 'signup', p: { plan: 'pro' } },
  ]);
  assert.equal(report.body.accepted, 2);
  const rows = await server.storedEvents(site.siteId);
  assert.deepEqual([rows[0]!.country, rows[0]!.region, rows[0]!.city], ['DE', 'Bavaria', 'Munich']);
  assert.equal(rows[1]!.name, 'signup');
  assert.equal(rows[1]!.ts, BigInt(Date.parse('2026-03-04T10:01:00.500Z')));
});

test("named sessions, and browser, os and device stated in place of the User-Agent's", async () => {
  const site = await createSite(server);
  const MIN = 60_000;
  const line = (minute: number, session: string | undefined, extra: Record<string, unknown> = {}) => ({ ts: DAY + minute * MIN, ua: BROWSER_UA, ip: '203.0.113.9', u: `/m${minute}`, session, ...extra });
  // Out of order, as a file may be: the import sorts before it sessionizes.
  const report = await importEvents(server, site.siteId, [
    line(50, 'visit-b'),
    line(0, 'visit-a', { browser: 'Samsung Internet', os: 'Tizen', device: 'tablet' }),
    line(5, 'visit-b'),
    // 45 minutes after visit-a's first event: the same name goes on with it whatever the gap.
    line(45, 'visit-a'),
    line(52, undefined),
    line(53, 'x'.repeat(129)),
    line(54, undefined, { device: 'phone' }),
    line(55, undefined, { browser: 7 }),
  ]);
  assert.deepEqual([report.body.accepted, report.body.errors.map((e) => [e.line, e.reason])], [
    5,
    [
      [6, 'bad_shape: session must be a string of at most 128 characters'],
      [7, 'bad_shape: browser and os must be strings of at most 64 characters; device desktop, mobile or tablet'],
      [8, 'bad_shape: browser and os must be strings of at most 64 characters; device desktop, mobile or tablet'],
    ],
  ]);
  const rows = (await server.storedEvents(site.siteId)).sort((a, b) => Number(a.ts - b.ts));
  const sessionOf = (page: string) => rows.find((r) => r.page === page)!.session_id;
  // visit-a: minutes 0 and 45, though visit-b came between; visit-b: minutes 5 and 50, though 5 is
  // within the gap of visit-a's 0. The unnamed event at 52 is a session of its own: names are by name.
  assert.equal(sessionOf('/m0'), sessionOf('/m45'));
  assert.equal(sessionOf('/m5'), sessionOf('/m50'));
  assert.notEqual(sessionOf('/m0'), sessionOf('/m5'));
  assert.notEqual(sessionOf('/m52'), sessionOf('/m50'));
  assert.equal(new Set(rows.map((r) => r.visitor_id)).size, 1);
  assert.equal(rows.filter((r) => r.session_start).length, 3);
  const first = rows.find((r) => r.page === '/m0')!;
  assert.deepEqual([first.browser, first.os, first.device], ['Samsung Internet', 'Tizen', 'tablet']);
  const other = rows.find((r) => r.page === '/m5')!;
  assert.deepEqual([other.browser, other.os, other.device], ['Chrome', 'Windows', 'desktop'], "the User-Agent's families where the line states none");
});

test('bad lines are reported with their line numbers and reasons; bots are dropped', async () => {
  const site = await createSite(server);
  const ok = { ts: DAY, ua: BROWSER_UA, ip: '203.0.113.7', u: '/' };
  const report = await importEvents(server, site.siteId, [
    ok,
    '{not json',
    { ...ok, ts: 'yesterday' },
    { ...ok, ts: Date.now() + 7 * 86_400_000 },
    { ...ok, ua: 'Googlebot/2.1 (+http://www.google.com/bot.html)' },
    { ...ok, ip: '3.5.140.1' },
    { ...ok, e: 'Bad Name' },
    { ...ok, ip: 'not-an-ip' },
    { ...ok, country: 'Germany' },
    ok,
  ]);
  assert.equal(report.body.accepted, 2);
  assert.equal(report.body.rejected, 8);
  assert.deepEqual(
    report.body.errors.map((e) => [e.line, e.reason.split(':')[0]]),
    [
      [2, 'bad_json'],
      [3, 'bad_shape'],
      [4, 'bad_shape'],
      [5, 'bot_ua'],
      [6, 'bot_datacenter'],
      [7, 'bad_name'],
      [8, 'bad_shape'],
      [9, 'bad_shape'],
    ],
  );
});

test('an absolute u keeps its path and query whatever its host (no origin check on import)', async () => {
  const site = await createSite(server);
  const report = await importEvents(server, site.siteId, [{ ts: DAY, ua: BROWSER_UA, ip: '203.0.113.8', u: 'https://old-domain.example/blog/post?utm_source=feed' }]);
  assert.equal(report.body.accepted, 1);
  const [row] = await server.storedEvents(site.siteId);
  assert.deepEqual([row!.page, row!.utm_source], ['/blog/post', 'feed']);
});

test('at most 100 errors are listed; the count covers all', async () => {
  const site = await createSite(server);
  const report = await importEvents(server, site.siteId, Array.from({ length: 250 }, () => '[]'));
  assert.equal(report.body.rejected, 250);
  assert.equal(report.body.errors.length, 100);
});

test('an unknown site is 404 with the envelope', async () => {
  const res = await importEvents(server, 'nosuchsite', [{ ts: DAY, ua: BROWSER_UA, u: '/' }]);
  assert.equal(res.status, 404);
  assert.equal((res.body as any).error.code, 'NOT_FOUND');
});

test('an import over the line limit is refused whole with 413', async () => {
  const meta = await openSqliteMetaStore(':memory:');
  const events = await DuckDbEventStore.open({ path: ':memory:' });
  const ingestDeps = {
    clock: { now: () => Date.now() }, meta, events, geo: GeoDatabases.fromConfig(undefined), metrics: new PrometheusRegistry(),
    collectRateLimit: { count: 100, windowMs: 10_000 }, counters: await openCounters(undefined, { sessionCacheBytes: loadConfig({}).sessionCacheBytes }),
  };
  const ingest = new Ingestor({ ...ingestDeps, maxImportLines: 5 });
  const org = await meta.createOrg('o', 0);
  const site = await meta.createSite(org.id, { domain: 'cap.example', name: 'c', timezone: 'UTC', retentionMonths: null, rawDays: 30, honorGpc: true }, 'CapSite', 0);
  const line = JSON.stringify({ ts: DAY, ua: BROWSER_UA, ip: '203.0.113.1', u: '/' });
  await assert.rejects(ingest.imports.importLines(site, [Array(6).fill(line).join('\n')]), (err: unknown) => err instanceof ApiError && err.code === 'PAYLOAD_TOO_LARGE');
  assert.deepEqual(await events.query(sql`SELECT count(*) AS n FROM events`), [{ n: 0n }]);
  assert.equal((await ingest.imports.importLines(site, [Array(5).fill(line).join('\n')])).accepted, 5);
  // Sorted lines are written as they come: those written before the limit is hit are taken back.
  const big = new Ingestor({ ...ingestDeps, maxImportLines: 9000 });
  const lines = Array.from({ length: 9001 }, (_, i) => JSON.stringify({ ts: DAY + i, ua: BROWSER_UA, ip: '203.0.113.1', u: '/' }));
  await assert.rejects(big.imports.importLines(site, [lines.join('\n')]), (err: unknown) => err instanceof ApiError && err.code === 'PAYLOAD_TOO_LARGE');
  assert.deepEqual(await events.query(sql`SELECT count(*) AS n FROM events`), [{ n: 5n }]);
  await events.close();
  await meta.close();
});
