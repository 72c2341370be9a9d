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
  const periodVisitors = () => dailyMeasures(events, q, q.plan.period, { sessions: false }).then((days) => sumDays(days, q.period.from, q.period.to).visitors);
  if (statements === null) return { rows: [], totalKeys: 0, totalVisitors: await periodVisitors() };
  const [page, visitorsApart] = await Promise.all([
    events.queryPage<{ k: string; visitors: unknown; views: unknown; total_keys?: unknown }>(statements.page),
    statements.visitorsInTotals ? null : periodVisitors(),
  ]);
  if (visitorsApart === null && page.totals === null) throw new Error('the engine answered a breakdown page without its totals row');
  const totalVisitors = visitorsApart ?? Number(page.totals!.visitors);
  // The count of keys as the engine tells it, else as the page's rows carry it (a page past the last
  // key has no row to carry it), else counted apart.
  const onPage = statements.countedOnPage && page.rows.length > 0 ? Number(page.rows[0]!.total_keys) : null;
  const totalKeys = page.rowsBeforeLimit ?? onPage ?? Number((await events.query<{ n: unknown }>(statements.keyCount))[0]?.n ?? 0);
  return {
    rows: page.rows.map((r) => ({
      key: r.k,
      visitors: Number(r.visitors),
      views: Number(r.views),
      pct: totalVisitors > 0 ? round(Number(r.visitors) / totalVisitors, 4) : 0,
    })),
    totalKeys,
    totalVisitors,
  };
}
