// A GA4 property imported through Google's Data API (the local stand-in of Google's token endpoint
// and runReport, over HTTPS) by a real server, on DuckDB and on ClickHouse: the assertion Google
// checks, paged reports, a quota refusal waited out, the figures on every read endpoint (stats,
// daily timeseries, each dimension's breakdown, goals), days holding collected events skipped, a
// later import replacing its days, deletion, and the key in no stored row, file or log line.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { processLogger } from '../../src/http/request-log.js';
import { freshDatabaseUrl } from '../../support/clickhouse.js';
import { ANALYTICS_READONLY } from '../../support/google-stand-in.js';
import { ga4Property, startGa4Fixture } from '../helpers/ga4-property.js';
import { finishedImport } from '../helpers/import-jobs.js';
import { BROWSER_UA, createApiKey, createSite, importEvents, startTestServer } from '../helpers/server.js';

const DAYS = ['2025-03-01', '2025-03-02', '2025-03-03', '2025-03-04', '2025-03-05'];
const COLLECTED_DAY = '2025-03-03';
const PROPERTY = '312345678';
/** The same property's days again, every count doubled (a later import of the same source). */
const DOUBLED = '412345678';

const ENGINES = [
  { name: 'duckdb', env: async () => ({}) },
  { name: 'clickhouse', env: async () => ({ SVC_CLICKHOUSE_URL: await freshDatabaseUrl() }) },
];

/** Every file under `dir`, recursively. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

for (const engine of ENGINES) test(`a GA4 property imported through the Data API: ${engine.name}`, async () => {
  const fixture = await startGa4Fixture({ [PROPERTY]: ga4Property(DAYS), [DOUBLED]: ga4Property(DAYS, () => 2) });
  const logLines: string[] = [];
  const logger = processLogger('trace', 'json', new Writable({
    write(chunk, _encoding, done) {
      logLines.push(String(chunk));
      done();
    },
  }));
  const server = await startTestServer({ env: { ...fixture.server.env, SVC_API_RATE_LIMIT: '1000/60s', ...(await engine.env()) }, ga4: fixture.server.ga4, logger, log: logger });
  try {
    const site = await createSite(server, { timezone: 'UTC' });
    await server.admin('POST', `/sites/${site.siteId}/goals`, { name: 'signup', kind: 'event', pattern: 'sign_up' });
    await server.admin('POST', `/sites/${site.siteId}/goals`, { name: 'pricing', kind: 'page', pattern: '/pricing' });
    const key = await createApiKey(server, site.orgId);
    const collected = await importEvents(server, site.siteId, [0, 1, 2].map((i) => ({ ts: `${COLLECTED_DAY}T1${i}:00:00Z`, ua: BROWSER_UA, ip: `198.51.100.${i + 1}`, u: `https://${site.domain}/` })));
    assert.equal(collected.body.accepted, 3);
    const read = async (endpoint: string, params: string) => {
      const res = await fetch(`${server.url}/v1/sites/${site.siteId}/${endpoint}?${params}`, { headers: { authorization: `Bearer ${key}` } });
      return { imported: res.headers.get('svc-imported'), body: (await res.json()) as any };
    };
    const breakdown = async (dimension: string, params = 'from=2025-03-01&to=2025-03-02') =>
      (await read('breakdown', `${params}&dimension=${dimension}`)).body.rows.map((r: { key: string; visitors: number; views: number }) => [r.key, r.visitors, r.views]);
    const start = async (body: Record<string, unknown>) => server.admin('POST', `/sites/${site.siteId}/imports/ga4`, { key: fixture.keyFile, ...body });

    // Google's quota refuses the first two reports: the job waits and asks again.
    fixture.google.refuse({ status: 429, word: 'RESOURCE_EXHAUSTED', message: 'Exhausted property tokens per hour.', times: 2 });
    const created = await start({ property: PROPERTY, from: '2025-03-01', to: '2025-03-05' });
    assert.equal(created.status, 202, JSON.stringify(created.body));
    const job = await finishedImport(server, site.siteId, created.body.importId);
    assert.equal(job.status, 'done', job.error);
    assert.equal(fixture.google.refused, 2);
    assert.deepEqual([job.source, job.from, job.to, job.progress, job.skippedDays, job.skippedRows], ['ga4', '2025-03-01', '2025-03-05', 1, [COLLECTED_DAY], 5]);
    assert.deepEqual(job.skippedLines[0], { file: 'custom events, 2025-03-01 to 2025-03-02', line: 7, reason: 'event name "Ünïcode" is not one svc takes (a-z, 0-9, _ and -, 1 to 64)' });
    assert.deepEqual(job.files.map((f: { name: string; table: string; rows: number }) => [f.name, f.table, f.rows]), [
      ['totals', 'visitors', 5],
      ['pages', 'pages', 15],
      ['hostnames', 'pages', 10],
      ['entry pages', 'entry_pages', 15],
      ['sources', 'sources', 20],
      ['locations', 'locations', 20],
      ['devices', 'devices', 15],
      ['browsers', 'browsers', 20],
      ['operating systems', 'operating_systems', 20],
      ['custom events', 'custom_events', 35],
    ]);
    // The assertion as Google checks it; the reports by day, paged, in windows of days.
    assert.deepEqual(fixture.google.refusedAssertions, []);
    const [claims] = fixture.google.assertions;
    assert.deepEqual([claims?.iss, claims?.scope, claims?.aud, Number(claims?.exp) - Number(claims?.iat)], [fixture.keyFile.client_email, ANALYTICS_READONLY, fixture.google.tokenUrl, 3600]);
    const sourcesPages = fixture.google.reports.filter((r) => r.body.dimensions.some((d: { name: string }) => d.name === 'sessionSource'));
    assert.deepEqual(sourcesPages.map((r) => [r.body.dateRanges[0].startDate, r.body.offset]), [['2025-03-01', '0'], ['2025-03-01', '3'], ['2025-03-01', '6'], ['2025-03-03', '0'], ['2025-03-03', '3'], ['2025-03-03', '6'], ['2025-03-05', '0'], ['2025-03-05', '3']]);
    assert.ok(fixture.google.reports.every((r) => r.body.dimensions[0].name === 'date' && r.body.limit === '3'));

    // Every read endpoint gives the property's figures.
    const stats = await read('stats', 'from=2025-03-01&to=2025-03-02');
    assert.equal(stats.imported, 'included');
    const s = stats.body.stats;
    assert.deepEqual([s.visitors.value, s.pageviews.value, s.sessions.value, s.bounceRate.value, s.avgDuration.value], [20, 60, 24, 0.5, 50]);
    const collectedAlone = (await read('stats', `from=${COLLECTED_DAY}&to=${COLLECTED_DAY}`)).body.stats.visitors.value;
    assert.equal(collectedAlone, 3, 'the collected day keeps its own figures');
    const series = await read('timeseries', 'from=2025-03-01&to=2025-03-05&metric=visitors');
    assert.deepEqual(series.body.points.map((p: { value: number }) => p.value), [10, 10, 3, 10, 10]);
    assert.deepEqual(await breakdown('referrer'), [['(none)', 8, 20], ['newsletter', 6, 24], ['google', 4, 12], ['news.example', 2, 4]]);
    assert.deepEqual(await breakdown('utm_source'), [['(none)', 14, 36], ['newsletter', 6, 24]]);
    assert.deepEqual(await breakdown('utm_medium'), [['(none)', 14, 36], ['email', 6, 24]]);
    assert.deepEqual(await breakdown('utm_campaign'), [['(none)', 14, 36], ['spring, sale', 6, 24]]);
    assert.deepEqual(await breakdown('page'), [['/', 14, 28], ['/pricing', 8, 20], ['/blog/a', 6, 12]]);
    assert.deepEqual(await breakdown('hostname'), [['example.com', 16, 48], ['blog.example.com', 6, 12]]);
    assert.deepEqual(await breakdown('entry'), [['/', 14, 40], ['/blog/a', 4, 16], ['(none)', 2, 4]]);
    assert.deepEqual(await breakdown('country'), [['FR', 10, 30], ['BR', 4, 12], ['DE', 4, 12], ['(none)', 2, 6]]);
    assert.deepEqual(await breakdown('region'), [['Ile-de-France', 10, 30], ['Bavaria', 4, 12], ['State of Sao Paulo', 4, 12], ['(none)', 2, 6]]);
    assert.deepEqual(await breakdown('city'), [['Paris', 10, 30], ['Munich', 4, 12], ['Sao Paulo', 4, 12], ['(none)', 2, 6]]);
    assert.deepEqual(await breakdown('device'), [['desktop', 14, 44], ['mobile', 6, 16]]);
    assert.deepEqual(await breakdown('browser'), [['Chrome', 12, 36], ['Safari', 8, 24]]);
    assert.deepEqual(await breakdown('os'), [['macOS', 12, 36], ['Linux', 4, 12], ['(none)', 2, 6], ['ChromeOS', 2, 6]]);
    assert.deepEqual(await breakdown('event'), [['pageview', 20, 60], ['sign_up', 4, 6], ['download_pdf', 2, 2]]);
    const goals = await read('goals', 'from=2025-03-01&to=2025-03-02');
    assert.deepEqual(goals.body.goals.map((g: { name: string; conversions: number; uniqueConversions: number }) => [g.name, g.conversions, g.uniqueConversions]).sort(), [['pricing', 20, 8], ['signup', 6, 4]]);
    const filtered = await read('stats', 'from=2025-03-01&to=2025-03-02&filter=country:FR');
    assert.deepEqual([filtered.imported, filtered.body.stats.visitors.value], ['included', 10]);

    // A later import of the same source replaces the days it covers, and only those.
    const again = await start({ property: DOUBLED, from: '2025-03-01', to: '2025-03-02' });
    assert.equal((await finishedImport(server, site.siteId, again.body.importId)).status, 'done');
    assert.equal((await read('stats', 'from=2025-03-01&to=2025-03-02')).body.stats.visitors.value, 40);
    assert.equal((await read('stats', 'from=2025-03-04&to=2025-03-05')).body.stats.visitors.value, 20);
    assert.deepEqual(await breakdown('browser'), [['Chrome', 24, 72], ['Safari', 16, 48]]);

    // The key is in no stored job, no file of the data folder and no log line.
    // A line of the PEM's base64 and the key's id; the metadata database is a file of the data folder.
    const secrets = [fixture.keyFile.private_key!.split('\n')[5]!, fixture.keyFile.private_key_id!];
    const listed = JSON.stringify((await server.admin('GET', `/sites/${site.siteId}/imports`)).body);
    for (const secret of secrets) {
      assert.ok(secret.length >= 40);
      assert.ok(!listed.includes(secret), 'not in the jobs');
      assert.ok(!logLines.some((line) => line.includes(secret)), 'not in the log');
      for (const file of filesUnder(server.dataDir)) assert.ok(!readFileSync(file).includes(secret), `not in ${file}`);
    }
    assert.ok(logLines.some((line) => line.includes('/imports/ga4')), 'the log holds the requests');

    // Deleted: its days read as before it (the earlier import still holds the days it alone covers).
    assert.equal((await server.admin('DELETE', `/sites/${site.siteId}/imports/${again.body.importId}`)).status, 204);
    assert.deepEqual([(await read('stats', 'from=2025-03-01&to=2025-03-02')).body.stats.visitors.value, (await read('stats', 'from=2025-03-04&to=2025-03-05')).body.stats.visitors.value], [0, 20]);
  } finally {
    await server.stop();
    await fixture.google.stop();
  }
});
