// GoatCounter's export through the NDJSON import path, end to end: its rows become events (a
// session per Session value, custom events from Event rows, places from Location), bots and bad
// rows are skipped and counted, and every endpoint reads them like collected events, funnels too.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import { createApiKey, createSite, startTestServer, type TestServer, BROWSER_UA } from '../helpers/server.js';
import { finishedImport, uploadImport } from '../helpers/import-jobs.js';

const HEADER = '"2,Path",Title,Event,UserAgent,Browser,System,Session,Bot,Referrer,Referrer scheme,Screen size,Location,FirstVisit,Date';
const FIREFOX_LINUX = 'Mozilla/5.0 (X11; Linux x86_64; rv:121.0) Gecko/20100101 Firefox/121.0';
const ROWS = [
  `/,Home,false,${JSON.stringify(BROWSER_UA)},Chrome 124,Windows 10,sess-a,0,www.google.com/search,h,"1920,1080,1",FR-IDF,true,2025-04-10T10:00:00Z`,
  `/pricing,Pricing,false,${JSON.stringify(BROWSER_UA)},Chrome 124,Windows 10,sess-a,0,,,"1920,1080,1",FR-IDF,false,2025-04-10T10:02:00Z`,
  `signup,,true,${JSON.stringify(BROWSER_UA)},Chrome 124,Windows 10,sess-a,0,,,"1920,1080,1",FR-IDF,false,2025-04-10T10:03:00Z`,
  `/,Home,false,,Firefox 121,Linux,sess-b,0,,,"390,844,3",DE,true,2025-04-10T11:00:00Z`,
  `/blog,Blog,false,${JSON.stringify(FIREFOX_LINUX)},Firefox 121,Linux,sess-c,1,,,,US,true,2025-04-10T12:00:00Z`,
  `/,Home,false,${JSON.stringify(BROWSER_UA)},Chrome 124,Windows 10,sess-d,0,,,,US,true,yesterday`,
];

/** POST GoatCounter's CSV (or gzipped CSV) as an upload named `name`. */
const upload = (server: TestServer, siteId: string, body: Uint8Array | string, name: string) =>
  uploadImport(server, siteId, body, `source=goatcounter&name=${name}`, { authorization: `Bearer ${server.adminToken}`, 'content-type': 'text/csv' });

test("GoatCounter's export becomes events through the import path", async () => {
  const server = await startTestServer();
  try {
    const site = await createSite(server);
    const key = await createApiKey(server, site.orgId);
    const read = async (path: string) => {
      const res = await fetch(`${server.url}/v1/sites/${site.siteId}/${path}`, { headers: { authorization: `Bearer ${key}` } });
      return (await res.json()) as any;
    };
    const funnel = await server.admin('POST', `/sites/${site.siteId}/funnels`, { name: 'signup', windowMinutes: 60, steps: [{ kind: 'page', pattern: '/' }, { kind: 'event', pattern: 'signup' }] });
    assert.equal(funnel.status, 201);
    // Gzipped, as GoatCounter sends it.
    const created = await upload(server, site.siteId, gzipSync([HEADER, ...ROWS].join('\n') + '\n'), 'goatcounter-export.csv.gz');
    assert.equal(created.status, 202, JSON.stringify(created.body));
    const job = await finishedImport(server, site.siteId, created.body.importId);
    assert.equal(job.status, 'done', job.error);
    assert.deepEqual([job.rows, job.skippedRows, job.skippedBots, job.from, job.to], [4, 2, 1, '2025-04-10', '2025-04-10']);
    assert.deepEqual(job.skippedLines.map((l: { line: number; reason: string }) => [l.line, l.reason]), [[7, 'Date is not an RFC 3339 instant ("yesterday")']]);

    const day = 'from=2025-04-10&to=2025-04-10&comparison=off';
    const stats = (await read(`stats?${day}`)).stats;
    assert.deepEqual([stats.visitors.value, stats.pageviews.value, stats.sessions.value, stats.bounceRate.value], [2, 3, 2, 0.5]);
    // Rows ordered by visitors, then views (the Windows session has more pageviews).
    const keys = async (dimension: string) => (await read(`breakdown?${day}&dimension=${dimension}`)).rows.map((r: { key: string; visitors: number }) => [r.key, r.visitors]);
    assert.deepEqual(await keys('browser'), [['Chrome', 1], ['Firefox', 1]]);
    assert.deepEqual(await keys('os'), [['Windows', 1], ['Linux', 1]]);
    assert.deepEqual(await keys('country'), [['FR', 1], ['DE', 1]]);
    assert.deepEqual(await keys('referrer'), [['google.com', 1], ['(none)', 1]]);
    assert.deepEqual(await keys('device'), [['desktop', 1], ['mobile', 1]]);
    assert.deepEqual(await keys('event'), [['pageview', 2], ['signup', 1]]);
    const walked = await read(`funnels/${funnel.body.id}?${day}`);
    assert.deepEqual(walked.steps.map((s: { visitors: number }) => s.visitors), [2, 1]);

    // Not GoatCounter's export: refused at once, with the reason.
    const refused = await upload(server, site.siteId, 'Path,Title\n/,x\n', 'other.csv');
    assert.equal(refused.status, 400);
    assert.match(refused.body.error.message, /not GoatCounter's export in format version 2/);
    const missing = await upload(server, site.siteId, '2,Path,Title,Event\n', 'old.csv');
    assert.match(missing.body.error.message, /has no column UserAgent, Browser, System, Session, Bot/);

    // An event row names its event, not its page: it is filed under its session's last pageview, as the tracker files it.
    const other = await createSite(server, { domain: 'events.example' });
    const rows = [
      `/pricing,Pricing,false,${JSON.stringify(FIREFOX_LINUX)},Firefox 121,Linux,sess-e,0,,,,FR,true,2025-04-11T10:00:00Z`,
      `signup,,true,${JSON.stringify(FIREFOX_LINUX)},Firefox 121,Linux,sess-e,0,,,,FR,false,2025-04-11T10:00:30Z`,
      `download,,true,${JSON.stringify(FIREFOX_LINUX)},Firefox 121,Linux,sess-f,0,,,,FR,false,2025-04-11T11:00:00Z`,
    ];
    const events = await upload(server, other.siteId, [HEADER, ...rows].join('\n') + '\n', 'events.csv');
    assert.equal((await finishedImport(server, other.siteId, events.body.importId)).status, 'done');
    const pages = await fetch(`${server.url}/v1/sites/${other.siteId}/breakdown?from=2025-04-11&to=2025-04-11&comparison=off&dimension=page`, { headers: { authorization: `Bearer ${await createApiKey(server, other.orgId)}` } });
    const pageRows = ((await pages.json()) as any).rows.map((r: { key: string; visitors: number; views: number }) => [r.key, r.visitors, r.views]);
    assert.deepEqual(pageRows, [['/pricing', 1, 1]]);
  } finally {
    await server.stop();
  }
});
