// Black-box checks of the published behaviour of filters with several values and operators, of
// visits, bounce rate, duration and views per visit under any filter, of goal filters, of journeys,
// of the export's names and of re-imported and deleted imports. The expected figures are worked out
// by hand from the small data set below, from the documented definitions alone; the service is run
// from outside (HTTP only) on both profiles, one start per profile shared by every check.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { until } from '../alerts/helpers/process.js';
import { BROWSER_UA as CHROME_WINDOWS } from '../helpers/server.js';
import { OutsideClient, startEmbedded, startScaleOut, type Params, type Profile } from './outside-client.js';

const FIREFOX_MAC = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10.15; rv:125.0) Gecko/20100101 Firefox/125.0';
const SAFARI_IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';
const FIREFOX_LINUX = 'Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0';

const dayBefore = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);
/** The data set's day (sites keep UTC), inside the 30 days of raw events; reads cover it and the two days before. */
const DAY = dayBefore(3);
const PERIOD = { from: dayBefore(5), to: DAY };
/** The imported exports' day. */
const IMPORT_DAY = dayBefore(6);
const IMPORT_PERIOD = { from: IMPORT_DAY, to: IMPORT_DAY };

const visitor = (ua: string, ip: string, country: string) => ({ ua, ip, country });
const A = visitor(CHROME_WINDOWS, '203.0.113.1', 'DE');
const B = visitor(FIREFOX_MAC, '203.0.113.2', 'AT');
const C = visitor(SAFARI_IPHONE, '203.0.113.3', 'DE');
const D = visitor(CHROME_WINDOWS, '203.0.113.4', 'DE');
const E = visitor(FIREFOX_MAC, '203.0.113.5', 'US');
const hit = (who: typeof A, time: string, u: string, more: Record<string, unknown> = {}) => ({ ts: `${DAY}T${time}Z`, ...who, u, ...more });
const engaged = (seconds: number) => ({ e: 'engage', p: { t: seconds * 1000, d: 50 } });

/**
 * Six visits of five visitors (A comes twice, six hours apart):
 * | visit | who | country | entry    | pageviews | duration | bounce | journey              |
 * | S1    | A   | DE      | /        | 3         | 30 s     | no     | / /pricing /signup   |
 * | S2    | B   | AT      | /pricing | 1         | 5 s      | yes    | /pricing             |
 * | S3    | C   | DE      | /        | 3         | 60 s     | no     | / /blog/a /          |
 * | S4    | D   | DE      | /pricing | 2         | 20 s     | no     | /pricing /signup     |
 * | S5    | A   | DE      | /        | 1         | 4 s      | yes    | /                    |
 * | S6    | E   | US      | /blog/a  | 2         | 14 s     | no     | /blog/a /            |
 * A duration is the sum of the visit's engaged time, or last event − first without engage events.
 * A and D sign up (event `signup`, property `plan` `pro|team` and `team`); A, B and D view /pricing.
 */
const EVENTS = [
  hit(A, '10:00:00', '/', { r: 'https://www.google.com/' }),
  hit(A, '10:02:00', '/pricing'),
  hit(A, '10:03:00', '/pricing', engaged(30)),
  hit(A, '10:04:00', '/signup'),
  hit(A, '10:05:00', '/signup', { e: 'signup', p: { plan: 'pro|team' } }),
  hit(B, '11:00:00', '/pricing', { r: 'https://bing.com/' }),
  hit(B, '11:01:00', '/pricing', engaged(5)),
  hit(C, '12:00:00', '/'),
  hit(C, '12:00:40', '/blog/a'),
  hit(C, '12:01:00', '/'),
  hit(D, '13:00:00', '/pricing', { r: 'https://www.google.com/' }),
  hit(D, '13:01:00', '/pricing', engaged(20)),
  hit(D, '13:02:00', '/signup'),
  hit(D, '13:02:30', '/signup', { e: 'signup', p: { plan: 'team' } }),
  hit(E, '14:00:00', '/blog/a', { r: 'https://news.ycombinator.com/' }),
  hit(E, '14:00:14', '/'),
  hit(A, '16:00:00', '/'),
  hit(A, '16:00:30', '/', engaged(4)),
];

interface Figures {
  visitors: number;
  pageviews: number;
  sessions: number;
  bounceRate?: number;
  avgDuration?: number;
}

/**
 * `stats` with `raw=clip` under each filter, from the table above. Session-scoped filters keep whole
 * visits; a page filter keeps the visits holding a matching pageview, counts the matching pageviews,
 * and takes its bounce rate over the visits that entered on a matching page. `~:` matches its text
 * literally (`_` is no wildcard); `\|` is a literal `|` in a list of values.
 */
const FIGURES: Array<[string[], Figures]> = [
  [[], { visitors: 5, pageviews: 12, sessions: 6, bounceRate: 0.3333, avgDuration: 22.2 }],
  [['country:DE|AT'], { visitors: 4, pageviews: 10, sessions: 5, bounceRate: 0.4, avgDuration: 23.8 }],
  [['country:DE'], { visitors: 3, pageviews: 9, sessions: 4, bounceRate: 0.25, avgDuration: 28.5 }],
  [['country:AT'], { visitors: 1, pageviews: 1, sessions: 1, bounceRate: 1, avgDuration: 5 }],
  [['country!:DE'], { visitors: 2, pageviews: 3, sessions: 2, bounceRate: 0.5, avgDuration: 9.5 }],
  [['country!:DE|AT'], { visitors: 1, pageviews: 2, sessions: 1, bounceRate: 0, avgDuration: 14 }],
  [['page:/pricing'], { visitors: 3, pageviews: 3, sessions: 3, bounceRate: 0.5, avgDuration: 18.3 }],
  [['page~:PRIC'], { visitors: 3, pageviews: 3, sessions: 3, bounceRate: 0.5, avgDuration: 18.3 }],
  [['page:/'], { visitors: 3, pageviews: 5, sessions: 4, bounceRate: 0.3333, avgDuration: 27 }],
  [['page~:_'], { visitors: 0, pageviews: 0, sessions: 0 }],
  [['page!:/|/pricing'], { visitors: 4, pageviews: 4, sessions: 4, bounceRate: 0, avgDuration: 31 }],
  [['referrer~:google|bing'], { visitors: 3, pageviews: 6, sessions: 3, bounceRate: 0.3333, avgDuration: 18.3 }],
  [['referrer!:(none)'], { visitors: 4, pageviews: 8, sessions: 4, bounceRate: 0.25 }],
  [['prop.plan:pro\\|team'], { visitors: 1, pageviews: 0, sessions: 1 }],
  [['prop.plan:pro|team'], { visitors: 1, pageviews: 0, sessions: 1 }],
  [['prop.plan:team|pro\\|team'], { visitors: 2, pageviews: 0, sessions: 2 }],
  [['country:DE', 'page:/pricing'], { visitors: 2, pageviews: 2, sessions: 2, bounceRate: 0, avgDuration: 25 }],
];

/** Umami's export (the columns its documented export holds), two visits on IMPORT_DAY, custom events named freely. */
const UMAMI_CSV = [
  'session_id,visit_id,hostname,browser,os,device,screen,language,country,region,city,url_path,url_query,referrer_domain,event_type,event_name,created_at',
  ...[
    ['s-1', 'v-1', 'chrome', 'Windows 10', 'DE', '/docs', 'google.com', '1', '', '09:00:00'],
    ['s-1', 'v-1', 'chrome', 'Windows 10', 'DE', '/docs', '', '2', 'Download PDF', '09:01:00'],
    ['s-1', 'v-1', 'chrome', 'Windows 10', 'DE', '/pricing', '', '1', '', '09:02:00'],
    ['s-2', 'v-2', 'firefox', 'Mac OS', 'AT', '/docs', '', '1', '', '10:00:00'],
    ['s-3', 'v-3', 'chrome', 'Windows 10', 'FR', '/', '', '1', '', '11:00:00'],
    ['s-3', 'v-3', 'chrome', 'Windows 10', 'FR', '/', '', '2', 'Sign up (step 2)', '11:00:30'],
  ].map(([session, visit, browser, os, country, path, referrer, type, name, time]) =>
    [session, visit, 'umami.example', browser, os, 'desktop', '1920x1080', 'en-US', country, '', '', path, '', referrer, type, name, `${IMPORT_DAY} ${time}`].join(','),
  ),
].join('\n') + '\n';

/** GoatCounter's export (format version 2): three pageviews of two visitors, a custom event, a bot's row. */
const GOATCOUNTER_CSV = [
  '2,Path,Title,Event,UserAgent,Browser,System,Session,Bot,Referrer,Referrer scheme,Screen size,Location,FirstVisit,Date',
  ...[
    ['/home', 'false', CHROME_WINDOWS, 'Chrome 124', 'Windows 10', 'a1', '0', 'DE', 'true', '09:00:00'],
    ['/about', 'false', CHROME_WINDOWS, 'Chrome 124', 'Windows 10', 'a1', '0', 'DE', 'false', '09:01:00'],
    ['/home', 'false', FIREFOX_MAC, 'Firefox 125', 'macOS 10.15', 'b2', '0', 'FR-IDF', 'true', '10:00:00'],
    ['signup-click', 'true', FIREFOX_MAC, 'Firefox 125', 'macOS 10.15', 'b2', '0', 'FR-IDF', 'false', '10:01:00'],
    ['/home', 'false', 'Googlebot/2.1 (+http://www.google.com/bot.html)', '', '', 'c3', '1', 'US', 'true', '10:30:00'],
  ].map(([path, event, ua, browser, system, session, bot, location, first, time]) =>
    [path, 'Title', event, `"${ua}"`, browser, system, session, bot, '', '', '', location, first, `${IMPORT_DAY}T${time}Z`].join(','),
  ),
].join('\n') + '\n';

const PROFILES: Array<[string, () => Promise<Profile>]> = [
  ['embedded', startEmbedded],
  ['scale-out', startScaleOut],
];

for (const [profileName, startProfile] of PROFILES) {
  // The import checks wait for jobs: the reads run meanwhile.
  describe(`the ${profileName} profile, from outside`, { concurrency: true }, () => {
    let client: OutsideClient;
    let orgId: number;
    let site: { id: string; domain: string };
    const goals: Record<'signup' | 'pricing', number> = { signup: 0, pricing: 0 };

    const newSite = async (name: string) => {
      const domain = `${name}-${process.pid}.example`;
      const created = await client.adminOk(201, 'POST', `/orgs/${orgId}/sites`, { domain, name, timezone: 'UTC' });
      return { id: created.id as string, domain };
    };
    const stats = (filter: string[], siteId = site.id, period: Params = PERIOD) => client.readOk(siteId, 'stats', { ...period, filter, raw: 'clip' });
    const breakdown = (dimension: string, filter: string[], more: Params = {}, siteId = site.id, period: Params = PERIOD) =>
      client.readOk(siteId, 'breakdown', { ...period, dimension, filter, raw: 'clip', ...more });
    const journeys = (params: Params) => client.readOk(site.id, 'journeys', { ...PERIOD, ...params });
    const values = (answer: any, names: string[]) => Object.fromEntries(names.map((name) => [name, answer.stats[name]?.value]));

    before(async () => {
      client = new OutsideClient(await startProfile());
      orgId = (await client.adminOk(201, 'POST', '/orgs', { name: `Contract checks ${profileName}` })).id;
      client.apiKey = (await client.adminOk(201, 'POST', `/orgs/${orgId}/keys`, { name: 'contract checks' })).key;
      site = await newSite('main');
      goals.signup = (await client.adminOk(201, 'POST', `/sites/${site.id}/goals`, { name: 'Signup', kind: 'event', pattern: 'signup' })).goalId;
      goals.pricing = (await client.adminOk(201, 'POST', `/sites/${site.id}/goals`, { name: 'Pricing', kind: 'page', pattern: '/pricing' })).goalId;
      await client.importEvents(site.id, EVENTS);
    });
    after(async () => {
      await client?.profile.stop();
    });

    it('answers visits, bounce rate, duration and views per visit, exactly, under every filter and operator', async () => {
      for (const [filter, expected] of FIGURES) {
        const answer = await stats(filter);
        assert.deepEqual(values(answer, Object.keys(expected)), expected, `filter=${filter.join('&filter=')}`);
      }
      // Views per visit: matching pageviews over visits (a page filter: 5 views of / in 4 visits).
      const home = await stats(['page:/']);
      assert.equal(home.stats.pageviews.value / home.stats.sessions.value, 1.25);
    });

    it('counts the union of several values (country:DE|AT)', async () => {
      const [both, de, at] = await Promise.all([stats(['country:DE|AT']), stats(['country:DE']), stats(['country:AT'])]);
      assert.equal(both.stats.visitors.value, de.stats.visitors.value + at.stats.visitors.value);
      const rows = (await breakdown('country', ['country:DE|AT'])).rows;
      assert.deepEqual(rows.map((r: any) => [r.key, r.visitors]), [['DE', 3], ['AT', 1]]);
      const series = await client.readOk(site.id, 'timeseries', { ...PERIOD, metric: 'sessions', filter: 'country:DE|AT', raw: 'clip' });
      assert.deepEqual(series.points.map((p: any) => p.value), [0, 0, 5]);
    });

    it('refuses an empty value in a list of values', async () => {
      const refused = await client.read(site.id, 'stats', { ...PERIOD, filter: 'country:DE|', raw: 'clip' });
      assert.deepEqual([refused.status, refused.body.error?.code], [400, 'INVALID_PARAMS']);
    });

    it("gives each breakdown row the bounce rate and duration that stats gives under the row's filter", async () => {
      for (const dimension of ['country', 'page']) {
        const rows = (await breakdown(dimension, [], { include: 'bounceRate,avgDuration' })).rows;
        assert.ok(rows.length >= 3, dimension);
        for (const row of rows) {
          const alone = await stats([`${dimension}:${row.key}`]);
          assert.deepEqual([row.bounceRate, row.avgDuration], [alone.stats.bounceRate.value, alone.stats.avgDuration.value], `${dimension} ${row.key}`);
        }
      }
      const de = (await breakdown('country', [], { include: 'bounceRate,avgDuration' })).rows.find((r: any) => r.key === 'DE');
      assert.deepEqual([de.bounceRate, de.avgDuration], [0.25, 28.5]);
    });

    it('answers a goal filter with converters, completions and conversion rate', async () => {
      const rate = (filter: string[]) => stats(filter).then((a) => values(a, ['visitors', 'conversions', 'conversionRate']));
      assert.deepEqual(await rate([`goal:${goals.signup}`]), { visitors: 2, conversions: 2, conversionRate: 0.4 });
      assert.deepEqual(await rate([`goal:${goals.pricing}`]), { visitors: 3, conversions: 3, conversionRate: 0.6 });
      assert.deepEqual(await rate([`goal:${goals.signup}|${goals.pricing}`]), { visitors: 3, conversions: 5, conversionRate: 0.6 });
      assert.deepEqual(await rate([`goal:${goals.signup}`, 'country:DE']), { visitors: 2, conversions: 2, conversionRate: 0.6667 });
      for (const operator of ['!:', '~:']) {
        const refused = await client.read(site.id, 'stats', { ...PERIOD, filter: `goal${operator}${goals.signup}`, raw: 'clip' });
        assert.deepEqual([refused.status, refused.body.error?.code], [400, 'INVALID_PARAMS'], operator);
      }
      const series = (metric: string) => client.readOk(site.id, 'timeseries', { ...PERIOD, metric, filter: `goal:${goals.signup}`, raw: 'clip' });
      assert.deepEqual((await series('conversions')).points.map((p: any) => p.value), [0, 0, 2]);
      assert.equal((await series('conversionRate')).points.at(-1).value, 0.4);
    });

    it('gives every breakdown row its conversions and conversion rate under a goal filter', async () => {
      const converting = async (goalId: number) =>
        (await breakdown('country', [`goal:${goalId}`])).rows.filter((r: any) => r.visitors > 0).map((r: any) => [r.key, r.visitors, r.conversions, r.conversionRate]);
      // DE has three visitors (A, C, D): A and D sign up and view /pricing; AT's one visitor (B) views /pricing.
      assert.deepEqual(await converting(goals.signup), [['DE', 2, 2, 0.6667]]);
      assert.deepEqual(await converting(goals.pricing), [['DE', 2, 2, 0.6667], ['AT', 1, 1, 1]]);
    });

    it('gives journeys one row per visit, their visits adding up to at most the total', async () => {
      const rowsOf = (answer: any) => {
        const sessions = answer.rows.map((r: any) => r.sessions);
        assert.deepEqual(sessions, [...sessions].sort((a: number, b: number) => b - a), 'rows by visits, descending');
        assert.ok(sessions.reduce((a: number, b: number) => a + b, 0) <= answer.totalSessions);
        return new Set(answer.rows.map((r: any) => JSON.stringify([r.path, r.sessions, r.visitors])));
      };
      const row = (path: string[], sessions = 1, visitors = 1) => JSON.stringify([path, sessions, visitors]);
      const first = await journeys({ steps: 3 });
      assert.equal(first.totalSessions, 6);
      assert.deepEqual(
        rowsOf(first),
        new Set([row(['/', '/pricing', '/signup']), row(['/pricing']), row(['/', '/blog/a', '/']), row(['/pricing', '/signup']), row(['/']), row(['/blog/a', '/'])]),
      );
      // S3 holds / twice: it contributes once, from its first / going forward and its last going back.
      const next = await journeys({ steps: 2, page: '/', direction: 'next' });
      assert.equal(next.totalSessions, 4);
      assert.deepEqual(rowsOf(next), new Set([row(['/'], 2, 2), row(['/', '/pricing']), row(['/', '/blog/a'])]));
      const previous = await journeys({ steps: 2, page: '/', direction: 'previous' });
      assert.equal(previous.totalSessions, 4);
      assert.deepEqual(rowsOf(previous), new Set([row(['/'], 2, 1), row(['/blog/a', '/'], 2, 2)]));
      assert.equal((await journeys({ steps: 3, filter: 'country:DE' })).totalSessions, 4);
    });

    it('builds a journey of collected pageviews, a repeated page counted once', async () => {
      for (const u of ['/', '/pricing', '/pricing', '/signup']) await client.collect(site.domain, FIREFOX_LINUX, { s: site.id, u });
      const today = { from: dayBefore(0), to: dayBefore(0), steps: 3 };
      const answer = await until('the collected visit in journeys', async () => {
        const found = await journeys(today);
        return found.totalSessions > 0 && found.rows[0]?.path.length === 3 ? found : undefined;
      });
      assert.deepEqual([answer.totalSessions, answer.rows], [1, [{ path: ['/', '/pricing', '/signup'], sessions: 1, visitors: 1 }]]);
    });

    it("exports browsers and systems under Plausible's own names", async () => {
      const tables = await client.exportTables(site.id, DAY, DAY);
      const table = (name: string) => {
        const file = [...tables.keys()].find((f) => new RegExp(`^(imported_)?${name}_\\d{8}_\\d{8}\\.csv$`).test(f));
        assert.ok(file, `${name} in ${[...tables.keys()].join(', ')}`);
        const [header, ...records] = tables.get(file)!;
        return records.map((record) => Object.fromEntries(header!.map((column, i) => [column, record[i]])));
      };
      const figures = (rows: Array<Record<string, string | undefined>>, column: string) =>
        Object.fromEntries(rows.map((r) => [r[column], [Number(r.visitors), Number(r.visits)]]));
      const browsers = figures(table('browsers'), 'browser');
      assert.deepEqual([browsers.Chrome, browsers.Firefox], [[2, 3], [2, 2]]);
      assert.deepEqual(figures(table('operating_systems'), 'operating_system'), { Windows: [2, 3], Mac: [2, 2], iOS: [1, 1] });
    });

    it('replaces a first Umami import with a second of the same file, keeps custom events under legal names, and deletes', async () => {
      const umami = await newSite('umami');
      const figures = async () => ({
        ...values(await stats([], umami.id, IMPORT_PERIOD), ['visitors', 'pageviews', 'sessions']),
        events: (await breakdown('event', [], {}, umami.id, IMPORT_PERIOD)).rows.filter((r: any) => r.key !== 'pageview').map((r: any) => [r.key, r.visitors, r.views]),
        systems: (await breakdown('os', [], {}, umami.id, IMPORT_PERIOD)).rows.map((r: any) => [r.key, r.visitors]),
      });
      const imported = { visitors: 3, pageviews: 4, sessions: 3, events: [['download_pdf', 1, 1], ['sign_up_step_2', 1, 1]], systems: [['Windows', 2], ['macOS', 1]] };
      await client.imported(umami.id, 'umami', UMAMI_CSV);
      assert.deepEqual(await figures(), imported);
      const second = await client.imported(umami.id, 'umami', UMAMI_CSV);
      assert.deepEqual(await figures(), imported, 'the same file again replaces the first import');
      await client.adminOk(204, 'DELETE', `/sites/${umami.id}/imports/${second.importId}`);
      assert.deepEqual(await figures(), { visitors: 0, pageviews: 0, sessions: 0, events: [], systems: [] });
    });

    it('replaces a first GoatCounter import with a second of the same file', async () => {
      const goatcounter = await newSite('goatcounter');
      const figures = async () => ({
        ...values(await stats([], goatcounter.id, IMPORT_PERIOD), ['visitors', 'pageviews']),
        events: (await breakdown('event', [], {}, goatcounter.id, IMPORT_PERIOD)).rows.map((r: any) => [r.key, r.visitors, r.views]),
      });
      const imported = { visitors: 2, pageviews: 3, events: [['pageview', 2, 3], ['signup-click', 1, 1]] };
      await client.imported(goatcounter.id, 'goatcounter', GOATCOUNTER_CSV);
      assert.deepEqual(await figures(), imported);
      await client.imported(goatcounter.id, 'goatcounter', GOATCOUNTER_CSV);
      assert.deepEqual(await figures(), imported, 'the same file again replaces the first import');
    });
  });
}
