// GET /v1/sites/:id/breakdown: a page of a dimension's keys by visitors over the period, with the
// number of keys and the period's visitors (each key's share).
import type { EventReader } from '../../storage/events/types.js';
import type { BreakdownAnswer, BreakdownRow } from '../../core/answers.js';
import { isMetric, METRIC_REGISTRY } from '../../core/metric-registry.js';
import { breakdownStatements, ROW_SESSION_COLUMNS, rowsCountSessions } from '../sql/breakdown.js';
import { scrollDepthStatements } from '../sql/scroll.js';
import { addVitals } from './vitals.js';
import { rowConversionsRead } from './goal-filter.js';
import { goalFilterOf } from '../../core/vocabulary.js';
import { meanHalfUp, metricValue, round, trafficOf } from '../measures.js';
import type { PlannedQuery } from '../planner.js';
import { dailyMeasureStatements } from '../sql/daily.js';
import { dailyMeasures, sumDays } from './days.js';

export async function computeBreakdown(events: EventReader, q: PlannedQuery): Promise<Omit<BreakdownAnswer, 'period' | 'dimension'>> {
  const statements = breakdownStatements(events.dialect, q);
  const addRowConversions = goalFilterOf(q.filters) ? rowConversionsRead(events, q) : null;
  const visitorRows = dailyMeasureStatements(events.dialect, q, q.plan.periodVisitors, false);
  const periodVisitors = () => dailyMeasures(events, visitorRows).then((days) => sumDays(days, q.period.from, q.period.to).visitors);
  if (statements === null) return { rows: [], totalKeys: 0, totalVisitors: await periodVisitors() };
  const sessions = rowsCountSessions(q);
  const [page, visitorsApart] = await Promise.all([
    events.queryPage<{ k: string; visitors: unknown; views: unknown; total_keys?: unknown } & Partial<Record<(typeof ROW_SESSION_COLUMNS)[number], unknown>>>(statements.page),
    statements.visitorsInTotals ? null : periodVisitors(),
  ]);
  if (visitorsApart === null && page.totals === null) throw new Error('the engine answered a breakdown page without its totals row');
  const totalVisitors = visitorsApart ?? Number(page.totals!.visitors);
  // The count of keys as the engine tells it, else as the page's rows carry it (a page past the last
  // key has no row to carry it), else counted apart.
  const onPage = statements.countedOnPage && page.rows.length > 0 ? Number(page.rows[0]!.total_keys) : null;
  const totalKeys = page.rowsBeforeLimit ?? onPage ?? Number((await events.query<{ n: unknown }>(statements.keyCount))[0]?.n ?? 0);
  const rowMetrics = q.breakdown!.include.flatMap((name) => (isMetric(name) ? [name] : []));
  const rows: BreakdownRow[] = page.rows.map((r) => {
    const row: BreakdownRow = { key: r.k, visitors: Number(r.visitors), views: Number(r.views ?? 0), pct: totalVisitors > 0 ? round(Number(r.visitors) / totalVisitors, 4) : 0 };
    // A row's views are an integer (docs/api.md): where every day read lacks them (imported days of a table without pageviews), 0 and said so.
    if (r.views === null) row.viewsUnknown = true;
    // The row's per-session measures (ROW_SESSION_COLUMNS) are the ones these metrics read.
    const measures = sessions ? trafficOf(r) : null;
    for (const metric of rowMetrics) {
      // Where `stats` under the key's filter has no such figure (a dimension or filter of single events), neither has the row.
      const c = METRIC_REGISTRY[metric].computation;
      row[metric] = measures && c.kind !== 'goals' ? metricValue(c, measures) : null;
    }
    return row;
  });
  if (q.breakdown!.include.includes('scrollDepth')) await addScrollDepth(events, q, rows);
  if (q.breakdown!.include.includes('vitals')) await addVitals(events, q, rows);
  if (addRowConversions) await addRowConversions(rows);
  return { rows, totalKeys, totalVisitors };
}

/**
 * Adds to each page's row the mean over its visitors (per day) of their deepest scroll, rounded half
 * up to a whole percent; null when none of them reported one.
 */
async function addScrollDepth(events: EventReader, q: PlannedQuery, rows: BreakdownRow[]): Promise<void> {
  const sums = new Map<string, { s: number; n: number }>();
  const statements = scrollDepthStatements(events.dialect, q.siteId, q.plan.period, rows.map((r) => r.key));
  for (const found of await Promise.all(statements.map((s) => events.query<{ k: string; s: unknown; n: unknown }>(s)))) {
    for (const r of found) {
      const sum = sums.get(r.k) ?? { s: 0, n: 0 };
      sums.set(r.k, { s: sum.s + Number(r.s), n: sum.n + Number(r.n) });
    }
  }
  for (const row of rows) {
    const sum = sums.get(row.key);
    row.scrollDepth = sum && sum.n > 0 ? meanHalfUp(sum.s, sum.n) : null;
  }
}
