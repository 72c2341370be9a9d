// GET /v1/sites/:id/realtime, the dashboard's visitors of the last 24 hours and whether a site holds
// any event yet (its first-event panel): raw events, bounded by site and time, with no plan (no
// rollup holds the last minutes, and a site without events has no rollup rows to tell).
import type { EventReader } from '../../storage/events/types.js';
import type { Realtime } from '../../core/answers.js';
import type { Sql } from '../../sql/sql.js';
import { importedDaysOf } from '../imported-days.js';
import { addDays, localDay } from '../../core/localtime.js';
import { MAX_PERIOD_DAYS } from '../../core/period.js';
import { anyEventStatement, realtimeStatements, recentVisitorsStatement, type RealtimePanel } from '../sql/realtime.js';

const REALTIME: RealtimePanel = { currentMs: 5 * 60_000, minutes: 30, topSize: 10, feedSize: 50 };

/** The realtime panel: raw events of the last 30 minutes. */
export async function computeRealtime(events: EventReader, siteId: string, tz: string, now: number): Promise<Realtime> {
  const lastMinute = Math.floor(now / 60_000) * 60_000;
  const from = lastMinute - (REALTIME.minutes - 1) * 60_000;
  const statements = realtimeStatements(events.dialect, siteId, tz, now, from, REALTIME);
  const top = (statement: Sql) =>
    events
      .query<{ k: string; visitors: unknown; views: unknown }>(statement)
      .then((rows) => rows.map((r) => ({ key: r.k, visitors: Number(r.visitors), views: Number(r.views) })));
  const [current, minutes, topPages, topReferrers, topCountries, feed] = await Promise.all([
    events.query<{ n: unknown }>(statements.current),
    events.query<{ m: unknown; n: unknown }>(statements.perMinute),
    top(statements.topPages),
    top(statements.topReferrers),
    top(statements.topCountries),
    events.query<Record<string, unknown>>(statements.feed),
  ]);
  const perMinute = new Map(minutes.map((r) => [Number(r.m), Number(r.n)]));
  const text = (v: unknown) => (v === null || v === undefined ? '' : String(v));
  return {
    generatedAt: now,
    currentVisitors: Number(current[0]?.n ?? 0),
    pageviewsPerMinute: Array.from({ length: REALTIME.minutes }, (_, i) => ({ t: from + i * 60_000, value: perMinute.get(i) ?? 0 })),
    topPages,
    topReferrers,
    topCountries,
    feed: feed.map((r) => ({
      ts: Number(r.ts),
      event: text(r.name),
      path: text(r.page),
      referrer: text(r.referrer),
      country: text(r.country),
      city: text(r.city),
      browser: text(r.browser),
      os: text(r.os),
      device: text(r.device),
    })),
  };
}

/** Unique visitors of a site over the `windowMs` before `now` (the dashboard's list of sites: 24 hours). */
export async function computeRecentVisitors(events: EventReader, siteId: string, tz: string, now: number, windowMs: number): Promise<number> {
  const rows = await events.query<{ n: unknown }>(recentVisitorsStatement(events.dialect, siteId, tz, now, windowMs));
  return Number(rows[0]?.n ?? 0);
}

/**
 * Whether the site holds any event a period can show: on a day from the longest period back to
 * tomorrow (imports accept events up to a day ahead of the clock), or imported figures (a site whose
 * history came from another tool shows it before its first collected event).
 */
export async function siteHasEvents(events: EventReader, siteId: string, tz: string, now: number): Promise<boolean> {
  const today = localDay(now, tz);
  const rows = await events.query(anyEventStatement(events.dialect, siteId, { from: addDays(today, -MAX_PERIOD_DAYS), to: addDays(today, 1) }));
  if (rows.length > 0) return true;
  return (await importedDaysOf(events, siteId)) !== null;
}
