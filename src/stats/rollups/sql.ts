// The statements only the rollup job (./write.ts) writes: the session parts and session rows of some
// days from raw events, and the `(none)` rows of properties. The statements it shares with raw reads
// live in ../sql, so that both paths count alike.
import { addDays } from '../../core/localtime.js';
import type { Period } from '../../core/period.js';
import { dimensionColumn, NONE_KEY, PROPERTY_PREFIX } from '../../core/vocabulary.js';
import type { Dialect } from '../../sql/dialect.js';
import { sql, type Sql, trusted } from '../../sql/sql.js';
import { IS_PAGEVIEW, SESSION_FACTS, sessionBounced, sessionDuration, TRAFFIC_MEASURES } from '../measures.js';
import { asRepeated, dayRange } from '../sql/filters.js';
import { SESSION_COLUMNS } from '../sql/measures.js';
import { keyedPropertyPairs, PAIR_FACTS, propertyScopeEvents } from '../sql/properties.js';
import { SESSION_DIMENSIONS, SESSION_PARTS } from './tables.js';
import { inSessionPart } from '../sql/session-paths.js';

/** The traffic measures counted per event (all over events but visitors), summed over visitors. */
const EVENT_COUNTS = Object.values(TRAFFIC_MEASURES).filter((m) => m.over === 'events' && m !== TRAFFIC_MEASURES.visitors);

/**
 * Per day, the `(none)` rows of properties: for each property the day's events carry (dimension
 * `prop.<key>`, key `(none)`), the measures of the events a property breakdown counts (every one but
 * `engage`) that lack it, when there are any; and the measures of all those events once (dimension
 * `prop.`, key `(none)`), the `(none)` row of every property the day's events do not carry. Linear
 * in the events and their properties, whichever keys clients send: per visitor, their events and
 * those carrying each property they carry; a visitor counts in a property's `(none)` row unless
 * every event of theirs carries it. Columns as `measurePropertyPairs`'.
 */
export function measurePropertyNones(d: Dialect, siteId: string, days: Period): Sql {
  const counts = (prefix: string) => trusted(EVENT_COUNTS.map((m) => `${m.aggregate(d)} AS ${prefix}${m.column}`).join(', '));
  const summed = (from: string, to: string) => trusted(EVENT_COUNTS.map((m) => `CAST(sum(${from}${m.column}) AS BIGINT) AS ${to}${m.column}`).join(', '));
  // Every column of the joined relations has a name of its own (ClickHouse 18.16 resolves clashing names on its own terms).
  const visitors = sql`SELECT day AS v_day, visitor_id AS v_visitor, ${counts('v_')} FROM (${propertyScopeEvents(d, siteId, days, trusted(PAIR_FACTS))}) e GROUP BY day, visitor_id`;
  const carried = sql`SELECT day AS c_day, visitor_id AS c_visitor, dim AS c_dim, ${counts('c_')} FROM (${keyedPropertyPairs(d, siteId, days)}) p GROUP BY day, visitor_id, dim`;
  const totals = sql`SELECT v_day AS t_day, CAST(count(*) AS BIGINT) AS t_visitors, ${summed('v_', 't_')} FROM (${visitors}) v GROUP BY v_day`;
  const everyEvent = `c.c_${TRAFFIC_MEASURES.events.column} = v.v_${TRAFFIC_MEASURES.events.column}`;
  const perProperty = sql`SELECT c.c_day AS k_day, c.c_dim AS k_dim, ${summed('c.c_', 'k_')}, CAST(sum(CASE WHEN ${trusted(everyEvent)} THEN 1 ELSE 0 END) AS BIGINT) AS k_visitors
    FROM (${carried}) c JOIN (${visitors}) v ON c.c_day = v.v_day AND c.c_visitor = v.v_visitor GROUP BY c.c_day, c.c_dim`;
  const none = asRepeated(d, sql`${NONE_KEY}`);
  const lacking = EVENT_COUNTS.map((m) => `CAST(t.t_${m.column} - p.k_${m.column} AS BIGINT) AS ${m.column}`).join(', ');
  const zeros = trusted(SESSION_COLUMNS.map((c) => `0 AS ${c}`).join(', '));
  const events = TRAFFIC_MEASURES.events.column;
  return sql`SELECT p.k_day AS b, p.k_dim AS dim, ${none} AS k, CAST(t.t_visitors - p.k_visitors AS BIGINT) AS visitors, ${trusted(lacking)}, ${zeros}
      FROM (${perProperty}) p JOIN (${totals}) t ON p.k_day = t.t_day WHERE t.t_${trusted(events)} > p.k_${trusted(events)}
    UNION ALL
    SELECT t_day AS b, ${PROPERTY_PREFIX} AS dim, ${none} AS k, t_visitors AS visitors, ${trusted(EVENT_COUNTS.map((m) => `t_${m.column} AS ${m.column}`).join(', '))}, ${zeros} FROM (${totals}) t`;
}

/**
 * The parts of sessions (SESSION_PARTS) of some days and of the day either side, in the table's
 * column order: one per session, day and visitor hash, from one pass over raw events. Each day is
 * its own aggregate (a part never spans days), so that the statement's memory follows the largest
 * day's events (and the range's session ids, a set of 64-bit values), not the range's events: the
 * parts' keys are strings, held in memory per group (docs/performance.md#memory). The days either
 * side hold only the parts of sessions that have events in the days (those that cross a midnight):
 * the session rows of the days take no other (`sessionRowsOfParts`), and a busy day's sessions would
 * otherwise be parts held for nothing, two thirds of them when one day is rewritten. A day of
 * `sharesOf(day)` shares is as many selects, each a share of its sessions (by id), inserted one
 * after another (`Rows`), so that a select's entry and exit pages stay within the pool however long
 * the paths.
 */
export function sessionPartsOfEvents(d: Dialect, siteId: string, days: Period, sharesOf: (day: string) => number = () => 1): Sql[] {
  if (days.from > days.to) throw new RangeError(`no days from ${days.from} to ${days.to}`);
  const keys = SESSION_DIMENSIONS.map((dim) => (dim === 'exit' ? d.argMaxIf('page', 'ts', IS_PAGEVIEW) : `min(${dimensionColumn(dim)})`) + ` AS p_${dim}`);
  const facts = SESSION_FACTS.map((f) => `${f.aggregate(d)} AS p_${f.column}`);
  const inDays = sql`session_id IN (SELECT session_id FROM events WHERE site_id = ${siteId} AND ${dayRange(d, 'day', days)})`;
  const ofDay = (day: string, sessions: Sql | null, share = 0, shares = 1) => sql`SELECT ${siteId} AS p_site, day AS p_day, session_id AS p_session, visitor_id AS p_visitor, ${trusted(d.countIf('session_start'))} AS p_starts,
      CAST(count(*) AS BIGINT) AS p_events, ${trusted([...keys, ...facts].join(', '))}, max(CASE WHEN ${trusted(IS_PAGEVIEW)} THEN ts END) AS p_last_pageview_ts
    FROM events WHERE site_id = ${siteId} AND ${dayRange(d, 'day', { from: day, to: day })}${sessions ? sql` AND ${sessions}` : trusted('')}${inSessionPart('session_id', share, shares)}
    GROUP BY day, session_id, visitor_id`;
  const around = sessionPartDays(days);
  const each: Sql[] = [ofDay(around.from, inDays)];
  for (let day = days.from; day <= days.to; day = addDays(day, 1)) {
    const shares = sharesOf(day);
    for (let share = 0; share < shares; share++) each.push(ofDay(day, null, share, shares));
  }
  each.push(ofDay(around.to, inDays));
  return each;
}

/** The days whose parts of sessions a rewrite of `days` writes: the days and one day either side. */
export function sessionPartDays(days: Period): Period {
  return { from: addDays(days.from, -1), to: addDays(days.to, 1) };
}

/**
 * The session rows (SESSION_ROWS) of some days, in the table's column order, from the parts of
 * sessions written for them (`sessionPartsOfEvents` of the days): each row its part's counts and
 * keys, the session's exit page (its last pageview, as `eventsRelation` finds it), and on the
 * starting day's row whether the session bounced and its duration, from its facts over its parts
 * (as `sessionFactsSelect` counts them). The days' sessions in `shares` selects, split by id and
 * inserted one after another (`Rows`): a select holds one share of the sessions' exit pages, and the
 * facts of those sessions alone (not of every session of the day either side).
 */
export function sessionRowsOfParts(d: Dialect, siteId: string, days: Period, shares = 1): Sql[] {
  return Array.from({ length: shares }, (_, share) => sessionRowsOfShare(d, siteId, days, share, shares));
}

function sessionRowsOfShare(d: Dialect, siteId: string, days: Period, share: number, shares: number): Sql {
  const parts = (range: Period) => sql`(SELECT * FROM ${trusted(SESSION_PARTS.name)} WHERE site_id = ${siteId} AND ${dayRange(d, 'day', range)}${inSessionPart('session_id', share, shares)})`;
  const sessionFacts = SESSION_FACTS.map((f) => `${f.combine}(${f.column}) AS s_${f.column}`);
  const keys = SESSION_DIMENSIONS.map((dim) => `coalesce(${dim === 'exit' ? 'x.s_exit' : `p.${dimensionColumn(dim)}`}, '${NONE_KEY}') AS o_${dim}`);
  // The session's bounce and duration go on its starting day's row only (where its facts always join).
  const onStart = [
    `CASE WHEN p.starts > 0 AND ${sessionBounced('x.s_')} THEN 1 ELSE 0 END AS o_bounces`,
    `CASE WHEN p.starts > 0 THEN coalesce(${sessionDuration('x.s_')}, 0) ELSE 0 END AS o_duration_ms`,
  ];
  return sql`SELECT ${siteId} AS o_site, p.day AS o_day, p.session_id AS o_session, p.visitor_id AS o_visitor, p.starts AS o_starts, p.pageviews AS o_pageviews,
      p.events AS o_events, ${trusted([...keys, ...onStart].join(', '))}
    FROM ${parts(days)} p
    LEFT JOIN (SELECT session_id AS s_session, ${trusted(sessionFacts.join(', '))}, ${trusted(d.argMaxIf('exit_page', 'last_pageview_ts', 'pageviews > 0'))} AS s_exit
      FROM ${parts(sessionPartDays(days))} q WHERE session_id IN (SELECT session_id FROM ${parts(days)} i) GROUP BY session_id) x
    ON p.session_id = x.s_session`;
}
