// What the planner (src/stats/planner.ts) needs to know of a site's rollups before it can decide
// where a query's days come from: the rollups' owner answers it, from its bookkeeping and tables.
import { OTHER_KEY } from '../../core/dimensions.js';
import type { Period } from '../../core/period.js';
import type { Filter, Query } from '../../core/query.js';
import type { EventStore } from '../../storage/events/types.js';
import type { MetaStore, Site } from '../../storage/meta/types.js';
import { sql, trusted } from '../../sql/sql.js';
import { dayRange } from '../compile.js';
import { needsRawEvents, rawWindowStart, type PlanInputs } from '../planner.js';
import { rollupKey } from './job.js';
import { DIM_DAILY } from './tables.js';

/**
 * The first day of `days` on which a filter's key was folded into `(other)` (the dimension has an
 * `(other)` row that day and the key none), or null. On such a day the rollups cannot answer the
 * filter: the key's own counts are inside `(other)`.
 */
async function firstFoldedDay(events: EventStore, siteId: string, filter: Filter, days: Period): Promise<string | null> {
  const d = events.dialect;
  const table = trusted(DIM_DAILY.name);
  // The first row, not min(): engines differ on what an aggregate over no rows gives (and an alias
  // never takes a column's name: ClickHouse resolves the name to the alias in WHERE too).
  const rows = await events.query<{ d: string }>(
    sql`SELECT ${trusted(d.dayText('day'))} AS d FROM ${table} WHERE site_id = ${siteId} AND dimension = ${filter.dimension}
      AND key = ${OTHER_KEY} AND ${dayRange(d, 'day', days)}
      AND day NOT IN (SELECT day FROM ${table} WHERE site_id = ${siteId} AND dimension = ${filter.dimension} AND key = ${filter.value} AND ${dayRange(d, 'day', days)})
      ORDER BY day LIMIT 1`,
  );
  return rows[0]?.d ?? null;
}

/**
 * The watermark, and for a single filter (other than on `(other)` itself) of a query that may read
 * rollups, the first day of the raw window, up to the watermark and within the period or its
 * previous one, on which the filter's key was folded.
 */
export async function planInputs(deps: { events: EventStore; meta: MetaStore }, site: Site, q: Query): Promise<PlanInputs> {
  const watermark = (await deps.meta.getRollupState(rollupKey(deps.events, site.id)))?.watermark ?? null;
  const inputs: PlanInputs = { watermark, retentionMonths: site.retentionMonths };
  const filter = q.filters.length === 1 ? q.filters[0]! : null;
  if (filter === null || filter.value === OTHER_KEY || watermark === null || needsRawEvents(q)) return inputs;
  const earliest = q.previous.from < q.period.from ? q.previous.from : q.period.from;
  const windowStart = rawWindowStart(q.today);
  const from = earliest > windowStart ? earliest : windowStart;
  const to = watermark < q.period.to ? watermark : q.period.to;
  return from <= to ? { ...inputs, firstFoldedDay: await firstFoldedDay(deps.events, site.id, filter, { from, to }) } : inputs;
}
