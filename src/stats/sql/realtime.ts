// The realtime panel's statements, over the raw events of the last minutes, bounded by site and
// local day (the events' sort key) as well as by instant.
import { addDays, localDay } from '../../core/localtime.js';
import type { Period } from '../../core/period.js';
import type { Dialect } from '../../sql/dialect.js';
import { sql, type Sql, trusted } from '../../sql/sql.js';
import { IS_PAGEVIEW, TRAFFIC_MEASURES } from '../measures.js';
import { eventsRelation, scopeBounds } from './events.js';
import { keyExpr } from './filters.js';

/** Raw events of a site between two instants [from, to), over the local days from the day before `from` to today. */
function recentEvents(d: Dialect, siteId: string, tz: string, now: number, instants: { from: number; to: number }): Sql {
  return eventsRelation(d, { siteId, days: { from: addDays(localDay(instants.from, tz), -1), to: localDay(now, tz) }, instants, filters: [], exit: false });
}

/** The realtime panel's sizes: minutes of the per-minute series, what counts as current, list lengths. */
export interface RealtimePanel {
  readonly currentMs: number;
  readonly minutes: number;
  readonly topSize: number;
  readonly feedSize: number;
}

/** The realtime panel's statements over the minutes from `from` (a minute's start), bounded by site and time. */
export function realtimeStatements(d: Dialect, siteId: string, tz: string, now: number, from: number, panel: RealtimePanel) {
  const relation = recentEvents(d, siteId, tz, now, { from, to: from + panel.minutes * 60_000 });
  const visitors = trusted(TRAFFIC_MEASURES.visitors.aggregate(d));
  const top = (key: Sql) =>
    sql`SELECT ${key} AS k, ${visitors} AS visitors, ${trusted(TRAFFIC_MEASURES.pageviews.aggregate(d))} AS views
        FROM ${relation} GROUP BY k ORDER BY visitors DESC, views DESC, k ASC LIMIT ${panel.topSize}`;
  return {
    /** Column n: visitors of the last `currentMs`. */
    current: sql`SELECT ${visitors} AS n FROM ${relation} WHERE ts >= ${now - panel.currentMs} AND ts <= ${now}`,
    /** Columns m (minute index), n (pageviews). */
    perMinute: sql`SELECT floor((ts - ${from}) / 60000) AS m, count(*) AS n FROM ${relation} WHERE ${trusted(IS_PAGEVIEW)} GROUP BY m`,
    /** Columns k, visitors, views. */
    topPages: top(keyExpr('page')),
    topReferrers: top(keyExpr('referrer')),
    topCountries: top(keyExpr('country')),
    // Events of one millisecond are ordered by their fields, so every engine answers the same feed.
    feed: sql`SELECT ts, name, page, referrer, country, city, browser, os, device FROM ${relation}
        WHERE name <> 'engage' ORDER BY ts DESC, name, page, referrer, country, city, browser, os, device LIMIT ${panel.feedSize}`,
  };
}

/** Column n: unique visitors of a site over the `windowMs` before `now`. */
export function recentVisitorsStatement(d: Dialect, siteId: string, tz: string, now: number, windowMs: number): Sql {
  return sql`SELECT ${trusted(d.countDistinct('visitor_id'))} AS n FROM ${recentEvents(d, siteId, tz, now, { from: now - windowMs, to: now + 1 })}`;
}

/**
 * Column one: one row when the site holds an event on a day of `days`, none otherwise. The first
 * row found, bounded by site and day (the events' sort key), never a count over them.
 */
export function anyEventStatement(d: Dialect, siteId: string, days: Period): Sql {
  return sql`SELECT 1 AS one FROM events WHERE ${scopeBounds(d, { siteId, days, filters: [], exit: false })} LIMIT 1`;
}
