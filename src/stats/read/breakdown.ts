// GET /v1/sites/:id/breakdown: a page of a dimension's keys by visitors over the period, with the
// number of keys and the period's visitors (each key's share).
import type { EventReader } from '../../storage/events/types.js';
import type { BreakdownAnswer } from '../../core/vocabulary.js';
import { breakdownStatements } from '../compile.js';
import { round } from '../measures.js';
import type { PlannedQuery } from '../planner.js';
import { dailyMeasures, sumDays } from './days.js';

export async function computeBreakdown(events: EventReader, q: PlannedQuery): Promise<Omit<BreakdownAnswer, 'period' | 'dimension'>> {
  const statements = breakdownStatements(events.dialect, q);
  const totals = dailyMeasures(events, q, q.plan.period, { sessions: false }).then((days) => sumDays(days, q.period.from, q.period.to).visitors);
  if (statements === null) return { rows: [], totalKeys: 0, totalVisitors: await totals };
  const page = events.query<{ k: string; visitors: unknown; views: unknown; total_keys?: unknown }>(statements.page);
  const countApart = () => events.query<{ n: unknown }>(statements.keyCount).then((r) => Number(r[0]?.n ?? 0));
  const [rows, totalVisitors, counted] = await Promise.all([page, totals, statements.countedOnPage ? null : countApart()]);
  // A page past the last key has no row to carry the count.
  const totalKeys = counted ?? (rows.length > 0 ? Number(rows[0]!.total_keys) : await countApart());
  return {
    rows: rows.map((r) => ({
      key: r.k,
      visitors: Number(r.visitors),
      views: Number(r.views),
      pct: totalVisitors > 0 ? round(Number(r.visitors) / totalVisitors, 4) : 0,
    })),
    totalKeys,
    totalVisitors,
  };
}
