// The demo's generated traffic: deterministic from its seed, and, imported into a real server the
// way `svc demo` imports it (several calls cut at midnights), read back through /v1 with the exact
// visitors, sessions and pageviews generated and a non-empty answer for every panel; `svc demo`
// itself run as a child process, its user signed in to see the figures.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AdminClient } from '../../src/cli/client.js';
import { importFile } from '../../src/cli/commands/import.js';
import { DEMO_FUNNEL, DEMO_GOALS, generateDemoTraffic } from '../../src/cli/demo-traffic.js';
import { localDay } from '../../src/core/localtime.js';
import { AppClient } from '../helpers/app-client.js';
import { runSvc } from '../helpers/cli.js';
import { createApiKey, createSite, startTestServer, type TestServer } from '../helpers/server.js';

const NOW = Date.parse('2026-03-12T15:30:00Z');
const TZ = 'America/New_York';

describe('demo traffic', () => {
  test('the same seed gives the same lines; another seed other lines', () => {
    const options = { seed: 7, days: 3, visitorsPerDay: 30, timeZone: TZ, now: NOW };
    const a = generateDemoTraffic(options);
    assert.deepEqual(generateDemoTraffic(options), a);
    assert.notDeepEqual(generateDemoTraffic({ ...options, seed: 8 }).lines, a.lines);
  });

  test('lines are in time order, within the days, and the totals count them', () => {
    const { lines, totals } = generateDemoTraffic({ seed: 1, days: 14, visitorsPerDay: 60, timeZone: TZ, now: NOW });
    for (let i = 1; i < lines.length; i++) assert.ok(lines[i]!.ts >= lines[i - 1]!.ts, `line ${i + 1} is earlier than line ${i}`);
    assert.ok(lines[lines.length - 1]!.ts < NOW);
    assert.equal(totals.pageviews, lines.filter((l) => l.e === undefined).length);
    for (const [name, n] of Object.entries(totals.events)) assert.equal(n, lines.filter((l) => l.e === name).length, name);
    assert.equal(totals.from, '2026-02-27');
    assert.equal(totals.to, '2026-03-12');
    // Shapes: weekdays busier than weekends, afternoons busier than nights.
    const byHour = new Array(24).fill(0);
    for (const l of lines) if (l.e === undefined) byHour[Number(new Intl.DateTimeFormat('en-US', { timeZone: TZ, hour: 'numeric', hourCycle: 'h23' }).format(l.ts))]++;
    assert.ok(byHour[15] > 3 * byHour[3], `hours: ${byHour.join(',')}`);
    assert.ok(new Set(lines.map((l) => l.country)).size >= 10);
    assert.ok(new Set(lines.map((l) => l.ua)).size >= 6);
  });

  test('about half the visits bounce, as real sites see, whatever the day the demo runs', () => {
    // Over a sample of ~8 000 visits the share sits within a few points of the sources' weighted
    // mean (~0.51); each start day shifts the weekday shape, so several are tried.
    for (const day of [0, 1, 2, 3, 4, 5, 6]) {
      const { totals } = generateDemoTraffic({ seed: 1, days: 28, visitorsPerDay: 300, timeZone: TZ, now: NOW + day * 86_400_000 });
      const share = totals.bounces / totals.sessions;
      assert.ok(share >= 0.4 && share <= 0.6, `bounce rate ${share} with now + ${day} days`);
    }
  });
});

describe('demo traffic imported', () => {
  let server: TestServer;
  let scratch: string;
  before(async () => {
    // One key reads every panel: more requests at once than the default limit's burst.
    server = await startTestServer({ env: { SVC_API_RATE_LIMIT: '100000/60s' } });
    scratch = mkdtempSync(join(tmpdir(), 'svc-demo-test-'));
  });
  after(async () => {
    await server.stop();
    rmSync(scratch, { recursive: true, force: true });
  });

  test('/v1 reports the generated figures, and every panel has rows', async () => {
    const now = Date.now();
    const site = await createSite(server, { timezone: TZ });
    const key = await createApiKey(server, site.orgId);
    for (const goal of DEMO_GOALS) assert.equal((await server.admin('POST', `/sites/${site.siteId}/goals`, goal)).status, 201);
    const funnel = await server.admin('POST', `/sites/${site.siteId}/funnels`, DEMO_FUNNEL);
    assert.equal(funnel.status, 201);

    const { lines, totals } = generateDemoTraffic({ seed: 3, days: 6, visitorsPerDay: 80, timeZone: TZ, now });
    const file = join(scratch, 'demo.ndjson');
    writeFileSync(file, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
    const client = new AdminClient({ url: server.url, token: server.adminToken });
    // A call per two days or so: the import is cut at the site's midnights. A call holds at least the
    // largest day, whose share of the lines depends on how much of today has passed.
    const perDay = new Map<string, number>();
    for (const line of lines) {
      const day = localDay(line.ts, TZ);
      perDay.set(day, (perDay.get(day) ?? 0) + 1);
    }
    const linesPerCall = Math.max(Math.ceil(lines.length / 3), ...perDay.values());
    const report = await importFile(client, site.siteId, file, { linesPerCall, fromLine: 1, progress: { write: () => true } });
    assert.deepEqual([report.accepted, report.rejected], [lines.length, 0]);
    assert.ok((report.calls?.length ?? 1) >= 3);

    const get = async (path: string) => {
      const res = await fetch(`${server.url}/v1/sites/${site.siteId}${path}`, { headers: { authorization: `Bearer ${key}` } });
      assert.equal(res.status, 200, `${path}: ${await res.clone().text()}`);
      return (await res.json()) as any;
    };
    const range = `from=${totals.from}&to=${totals.to}`;
    const { stats } = await get(`/stats?${range}`);
    assert.equal(stats.visitors.value, totals.visitors);
    assert.equal(stats.sessions.value, totals.sessions);
    assert.equal(stats.pageviews.value, totals.pageviews);
    assert.equal(stats.sessions.value, totals.sessions);
    assert.equal(stats.bounceRate.value, Math.round((totals.bounces / totals.sessions) * 10_000) / 10_000);
    assert.ok(stats.bounceRate.value >= 0.4 && stats.bounceRate.value <= 0.7, `bounce rate ${stats.bounceRate.value}`);
    assert.ok(stats.avgDuration.value > 0);
    assert.ok(stats.conversions.value > 0);

    const series = await get(`/timeseries?${range}&metric=pageviews`);
    assert.equal(series.points.reduce((n: number, p: { value: number }) => n + p.value, 0), totals.pageviews);
    for (const dimension of ['page', 'entry', 'exit', 'referrer', 'utm_source', 'utm_medium', 'utm_campaign', 'country', 'region', 'city', 'browser', 'os', 'device', 'event']) {
      const { rows } = await get(`/breakdown?${range}&dimension=${dimension}`);
      assert.ok(rows.length >= 2, `${dimension}: ${JSON.stringify(rows)}`);
    }
    const { goals } = await get(`/goals?${range}`);
    assert.deepEqual(goals.map((g: { name: string }) => g.name).sort(), DEMO_GOALS.map((g) => g.name).sort());
    const signup = goals.find((g: { name: string }) => g.name === 'Signup');
    assert.equal(signup.conversions, totals.events.signup);
    const reading = await get(`/funnels/${funnel.body.id}?${range}`);
    assert.ok(reading.steps[0].visitors > 0 && reading.steps[1].visitors > 0, JSON.stringify(reading.steps));
  });
});

describe('svc demo', () => {
  let server: TestServer;
  // Where people reach the service, apart from where the command line reaches it (SVC_URL).
  const PUBLIC_URL = 'https://stats.example.com';
  before(async () => {
    server = await startTestServer({ env: { SVC_API_RATE_LIMIT: '100000/60s', SVC_PUBLIC_URL: PUBLIC_URL } });
  });
  after(() => server.stop());

  const svc = (args: string[]) => runSvc(args, { SVC_URL: server.url, SVC_ADMIN_TOKEN: server.adminToken });

  test('creates a user who signs in and sees the generated figures; the same email again is refused before anything is created', async () => {
    const run = await svc(['demo', '--email', 'newcomer@example.com', '--days', '3', '--visitors', '25', '--timezone', 'Asia/Tokyo', '--json']);
    assert.equal(run.code, 0, run.stderr);
    const result = JSON.parse(run.stdout);
    assert.equal(result.email, 'newcomer@example.com');
    assert.match(result.password, /^[A-Za-z0-9_-]{20}$/);
    assert.equal(result.dashboard, `${PUBLIC_URL}/sites/${result.siteId}`, 'links start with SVC_PUBLIC_URL');
    assert.equal(result.importedSite.dashboard, `${PUBLIC_URL}/sites/${result.importedSite.siteId}`);
    assert.ok(!run.stdout.includes(server.url) && !run.stderr.includes(server.url), 'no link to the local address');
    assert.equal(result.imported.rejected, 0);
    assert.equal((await server.admin('GET', `/sites/${result.siteId}`)).body.rawDays, 396, 'raw events are kept 13 months');

    const user = new AppClient(server);
    assert.equal((await user.signIn('newcomer@example.com', result.password, { origin: PUBLIC_URL })).status, 200);
    const sites = await user.request('GET', '/app/v1/sites');
    assert.deepEqual(
      sites.body.sites.map((s: { id: string; timezone: string; role: string }) => [s.id, s.timezone, s.role]).sort(),
      [[result.siteId, 'Asia/Tokyo', 'owner'], [result.importedSite.siteId, 'Asia/Tokyo', 'owner']].sort(),
    );
    const { generated } = result;
    const stats = await user.request('GET', `/app/v1/sites/${result.siteId}/stats?from=${generated.from}&to=${generated.to}`);
    assert.equal(stats.status, 200, stats.text);
    assert.deepEqual([stats.body.stats.visitors.value, stats.body.stats.pageviews.value], [generated.visitors, generated.pageviews]);
    const rate = (bounces: number, sessions: number) => Math.round((bounces / sessions) * 10_000) / 10_000;
    assert.equal(stats.body.stats.bounceRate.value, rate(generated.bounces, generated.sessions));
    // The second site: a year of imported aggregates, then collected days; both read as printed.
    const { importedSite } = result;
    assert.equal(importedSite.export.status, 'done');
    const year = await user.request('GET', `/app/v1/sites/${importedSite.siteId}/stats?from=${importedSite.export.from}&to=${importedSite.export.to}&comparison=off`);
    assert.equal(year.headers.get('svc-imported'), 'included');
    assert.deepEqual(
      [year.body.stats.visitors.value, year.body.stats.pageviews.value, year.body.stats.sessions.value, year.body.stats.bounceRate.value],
      [importedSite.export.visitors, importedSite.export.pageviews, importedSite.export.sessions, rate(importedSite.export.bounces, importedSite.export.sessions)],
    );
    const recent = await user.request('GET', `/app/v1/sites/${importedSite.siteId}/stats?from=${importedSite.generated.from}&to=${importedSite.generated.to}&comparison=off`);
    assert.equal(recent.body.stats.visitors.value, importedSite.generated.visitors);
    // The export's days each bounce 40 to 65 %; the generated traffic's share is checked over a large
    // sample above: 3 days of 25 visitors, drawn on today's weekdays, are too few to bound it here.
    const exportShare = importedSite.export.bounces / importedSite.export.sessions;
    assert.ok(exportShare >= 0.4 && exportShare <= 0.65, `the export's bounce rate ${exportShare}`);
    assert.match(run.stdout, /"importedSite"/);
    const funnels = await user.request('GET', `/app/v1/sites/${result.siteId}/funnels`);
    assert.deepEqual(funnels.body.funnels.map((f: { id: number }) => f.id), [result.funnelId]);

    const orgs = (await server.admin('GET', '/orgs')).body.orgs.length;
    const again = await svc(['demo', '--email', 'NEWCOMER@example.com', '--days', '1']);
    assert.equal(again.code, 1);
    assert.match(again.stderr, /a user NEWCOMER@example.com exists already: pass another --email/);
    assert.equal((await server.admin('GET', '/orgs')).body.orgs.length, orgs);
  });
});
