// Journeys (docs/api.md, Journeys) against a plain model of their definition, on both engines:
// random sessions of random pages with consecutive repeats, pageviews of one instant, sessions
// across midnight and around the period's ends, other events between pageviews, a crawler's
// session past the session paths' bound; both directions, 2 to 5 steps, with and without a page,
// under session- and event-scoped filters; read from raw events alone, from session paths (every
// day rolled up) and from both (the watermark inside the period, and at its last day); a read
// clipped to the raw window; the same under a shared link's page lock, every page outside it shown as
// `(other page)`; and the backfill of session paths over days rolled up before them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseFilters, parseQuery, type RawParams } from '../../src/core/query.js';
import { addDays, localDay } from '../../src/core/localtime.js';
import { seededRandom } from '../../src/core/seeded-random.js';
import { OTHER_PAGE_KEY, splitFilterParam, type JourneyDirection } from '../../src/core/vocabulary.js';
import type { JourneyRow } from '../../src/core/answers.js';
import type { StoredEvent } from '../../src/storage/events/schema.js';
import { planQuery, type JourneyDays, type PlannedQuery } from '../../src/stats/planner.js';
import { planInputs } from '../../src/stats/inputs.js';
import { carriedBySession } from '../../src/stats/windows.js';
import { rollupKey } from '../../src/stats/rollups/key.js';
import { rollupSite } from '../../src/stats/rollups/run.js';
import { runRetention } from '../../src/stats/rollups/retention.js';
import { SESSION_PATHS } from '../../src/stats/rollups/tables.js';
import { createRollupTables } from '../../src/stats/rollups/write.js';
import { openSqliteMetaStore } from '../../src/storage/meta/sqlite.js';
import type { MetaStore } from '../../src/storage/meta/types.js';
import type { EventStore } from '../../src/storage/events/types.js';
import type { Site } from '../../src/entities/sites.js';
import { sql, trusted } from '../../src/sql/sql.js';
import { computeJourneys } from '../../src/stats/read/journeys.js';
import { event, storedValue } from '../../support/events.js';
import { EVENT_STORE_ADAPTERS } from '../helpers/event-stores.js';

const SITE = 'jsite';
const TZ = 'UTC';
const DAYS = ['2026-03-01', '2026-03-02', '2026-03-03', '2026-03-04', '2026-03-05', '2026-03-06'];
const PERIOD = { from: '2026-03-02', to: '2026-03-05' };
const NOW = Date.parse('2026-03-08T12:00:00Z');
// Bytewise order differs from UTF-16's and from a case-insensitive one: `/Blog` < `/a` < `/ü` < `/😀`.
// A page with a quote and a `?` is asked for as any other (a parameter, never SQL text).
const PAGES = ['/', '/a', '/b', '/Blog', '/pricing', '/ü', '/😀', '/a/b', "/it's?"];
const COUNTRIES = [null, 'FR', 'DE'];
const BROWSERS = [null, 'Chrome', 'Firefox'];

let nextSession = 1n;

/** One session's events from `start`: pageviews (repeats, instants shared), engagement and custom events between them. */
function randomSession(rand: () => number, start: number, visitor: bigint): StoredEvent[] {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
  const sessionId = nextSession++;
  const common = { siteId: SITE, sessionId, country: pick(COUNTRIES), browser: pick(BROWSERS) };
  const views = Math.floor(rand() * 9);
  const rows: StoredEvent[] = [];
  let ts = start;
  let page = pick(PAGES);
  const entry = page;
  // A session without pageviews starts with a custom event.
  if (views === 0) rows.push(event({ ...common, ts, visitorId: visitor, name: 'signup', page, entryPage: null, sessionStart: true }));
  for (let i = 0; i < views; i++) {
    // Consecutive repeats (a reload) are frequent; a pageview may share its instant with the one before (never the last: the exit page is one).
    if (i > 0 && rand() >= 0.3) page = pick(PAGES);
    const day = localDay(ts, TZ);
    // Past midnight a visitor's id is the new day's (its salt is the day's); the session goes on.
    const visitorId = day === localDay(start, TZ) ? visitor : visitor + 7n;
    rows.push(event({ ...common, ts, day, visitorId, name: 'pageview', page, entryPage: entry, sessionStart: i === 0 && rows.length === 0 }));
    const r = rand();
    if (r < 0.2) rows.push(event({ ...common, ts: ts + 10, visitorId, name: 'engage', page, entryPage: entry, engagedMs: 5000 }));
    else if (r < 0.35) rows.push(event({ ...common, ts: ts + 10, visitorId, name: pick(['signup', 'trial']), page, entryPage: entry, props: pick([null, '{"plan":"pro"}', '{"plan":"free"}']) }));
    if (!(i < views - 2 && rand() < 0.15)) ts += 1000 + Math.floor(rand() * 600_000);
  }
  return rows;
}

/**
 * A crawler's session from 23:45 on 2026-03-03 into the next day: 100 long paths (`/a` among them,
 * and a reload), past PATHS_MAX_BYTES on either day, so that session paths hold neither day's.
 */
function crawlerSession(): StoredEvent[] {
  const sessionId = nextSession++;
  const start = Date.parse('2026-03-03T23:45:00Z');
  return Array.from({ length: 100 }, (_, i) => {
    const ts = start + i * 15_000;
    const page = i % 30 === 10 ? '/a' : i === 51 ? `/crawl/${'x'.repeat(110)}/50` : `/crawl/${'x'.repeat(110)}/${i}`;
    const visitorId = localDay(ts, TZ) === '2026-03-03' ? 77n : 78n;
    return event({ siteId: SITE, ts, sessionId, visitorId, sessionStart: i === 0, page, entryPage: '/crawl', country: 'FR' });
  });
}

/** A session whose events disagree on a carried key (its city; no filter of the model names it): session paths hold none of its day. */
function disagreeingSession(): StoredEvent[] {
  const sessionId = nextSession++;
  const start = Date.parse('2026-03-02T09:00:00Z');
  return ['/', '/pricing', '/a', '/b'].map((page, i) =>
    event({ siteId: SITE, ts: start + i * 60_000, sessionId, visitorId: 91n, sessionStart: i === 0, page, city: i < 2 ? 'Lyon' : 'Paris' }),
  );
}

function randomEvents(seed: number): StoredEvent[] {
  const rand = seededRandom(seed);
  const rows: StoredEvent[] = [];
  for (const day of DAYS) {
    const midnight = Date.parse(`${day}T00:00:00Z`);
    for (let i = 0; i < 60; i++) {
      // Some sessions start just before midnight and go on past it.
      const at = midnight + (i % 10 === 0 ? 86_400_000 - 60_000 - Math.floor(rand() * 600_000) : Math.floor(rand() * 20 * 3_600_000));
      rows.push(...randomSession(rand, at, BigInt(Math.floor(rand() * 40)) + 1000n * BigInt(day.replaceAll('-', ''))));
    }
  }
  rows.push(...crawlerSession(), ...disagreeingSession());
  // Another site's sessions count nowhere.
  rows.push(event({ siteId: 'other', ts: Date.parse('2026-03-03T10:00:00Z'), sessionId: nextSession++, sessionStart: true, page: '/a' }));
  return rows;
}

// The model: the definition, over every event of each session.

interface ModelSession {
  startDay: string;
  visitor: bigint;
  events: StoredEvent[];
}

function sessionsOf(rows: readonly StoredEvent[], days: { from: string; to: string }): ModelSession[] {
  const bySession = new Map<bigint, StoredEvent[]>();
  for (const e of rows) if (e.siteId === SITE) bySession.set(e.sessionId, [...(bySession.get(e.sessionId) ?? []), e]);
  const out: ModelSession[] = [];
  for (const events of bySession.values()) {
    const start = events.find((e) => e.sessionStart)!;
    if (start.day >= days.from && start.day <= days.to) out.push({ startDay: start.day, visitor: start.visitorId, events });
  }
  return out;
}

const byteOrder = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));
const byInstantThenPath = (a: StoredEvent, b: StoredEvent) => a.ts - b.ts || byteOrder(a.page, b.page);

/** A shared link's lock on `page` as the model reads it: its filter, and the pages it admits. */
interface PageLock {
  filter: string;
  admits(page: string): boolean;
}

/** A page as a lock shows it: outside it, `(other page)`; no page (null) stays none. */
const shown = (page: string | null, lock: PageLock | undefined): string | null => (page === null || !lock || lock.admits(page) ? page : OTHER_PAGE_KEY);

/** A session's journey: its pageviews' paths (as the lock shows them) in time order, then by path, consecutive repeats once. */
function journeyOf(s: ModelSession, lock?: PageLock): string[] {
  const views = s.events.filter((e) => e.name === 'pageview').map((e) => ({ ...e, page: shown(e.page, lock)! }));
  const paths = views.sort(byInstantThenPath).map((e) => e.page);
  return paths.filter((p, i) => i === 0 || p !== paths[i - 1]);
}

/** The value an event has for a filter's dimension (null: absent, read as `(none)`). */
function valueOf(s: ModelSession, e: StoredEvent, dimension: string): string | null | undefined {
  const stored = storedValue(e, dimension);
  if (stored !== undefined) return stored;
  switch (dimension) {
    case 'exit': {
      const views = s.events.filter((v) => v.name === 'pageview').sort((a, b) => a.ts - b.ts);
      return views.at(-1)?.page ?? null;
    }
    case 'prop.plan':
      // Engagement events carry no properties: no filter on one keeps them.
      return e.name === 'engage' ? undefined : e.props ? (JSON.parse(e.props) as { plan?: string }).plan ?? null : null;
    default:
      throw new Error(`no model of ${dimension}`);
  }
}

function matches(s: ModelSession, e: StoredEvent, filter: string, lock?: PageLock): boolean {
  const { dimension, operator, value } = splitFilterParam(filter)!;
  const found = valueOf(s, e, dimension);
  // Under a page lock, entry and exit pages compare as the lock shows them.
  const v = dimension === 'entry' || dimension === 'exit' ? found && shown(found, lock) : found;
  if (v === undefined) return false;
  const key = v ?? '(none)';
  if (operator === 'is') return key === value;
  if (operator === 'is_not') return key !== value;
  return v !== null && v.toLowerCase().includes(value.toLowerCase());
}

interface Asked {
  steps: number;
  page: string | null;
  direction: JourneyDirection;
  limit: number;
  filters: readonly string[];
  lock?: PageLock;
}

function model(rows: readonly StoredEvent[], days: { from: string; to: string }, a: Asked): { rows: JourneyRow[]; totalSessions: number } {
  const counts = new Map<string, { path: string[]; sessions: number; visitors: Set<string> }>();
  let totalSessions = 0;
  for (const s of sessionsOf(rows, days)) {
    // A session is read when one of its events matches every filter.
    if (!s.events.some((e) => a.filters.every((f) => matches(s, e, f, a.lock)) && (!a.lock || a.lock.admits(e.page)))) continue;
    const journey = journeyOf(s, a.lock);
    // One row a session: its first paths, or from the page's first occurrence (next) or up to its last (previous).
    const i = a.page === null ? (journey.length > 0 ? 0 : -1) : a.direction === 'next' ? journey.indexOf(a.page) : journey.lastIndexOf(a.page);
    if (i === -1) continue;
    const path = a.direction === 'next' || a.page === null ? journey.slice(i, i + a.steps) : journey.slice(Math.max(0, i - a.steps + 1), i + 1);
    totalSessions++;
    const c = counts.get(JSON.stringify(path)) ?? { path, sessions: 0, visitors: new Set<string>() };
    c.sessions++;
    c.visitors.add(`${s.startDay} ${s.visitor}`);
    counts.set(JSON.stringify(path), c);
  }
  const pathOrder = (x: string[], y: string[]) => {
    for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return byteOrder(x[i]!, y[i]!);
    return x.length - y.length;
  };
  const all = [...counts.values()].map((c) => ({ path: c.path, sessions: c.sessions, visitors: c.visitors.size }));
  all.sort((x, y) => y.sessions - x.sessions || pathOrder(x.path, y.path));
  return { rows: all.slice(0, a.limit), totalSessions };
}

const FILTER_SETS: ReadonlyArray<readonly string[]> = [
  [],
  ['country:FR'],
  ['country!:FR'],
  ['browser:(none)', 'country~:d'],
  ['page:/pricing'],
  ['page~:BLOG'],
  ['page!:/'],
  ['event:signup', 'browser:Chrome'],
  ['exit:/a'],
  ['prop.plan:pro'],
];

/** The site of the events on fresh metadata, its rollup tables made (raw days: 60). */
async function openSite(events: EventStore) {
  const meta = await openSqliteMetaStore(':memory:');
  await createRollupTables(events);
  const org = await meta.createOrg('o', 0);
  const site = await meta.createSite(org.id, { domain: 'j.test', name: 'j', timezone: TZ, retentionMonths: null, rawDays: 60, honorGpc: true }, SITE, 0);
  return { meta, site };
}

/** A journeys query planned as a request is (through a shared link with `locked` filters), with the site's rollup state (or with none: raw events alone). */
async function planned(events: EventStore, meta: MetaStore | null, site: Site, params: RawParams, locked: readonly string[] = []): Promise<PlannedQuery> {
  const q = parseQuery('journeys', params, site, NOW, locked);
  if (meta === null) return planQuery(q, { watermark: null, retentionMonths: null, rawDays: 60 });
  return planQuery(q, await planInputs(events, site, q, await meta.getRollupState(rollupKey(events, site.id))));
}

const countPaths = async (events: EventStore, where = '1 = 1') =>
  Number((await events.query<{ n: unknown }>(sql`SELECT count(*) AS n FROM ${trusted(SESSION_PATHS.name)} WHERE site_id = ${SITE} AND ${trusted(where)}`))[0]!.n);

/** What a stage reads: the site rolled up at `rollupAt` (none: raw events alone), the period, and the journey days the plan must give without filters. */
interface Stage {
  rollupAt: number | null;
  period: { from: string; to: string };
  days: JourneyDays;
}

const at = (day: string) => Date.parse(`${day}T12:00:00Z`);
const STAGES: readonly Stage[] = [
  { rollupAt: null, period: PERIOD, days: { starts: PERIOD, paths: null, raw: { from: '2026-03-02', to: '2026-03-06' } } },
  // Rolled up to 2026-03-03: session paths for the period's first days, raw events for the rest.
  { rollupAt: at('2026-03-04'), period: PERIOD, days: { starts: PERIOD, paths: { from: '2026-03-02', to: '2026-03-03' }, raw: { from: '2026-03-04', to: '2026-03-06' } } },
  // The period ends on the watermark: the day after is read from raw events.
  { rollupAt: at('2026-03-04'), period: { from: '2026-03-01', to: '2026-03-03' }, days: { starts: { from: '2026-03-01', to: '2026-03-03' }, paths: { from: '2026-03-01', to: '2026-03-03' }, raw: { from: '2026-03-04', to: '2026-03-04' } } },
  // Rolled up to 2026-03-07: session paths alone, the day after the period's included.
  { rollupAt: NOW, period: PERIOD, days: { starts: PERIOD, paths: { from: '2026-03-02', to: '2026-03-06' }, raw: null } },
];

for (const adapter of EVENT_STORE_ADAPTERS) {
  test(`journeys equal the model of their definition, from raw events, session paths and both: ${adapter.name}`, async () => {
    const events = await adapter.open();
    const { meta, site } = await openSite(events);
    try {
      const rows = randomEvents(11);
      await events.append(rows);
      const rand = seededRandom(5);
      let compared = 0;
      let nonEmpty = 0;
      for (const stage of STAGES) {
        if (stage.rollupAt !== null) await rollupSite({ events, meta }, site, stage.rollupAt);
        for (const filters of FILTER_SETS) {
          for (const direction of ['next', 'previous'] as const) {
            for (const page of direction === 'next' ? [null, '/a', "/it's?"] : ['/a', '/ü', '/pricing']) {
              const asked: Asked = { steps: 2 + Math.floor(rand() * 4), page, direction, limit: rand() < 0.5 ? 100 : 1 + Math.floor(rand() * 6), filters };
              const params: RawParams = { ...stage.period, steps: String(asked.steps), direction, limit: String(asked.limit), filter: [...filters], ...(page === null ? {} : { page }) };
              const q = await planned(events, stage.rollupAt === null ? null : meta, site, params);
              // Session paths answer where every filter is a key sessions carry; raw events alone answer the others.
              const fromPaths = parseFilters(filters).every(carriedBySession);
              const rawAlone = { ...stage.days, paths: null, raw: { from: stage.period.from, to: addDays(stage.period.to, 1) } };
              assert.deepEqual(q.plan.journeyDays, fromPaths ? stage.days : rawAlone, JSON.stringify(filters));
              const answer = await computeJourneys(events, q);
              assert.deepEqual(answer, model(rows, stage.period, asked), `${JSON.stringify(stage.days)} ${JSON.stringify(asked)}`);
              compared++;
              if (answer.rows.length > 0) nonEmpty++;
            }
          }
        }
      }
      assert.ok(nonEmpty > compared * 0.8, `${nonEmpty} of ${compared} answers had rows`);
      // Every day rolled up: the crawler's two days and the disagreeing session's day hold no paths.
      assert.equal(await countPaths(events, 'raw_needed'), 3);
      assert.ok((await countPaths(events)) > 300);
      // Session paths are read: without a day's rows, the answer is no longer the model's.
      const params = { ...PERIOD, steps: '3' };
      const asked: Asked = { steps: 3, page: null, direction: 'next', limit: 20, filters: [] };
      await events.replaceRows(SESSION_PATHS, { siteId: SITE, days: { from: '2026-03-03', to: '2026-03-03' } }, null);
      assert.notDeepEqual(await computeJourneys(events, await planned(events, meta, site, params)), model(rows, PERIOD, asked));
      // A read clipped to the raw window (the site's last 5 days: from 2026-03-04) answers its days inside it, as the model of those days.
      const clipped = planQuery(parseQuery('journeys', { ...PERIOD, raw: 'clip', steps: '4' }, site, NOW), { watermark: null, retentionMonths: null, rawDays: 5 });
      assert.equal(clipped.period.from, addDays(localDay(NOW, TZ), -4));
      assert.deepEqual(await computeJourneys(events, clipped), model(rows, clipped.period, { ...asked, steps: 4 }));
    } finally {
      await events.close();
      await meta.close();
    }
  });

  test(`under a shared link's page lock, journeys equal the model with every page outside the lock as (other page): ${adapter.name}`, async () => {
    const events = await adapter.open();
    const { meta, site } = await openSite(events);
    try {
      const rows = randomEvents(13);
      await events.append(rows);
      await rollupSite({ events, meta }, site, NOW);
      const locks: PageLock[] = [
        { filter: 'page:/a**', admits: (page) => page.startsWith('/a') },
        { filter: "page:/|/b|/it's?", admits: (page) => ['/', '/b', "/it's?"].includes(page) },
        { filter: 'page~:B', admits: (page) => page.toLowerCase().includes('b') },
        { filter: 'page!:/', admits: (page) => page !== '/' },
      ];
      const rand = seededRandom(7);
      let folded = 0;
      for (const lock of locks) {
        for (const filters of [[], ['country:FR'], ['exit:/b'], [`exit:${OTHER_PAGE_KEY}`], [`entry!:${OTHER_PAGE_KEY}`], ['entry:/pricing']]) {
          for (const [direction, page] of [['next', null], ['next', '/a'], ['previous', '/b'], ['next', '/pricing']] as const) {
            const asked: Asked = { steps: 2 + Math.floor(rand() * 4), page, direction, limit: 100, filters, lock };
            const params: RawParams = { ...PERIOD, steps: String(asked.steps), direction, limit: '100', filter: [...filters], ...(page === null ? {} : { page }) };
            const q = await planned(events, meta, site, params, [lock.filter]);
            assert.equal(q.plan.journeyDays?.paths, null, 'a page lock reads raw events alone');
            const answer = await computeJourneys(events, q);
            assert.deepEqual(answer, model(rows, PERIOD, asked), `${lock.filter} ${JSON.stringify(asked)}`);
            if (answer.rows.some((r) => r.path.includes(OTHER_PAGE_KEY))) folded++;
            for (const row of answer.rows) assert.ok(row.path.every((p) => p === OTHER_PAGE_KEY || lock.admits(p)), `${lock.filter}: ${row.path.join(' ')}`);
          }
        }
      }
      assert.ok(folded > 40, `${folded} answers hold a folded step`);
    } finally {
      await events.close();
      await meta.close();
    }
  });

  test(`session paths of days rolled up before they existed are backfilled, and retention takes them with raw events: ${adapter.name}`, async () => {
    const events = await adapter.open();
    const { meta, site } = await openSite(events);
    try {
      const rows = randomEvents(12);
      await events.append(rows);
      await rollupSite({ events, meta }, site, NOW);
      const written = await countPaths(events);
      // Rollups of an older deployment: bookkeeping without session paths, and none written.
      const key = rollupKey(events, site.id);
      const state = (await meta.getRollupState(key))!;
      const { sessionPaths: _, ...older } = JSON.parse(state.definitions);
      await meta.setRollupState(key, { ...state, definitions: JSON.stringify(older) });
      await events.replaceRows(SESSION_PATHS, { siteId: SITE, days: { from: null, to: '2026-03-08' } }, null);
      const params = { ...PERIOD, steps: '4', filter: ['country:FR'] };
      const asked: Asked = { steps: 4, page: null, direction: 'next', limit: 20, filters: ['country:FR'] };
      assert.equal((await planned(events, meta, site, params)).plan.journeyDays?.paths, null, 'raw events answer until the paths are written');
      // Two days a run: the latest first, the rest at the next runs.
      await rollupSite({ events, meta }, site, NOW, { backfillDays: 2 });
      assert.equal((await planned(events, meta, site, params)).plan.journeyDays?.paths, null, 'a part written: still raw events');
      for (let run = 0; run < 3; run++) await rollupSite({ events, meta }, site, NOW, { backfillDays: 2 });
      assert.equal(await countPaths(events), written);
      const after = await planned(events, meta, site, params);
      assert.deepEqual(after.plan.journeyDays?.paths, { from: PERIOD.from, to: '2026-03-06' });
      assert.deepEqual(await computeJourneys(events, after), model(rows, PERIOD, asked));

      // 70 days later, the raw window (60 days) has left every day: raw events and session paths go.
      const later = NOW + 70 * 86_400_000;
      await rollupSite({ events, meta }, site, later);
      await runRetention({ events, meta }, later);
      assert.equal(await countPaths(events), 0);
    } finally {
      await events.close();
      await meta.close();
    }
  });
}
