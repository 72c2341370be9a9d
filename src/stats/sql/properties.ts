// Custom properties over raw events: the pairs (property, value) the events of some days carry, as
// measure rows (the rollups' dim_daily rows of properties, and the raw days of the keys a site's
// events carry), and that list of keys.
import type { Period } from '../../core/period.js';
import { NONE_KEY, PROPERTY_PREFIX } from '../../core/vocabulary.js';
import type { Dialect } from '../../sql/dialect.js';
import { joinSql, sql, type Sql, trusted } from '../../sql/sql.js';
import { measureAggregates, TRAFFIC_MEASURES } from '../measures.js';
import type { DaySources } from '../planner.js';
import { CARRIES_NO_PROPERTIES, decodeValue, keyDimension, pairKeyToken, pairValueToken, propertyPairs } from '../properties.js';
import { DIM_DAILY } from '../rollups/tables.js';
import { scopeBounds } from './events.js';
import { asRepeated, dayRange } from './filters.js';
import { SESSION_COLUMNS } from './measures.js';

/** The facts of an event a property's rows are counted from. */
export const PAIR_FACTS = 'day, visitor_id, name, session_start';

/** The events a property breakdown counts (every one but `engage`) of a site's days, with `columns` of each. */
export function propertyScopeEvents(d: Dialect, siteId: string, days: Period, columns: Sql): Sql {
  return sql`SELECT ${columns} FROM events WHERE ${scopeBounds(d, { siteId, days, filters: [], exit: false })} AND NOT ${trusted(CARRIES_NO_PROPERTIES)}`;
}

/** Every property the events of `propertyScopeEvents` carry, one row each: PAIR_FACTS, dim (`prop.<key>`) and k (typed as `asRepeated`). */
export function keyedPropertyPairs(d: Dialect, siteId: string, days: Period): Sql {
  const pairs = sql`${propertyScopeEvents(d, siteId, days, sql`${trusted(PAIR_FACTS)}, ${propertyPairs(d)} AS pair`)} AND props IS NOT NULL`;
  const tokens = sql`SELECT ${trusted(PAIR_FACTS)}, ${pairKeyToken(d, 'pair')} AS key_token, ${pairValueToken(d, 'pair')} AS value_token FROM (${pairs}) p`;
  return sql`SELECT ${trusted(PAIR_FACTS)}, ${keyDimension(d, trusted('key_token'))} AS dim, ${asRepeated(d, decodeValue(d, trusted('value_token')))} AS k
    FROM (${tokens}) t`;
}

/**
 * Per day, property and value, the traffic measures of the events that carry the property (the
 * per-session ones at 0, as for every event-scoped dimension's rollups). Columns: b (a DATE), dim
 * (`prop.<key>`), k (typed as `asRepeated`), then the measures in registry order.
 */
export function measurePropertyPairs(d: Dialect, siteId: string, days: Period): Sql {
  return sql`SELECT day AS b, dim, k, ${trusted(measureAggregates(d, TRAFFIC_MEASURES, 'events'))}, ${trusted(SESSION_COLUMNS.map((c) => `0 AS ${c}`).join(', '))}
    FROM (${keyedPropertyPairs(d, siteId, days)}) x GROUP BY b, dim, k`;
}

/**
 * Columns k (a custom property key) and n (the events carrying it): the keys a site's events carry
 * on the rolled-up and raw days of a plan, most events first, at most `limit`; null when no day is read.
 */
export function propertyKeysStatement(d: Dialect, siteId: string, days: DaySources, limit: number): Sql | null {
  const key = (column: string) => trusted(`substring(${column}, ${PROPERTY_PREFIX.length + 1}, 1000)`);
  const parts: Sql[] = [];
  if (days.rollup) {
    parts.push(sql`SELECT ${key('dimension')} AS k, events AS c FROM ${trusted(DIM_DAILY.name)}
      WHERE site_id = ${siteId} AND ${dayRange(d, 'day', days.rollup)} AND dimension LIKE ${`${PROPERTY_PREFIX}%`} AND key <> ${NONE_KEY}`);
  }
  if (days.raw) parts.push(sql`SELECT ${key('dim')} AS k, events AS c FROM (${measurePropertyPairs(d, siteId, days.raw)}) p`);
  if (parts.length === 0) return null;
  // An alias never takes the name of a column the query reads (ClickHouse resolves it to the alias).
  return sql`SELECT k, sum(c) AS n FROM (${joinSql(parts, ' UNION ALL ')}) u GROUP BY k ORDER BY n DESC, k ASC LIMIT ${limit}`;
}
