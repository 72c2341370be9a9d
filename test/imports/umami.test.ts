// Umami's data export through the NDJSON import path, end to end on both engines: its rows become
// events (a visitor per session_id, a session per visit_id even when two visits of one visitor are
// minutes apart, custom events lowercased and named under the event-name rule), Umami's words mapped to svc's, bots, other event types
// and bad lines skipped and counted, and every read (stats, breakdowns, journeys) sees them like
// collected events. A file without the columns svc reads is refused at once, naming them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import { ManualClock } from '../../src/core/clock.js';
import { createApiKey, createSite, startTestServer, type TestServer } from '../helpers/server.js';
import { freshDatabaseUrl } from '../../support/clickhouse.js';
import { finishedImport, uploadImport } from '../helpers/import-jobs.js';
import { UMAMI_HEADER, umamiCsv, type UmamiRow as Row } from '../helpers/umami-export.js';

const NOW = Date.UTC(2025, 3, 12, 12);
const DAY = '2025-04-10';

/** The rows of three visitors on DAY (and lines svc leaves out), for a site on `domain`. */
function umamiRows(domain: string): Row[] {
  const chrome = { session_id: 's-1', hostname: domain, browser: 'chrome', os: 'Mac OS', device: 'desktop', screen: '1920x1080', language: 'fr-FR', country: 'FR', region: 'FR-IDF', city: 'Paris', distinct_id: 'user-42' };
  const iphone = { session_id: 's-2', hostname: domain, browser: 'ios', os: 'iOS', device: 'mobile', screen: '390x844', language: 'de-DE', country: 'DE', region: 'DE-BE', city: 'Berlin' };
  const firefox = { session_id: 's-3', hostname: `docs.${domain}`, browser: 'firefox', os: 'Linux', device: 'laptop', screen: '1366x768', language: 'en-US', country: 'US', region: 'CA', city: 'San Francisco' };
  const at = (time: string) => `${DAY} ${time}`;
  return [
    // Visitor 1, visit a: from a campaign link found on Google, two pages and a custom event.
    { ...chrome, visit_id: 'v-1a', url_path: '/', url_query: 'utm_source=newsletter&utm_medium=email&utm_campaign=spring&fbclid=abc', utm_source: 'newsletter', referrer_domain: 'google.com', event_type: '1', created_at: at('10:00:00') },
    { ...chrome, visit_id: 'v-1a', url_path: '/pricing', referrer_domain: domain, event_type: '1', created_at: at('10:02:00.250') },
    { ...chrome, visit_id: 'v-1a', url_path: '/pricing', event_type: '2', event_name: 'Signup', created_at: at('10:03:00') },
    // Visit b, 17 minutes later: a visit of its own, whose referrer is the site itself (none).
    { ...chrome, visit_id: 'v-1b', url_path: '/', referrer_domain: `www.${domain}`, event_type: '1', created_at: '2025-04-10T10:20:00Z' },
    // Visitor 2: a referrer written `(none)`, two pages and a custom event.
    { ...iphone, visit_id: 'v-2', url_path: '/blog', referrer_domain: '(none)', event_type: '1', created_at: at('11:00:00') },
    { ...iphone, visit_id: 'v-2', url_path: '/blog', event_type: '2', event_name: 'Newsletter_Signup', created_at: at('11:05:00') },
    { ...iphone, visit_id: 'v-2', url_path: '/blog/post', event_type: '1', created_at: '2025-04-10T13:10:00+02:00' },
    // Visitor 3, on another host of the site, from Hacker News: one page (a bounce).
    { ...firefox, visit_id: 'v-3', url_path: '/', referrer_domain: 'news.ycombinator.com', event_type: '1', created_at: at('14:00:00.123456+02') },
    // Left out: a link event and two performance events (counted by type), a robot, and bad lines.
    { ...firefox, visit_id: 'v-3', url_path: '/', event_type: '3', created_at: at('12:00:05') },
    { ...firefox, visit_id: 'v-3', url_path: '/', event_type: '5', created_at: at('12:00:06') },
    { ...iphone, visit_id: 'v-2', url_path: '/blog', event_type: '5', created_at: at('11:00:01') },
    { ...chrome, session_id: 's-9', visit_id: 'v-9', browser: 'searchbot', os: 'Search Bot', url_path: '/', event_type: '1', created_at: at('09:00:00') },
    { ...chrome, visit_id: 'v-1a', url_path: '/', event_type: '1', created_at: 'yesterday' },
    // Named as people name events: kept under the event-name rule (`download_pdf`, `sign_up_step_2`, cut to 64).
    { ...chrome, visit_id: 'v-1a', url_path: '/', event_type: '2', event_name: 'Download PDF', created_at: at('10:04:00') },
    { ...chrome, visit_id: 'v-1a', url_path: '/', event_type: '2', event_name: ` « Sign up » (step 2)! ${'x'.repeat(70)}`, created_at: at('10:04:30') },
    // Nothing left of the name, or one of svc's own events: skipped with the reason.
    { ...chrome, visit_id: 'v-1a', url_path: '/', event_type: '2', event_name: '🎉 !', created_at: at('10:04:40') },
    { ...chrome, visit_id: 'v-1a', url_path: '/', event_type: '2', event_name: 'Download', created_at: at('10:04:50') },
  ];
}

for (const engine of ['duckdb', 'clickhouse'] as const) {
  test(`Umami's export becomes events through the import path: ${engine}`, async () => {
    // The default allows a key 10 reads a minute; this test reads more at once.
    const env: Record<string, string> = { SVC_API_RATE_LIMIT: '1000/60s' };
    if (engine === 'clickhouse') env.SVC_CLICKHOUSE_URL = await freshDatabaseUrl();
    const server = await startTestServer({ clock: new ManualClock(NOW), env });
    try {
      await importsAndReads(server);
    } finally {
      await server.stop();
    }
  });
}

async function importsAndReads(server: TestServer): Promise<void> {
  const site = await createSite(server);
  const key = await createApiKey(server, site.orgId);
  const read = async (path: string) => {
    const res = await fetch(`${server.url}/v1/sites/${site.siteId}/${path}`, { headers: { authorization: `Bearer ${key}` } });
    const body = (await res.json()) as any;
    assert.equal(res.status, 200, JSON.stringify(body));
    return body;
  };
  const upload = (body: Uint8Array | string, name: string) => uploadImport(server, site.siteId, body, `source=umami&name=${name}`, { authorization: `Bearer ${server.adminToken}`, 'content-type': 'text/csv' });
  // A line with a field missing, as a hand-edited file has.
  const csv = umamiCsv(umamiRows(site.domain)) + '"w","s-1","v-1a","e"\n';
  const created = await upload(gzipSync(csv), 'umami-export.csv.gz');
  assert.equal(created.status, 202, JSON.stringify(created.body));
  const job = await finishedImport(server, site.siteId, created.body.importId);
  assert.equal(job.status, 'done', job.error);
  assert.deepEqual([job.source, job.rows, job.skippedRows, job.skippedBots, job.renamedEvents, job.from, job.to], ['umami', 10, 8, 1, 2, DAY, DAY]);
  assert.deepEqual(
    job.skippedLines.map((l: { file: string; line: number; reason: string }) => [l.file, l.line, l.reason]),
    [
      ['umami-export.csv.gz', 10, 'event_type 3 is neither a pageview (1) nor a custom event (2): 1 line of it skipped'],
      ['umami-export.csv.gz', 11, 'event_type 5 is neither a pageview (1) nor a custom event (2): 2 lines of it skipped'],
      ['umami-export.csv.gz', 14, 'created_at is not an instant ("yesterday")'],
      ['umami-export.csv.gz', 17, 'event_name "🎉 !" leaves no event name svc takes (a-z, 0-9, _ and - once lowercased; not pageview, engage, outbound or download)'],
      ['umami-export.csv.gz', 18, 'event_name "Download" leaves no event name svc takes (a-z, 0-9, _ and - once lowercased; not pageview, engage, outbound or download)'],
      ['umami-export.csv.gz', 19, '4 fields where the header has 36'],
    ],
  );

  const day = `from=${DAY}&to=${DAY}&comparison=off`;
  const stats = (await read(`stats?${day}`)).stats;
  // Visitor 1's two visits are two sessions although 17 minutes apart; visitor 1 is one visitor.
  assert.deepEqual([stats.visitors.value, stats.sessions.value, stats.pageviews.value, stats.bounceRate.value], [3, 4, 6, 0.5]);
  const keys = async (dimension: string) => (await read(`breakdown?${day}&dimension=${dimension}`)).rows.map((r: { key: string; visitors: number }) => [r.key, r.visitors]);
  const sorted = async (dimension: string) => (await keys(dimension)).sort((a: [string, number], b: [string, number]) => b[1] - a[1] || a[0].localeCompare(b[0]));
  // Visitor 1 came once from Google and once from none (the site itself): in both rows.
  assert.deepEqual(await sorted('referrer'), [['(none)', 2], ['google.com', 1], ['news.ycombinator.com', 1]]);
  assert.deepEqual(await sorted('utm_source'), [['(none)', 3], ['newsletter', 1]]);
  assert.deepEqual(await sorted('utm_campaign'), [['(none)', 3], ['spring', 1]]);
  assert.deepEqual(await sorted('country'), [['DE', 1], ['FR', 1], ['US', 1]]);
  assert.deepEqual(await sorted('region'), [['DE-BE', 1], ['FR-IDF', 1], ['US-CA', 1]]);
  assert.deepEqual(await sorted('city'), [['Berlin', 1], ['Paris', 1], ['San Francisco', 1]]);
  assert.deepEqual(await sorted('browser'), [['Chrome', 1], ['Firefox', 1], ['Safari', 1]]);
  assert.deepEqual(await sorted('os'), [['iOS', 1], ['Linux', 1], ['macOS', 1]]);
  assert.deepEqual(await sorted('device'), [['desktop', 2], ['mobile', 1]]);
  assert.deepEqual(await sorted('hostname'), [[site.domain, 2], [`docs.${site.domain}`, 1]]);
  assert.deepEqual(await sorted('event'), [['pageview', 3], ['download_pdf', 1], ['newsletter_signup', 1], [`sign_up_step_2_${'x'.repeat(49)}`, 1], ['signup', 1]]);
  assert.deepEqual(await sorted('entry'), [['/', 2], ['/blog', 1]]);
  const journeys = await read(`journeys?${day}&steps=2`);
  assert.equal(journeys.totalSessions, 4);
  assert.deepEqual(
    journeys.rows.map((r: { path: string[]; sessions: number; visitors: number }) => [r.path.join(' '), r.sessions, r.visitors]).sort((a: [string], b: [string]) => a[0].localeCompare(b[0])),
    [['/', 2, 2], ['/ /pricing', 1, 1], ['/blog /blog/post', 1, 1]],
  );
  const stored = await server.storedEvents(site.siteId);
  assert.ok(stored.every((row) => !JSON.stringify(row, (_k, v) => (typeof v === 'bigint' ? String(v) : v)).includes('user-42')), 'distinct_id is never kept');

  // Not Umami's export: refused at once, naming the file and the missing columns; nothing queued.
  const wrong = await upload(umamiCsv([], UMAMI_HEADER.filter((c) => c !== 'referrer_domain' && c !== 'event_type')), 'website-events.csv');
  assert.deepEqual([wrong.status, wrong.body.error.code], [400, 'INVALID_IMPORT']);
  assert.match(wrong.body.error.message, /website-events\.csv: the Umami export has no column referrer_domain, event_type/);
  const goatcounter = await upload('"2,Path",Title,Event\n/,Home,false\n', 'goatcounter.csv');
  assert.match(goatcounter.body.error.message, /goatcounter\.csv: the Umami export has no column session_id, hostname/);
  assert.equal((await server.admin('GET', `/sites/${site.siteId}/imports`)).body.imports.length, 1);
}

test("an Umami export not in time order is read again and sorted; what it leaves out is counted once, on the CSV's lines", async () => {
  const server = await startTestServer({ clock: new ManualClock(NOW) });
  try {
    const site = await createSite(server);
    const visitor = { session_id: 's-1', visit_id: 'v-1', hostname: site.domain, browser: 'firefox', os: 'Linux', event_type: '1' };
    // Newest first: entered on /, left from /c. A bot, a bad date and a page the import path rejects (its URL too long) on the way.
    const rows: Row[] = [
      { ...visitor, url_path: '/c', created_at: `${DAY} 10:02:00` },
      { ...visitor, browser: 'searchbot', url_path: '/', created_at: `${DAY} 10:01:30` },
      { ...visitor, url_path: '/b', created_at: `${DAY} 10:01:00` },
      { ...visitor, url_path: `/${'x'.repeat(9000)}`, created_at: `${DAY} 10:00:30` },
      { ...visitor, url_path: '/', created_at: 'soon' },
      { ...visitor, url_path: '/', created_at: `${DAY} 10:00:00` },
    ];
    const created = await uploadImport(server, site.siteId, umamiCsv(rows), 'source=umami&name=newest-first.csv', { authorization: `Bearer ${server.adminToken}`, 'content-type': 'text/csv' });
    assert.equal(created.status, 202, JSON.stringify(created.body));
    const job = await finishedImport(server, site.siteId, created.body.importId);
    assert.equal(job.status, 'done', job.error);
    assert.deepEqual([job.rows, job.skippedRows, job.skippedBots], [3, 3, 1]);
    assert.deepEqual(
      job.skippedLines.map((l: { line: number; reason: string }) => [l.line, l.reason]),
      [[5, 'bad_shape'], [6, 'created_at is not an instant ("soon")']],
    );
    const key = await createApiKey(server, site.orgId);
    const read = async (path: string) => (await (await fetch(`${server.url}/v1/sites/${site.siteId}/${path}&from=${DAY}&to=${DAY}&comparison=off`, { headers: { authorization: `Bearer ${key}` } })).json()) as any;
    const stats = (await read('stats?')).stats;
    assert.deepEqual([stats.visitors.value, stats.sessions.value, stats.pageviews.value, stats.bounceRate.value], [1, 1, 3, 0]);
    const pages = async (dimension: string) => (await read(`breakdown?dimension=${dimension}`)).rows.map((r: { key: string }) => r.key);
    assert.deepEqual([await pages('entry'), await pages('exit')], [['/'], ['/c']]);
  } finally {
    await server.stop();
  }
});
