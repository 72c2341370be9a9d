// Journeys (docs/api.md, Journeys) against a plain model of their definition, on both engines:
// random sessions of random pages with consecutive repeats, pageviews of one instant, sessions
// across midnight and around the period's ends, other events between pageviews; both directions,
// 2 to 5 steps, with and without a page, under session- and event-scoped filters; and a read
// clipped to the raw window.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseQuery, type RawParams } from '../../src/core/query.js';
import { addDays, localDay } from '../../src/core/localtime.js';
import { seededRandom } from '../../src/core/seeded-random.js';
import { splitFilterParam, type JourneyDirection } from '../../src/core/vocabulary.js';
import type { JourneyRow } from '../../src/core/answers.js';
import type { StoredEvent } from '../../src/storage/events/schema.js';
import { planQuery } from '../../src/stats/planner.js';
import { computeJourneys } from '../../src/stats/read/journeys.js';
import { event } from '../../support/events.js';
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

/** A session's journey: its pageviews' paths in time order, consecutive repeats once. */
function journeyOf(s: ModelSession): string[] {
  const paths = s.events.filter((e) => e.name === 'pageview').sort(byInstantThenPath).map((e) => e.page);
  return paths.filter((p, i) => i === 0 || p !== paths[i - 1]);
}

/** The value an event has for a filter's dimension (null: absent, read as `(none)`). */
function valueOf(s: ModelSession, e: StoredEvent, dimension: string): string | null | undefined {
  switch (dimension) {
    case 'page':
      return e.page;
    case 'event':
      return e.name;
    case 'country':
      return e.country;
    case 'browser':
      return e.browser;
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

function matches(s: ModelSession, e: StoredEvent, filter: string): boolean {
  const { dimension, operator, value } = splitFilterParam(filter)!;
  const v = valueOf(s, e, dimension);
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
}

function model(rows: readonly StoredEvent[], days: { from: string; to: string }, a: Asked): { rows: JourneyRow[]; totalSessions: number } {
  const counts = new Map<string, { path: string[]; sessions: number; visitors: Set<string> }>();
  let totalSessions = 0;
  for (const s of sessionsOf(rows, days)) {
    // A session is read when one of its events matches every filter.
    if (!s.events.some((e) => a.filters.every((f) => matches(s, e, f)))) continue;
    const journey = journeyOf(s);
    const positions = journey.flatMap((p, i) => (a.page === null ? (i === 0 ? [i] : []) : p === a.page ? [i] : []));
    const paths = positions.map((i) => (a.direction === 'next' ? journey.slice(i, i + a.steps) : journey.slice(Math.max(0, i - a.steps + 1), i + 1)));
    const distinct = new Map(paths.map((p) => [JSON.stringify(p), p]));
    if (distinct.size > 0) totalSessions++;
    for (const [key, path] of distinct) {
      const c = counts.get(key) ?? { path, sessions: 0, visitors: new Set<string>() };
      c.sessions++;
      c.visitors.add(`${s.startDay} ${s.visitor}`);
      counts.set(key, c);
    }
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

for (const adapter of EVENT_STORE_ADAPTERS) {
  test(`journeys equal the model of their definition: ${adapter.name}`, async () => {
    const events = await adapter.open();
    try {
      const rows = randomEvents(11);
      await events.append(rows);
      const rand = seededRandom(5);
      const site = { id: SITE, timezone: TZ };
      const inputs = { watermark: null, retentionMonths: null, rawDays: 60 };
      let compared = 0;
      let nonEmpty = 0;
      for (const filters of FILTER_SETS) {
        for (const direction of ['next', 'previous'] as const) {
          for (const page of direction === 'next' ? [null, '/a', "/it's?"] : ['/a', '/ü', '/pricing']) {
            const asked: Asked = { steps: 2 + Math.floor(rand() * 4), page, direction, limit: rand() < 0.5 ? 100 : 1 + Math.floor(rand() * 6), filters };
            const params: RawParams = { ...PERIOD, steps: String(asked.steps), direction, limit: String(asked.limit), filter: [...filters], ...(page === null ? {} : { page }) };
            const answer = await computeJourneys(events, planQuery(parseQuery('journeys', params, site, NOW), inputs));
            assert.deepEqual(answer, model(rows, PERIOD, asked), `${JSON.stringify(asked)}`);
            compared++;
            if (answer.rows.length > 0) nonEmpty++;
          }
        }
      }
      assert.ok(nonEmpty > compared * 0.8, `${nonEmpty} of ${compared} answers had rows`);
      // A read clipped to the raw window (the site's last 5 days: from 2026-03-04) answers its days inside it, as the model of those days.
      const clipped = planQuery(parseQuery('journeys', { ...PERIOD, raw: 'clip', steps: '4' }, site, NOW), { ...inputs, rawDays: 5 });
      assert.equal(clipped.period.from, addDays(localDay(NOW, TZ), -4));
      const asked: Asked = { steps: 4, page: null, direction: 'next', limit: 20, filters: [] };
      assert.deepEqual(await computeJourneys(events, clipped), model(rows, clipped.period, asked));
    } finally {
      await events.close();
    }
  });
}
