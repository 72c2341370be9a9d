// GET /v1/sites/:id/journeys: the most frequent paths through a site's sessions over the period
// (docs/api.md, Journeys), read from session paths and raw events, as the plan's journey days say,
// in one statement (../sql/journeys.ts).
import type { EventReader } from '../../storage/events/types.js';
import type { JourneyRow, JourneysAnswer } from '../../core/answers.js';
import { journeysStatement, type JourneyRowColumns } from '../sql/journeys.js';
import type { PlannedQuery } from '../planner.js';

export async function computeJourneys(events: EventReader, q: PlannedQuery): Promise<Pick<JourneysAnswer, 'rows' | 'totalSessions'>> {
  const days = q.plan.journeyDays;
  if (days === null) return { rows: [], totalSessions: 0 };
  const page = await events.queryPage<JourneyRowColumns>(journeysStatement(events.dialect, q.siteId, days, q.filters, q.journey!, q.pageLock));
  const rows: JourneyRow[] = page.rows.map((r) => ({ path: (r.jp as unknown[]).map(String), sessions: Number(r.sessions), visitors: Number(r.visitors) }));
  // The sessions that contributed a row: the totals row's sum (ClickHouse), else the window's on each row (DuckDB; no row, no session).
  const totalSessions = page.totals !== null ? Number(page.totals.sessions) : Number(page.rows[0]?.total_sessions ?? 0);
  return { rows, totalSessions };
}
