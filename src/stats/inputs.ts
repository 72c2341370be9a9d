// The planner's inputs (`PlanInputs`): what it needs to know of a site's rollups before it decides
// where a query's days come from, gathered before it runs (the rollup bookkeeping, read once by the
// caller, which also labels goal coverage with it, and one statement of ./sql/daily.ts). What to gather follows from the query and the calendar alone (./windows.ts).
import { OTHER_KEY } from '../core/vocabulary.js';
import type { Query } from '../core/query.js';
import type { EventReader } from '../storage/events/types.js';
import type { Site } from '../entities/sites.js';
import type { RollupState } from '../storage/meta/types.js';
import { firstFoldedDayStatement } from './sql/daily.js';
import { importedDaysOf } from './imported-days.js';
import { goalRowsWrittenFrom, SESSION_PATHS_KEY, SESSION_ROWS_KEY, writtenFrom } from './rollups/coverage.js';
import type { PlanInputs } from './planner.js';
import { needsRawEvents, pairsAnswer, rawWindowStart, visitorsFromRollups } from './windows.js';
import { pairMonthsWritten } from './rollups/pairs.js';
import { firstOfMonth } from '../core/period.js';

/**
 * The watermark, the first days session rows, session paths and goal rows (for the goals `goalIds`, those the read counts) are written from, the days of the site's imported
 * aggregates, for a breakdown pair months answer the months of its period they are written for, and for a single filter (other than on `(other)` itself) of a query that may read
 * rollups (its period's visitors alone, for a breakdown: ./windows.ts, visitorsFromRollups), the first day of the raw window, up to the watermark and within the period or its
 * compared one, on which the filter's key was folded.
 */
export async function planInputs(events: EventReader, site: Site, q: Query, rollup: RollupState | undefined, goalIds: readonly number[] = []): Promise<PlanInputs> {
  const watermark = rollup?.watermark ?? null;
  const importedDays = await importedDaysOf(events, site.id);
  const inputs: PlanInputs = {
    watermark,
    retentionMonths: site.retentionMonths,
    rawDays: site.rawDays,
    sessionRowsFrom: writtenFrom(rollup, SESSION_ROWS_KEY),
    sessionPathsFrom: writtenFrom(rollup, SESSION_PATHS_KEY),
    goalRowsFrom: goalRowsWrittenFrom(rollup, goalIds),
    importedDays,
  };
  if (watermark !== null && pairsAnswer(q)) inputs.pairMonths = await pairMonthsWritten(events, site.id, { from: firstOfMonth(q.period.from), to: firstOfMonth(q.period.to) });
  const filter = q.filters.length === 1 ? q.filters[0]! : null;
  if (filter === null || filter.values.includes(OTHER_KEY) || watermark === null || (needsRawEvents(q) && !visitorsFromRollups(q))) return inputs;
  const earliest = q.comparison !== 'off' && q.previous.from < q.period.from ? q.previous.from : q.period.from;
  const windowStart = rawWindowStart(q.today, site.rawDays);
  const from = earliest > windowStart ? earliest : windowStart;
  const to = watermark < q.period.to ? watermark : q.period.to;
  if (from > to) return inputs;
  const rows = await events.query<{ d: string }>(firstFoldedDayStatement(events.dialect, site.id, filter, { from, to }));
  return { ...inputs, firstFoldedDay: rows[0]?.d ?? null };
}
