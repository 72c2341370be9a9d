// `breakdown?dimension=page&include=vitals`: each page's web vitals, the 75th percentile by nearest
// rank of the values its engage events reported over the period (docs/api.md, Web vitals).
import type { BreakdownRow, VitalsFigures } from '../../core/answers.js';
import { VITAL_NAMES, type WebVital } from '../../core/vocabulary.js';
import type { EventReader } from '../../storage/events/types.js';
import type { PlannedQuery } from '../planner.js';
import { REPORTS_VITAL, vitalsStatements } from '../sql/vitals.js';

/** The share of a vital's reports at or below its percentile. */
const PERCENTILE = 0.75;

/**
 * The nearest-rank percentile of a multiset given as counts per value: the smallest value with at
 * least ⌈p·n⌉ of the n values at or below it; null when it is empty.
 */
export function nearestRank(counts: ReadonlyMap<number, number>, p = PERCENTILE): number | null {
  let n = 0;
  for (const count of counts.values()) n += count;
  if (n === 0) return null;
  const rank = Math.ceil(p * n);
  let seen = 0;
  for (const value of [...counts.keys()].sort((a, b) => a - b)) {
    seen += counts.get(value)!;
    if (seen >= rank) return value;
  }
  return null;
}

/** Adds to each page's row its vitals (VitalsFigures), read from vitals_daily and raw events. */
export async function addVitals(events: EventReader, q: PlannedQuery, rows: BreakdownRow[]): Promise<void> {
  // Per page, per vital (and the reports of any), the count of each value over every source.
  const counts = new Map<string, Map<string, Map<number, number>>>();
  const statements = vitalsStatements(events.dialect, q.siteId, q.plan.period, rows.map((r) => r.key));
  for (const found of await Promise.all(statements.map((s) => events.query<{ k: string; vital: string; value: unknown; reports: unknown }>(s)))) {
    for (const r of found) {
      const page = counts.get(r.k) ?? new Map<string, Map<number, number>>();
      counts.set(r.k, page);
      const values = page.get(r.vital) ?? new Map<number, number>();
      page.set(r.vital, values);
      const value = Number(r.value);
      values.set(value, (values.get(value) ?? 0) + Number(r.reports));
    }
  }
  const none = new Map<number, number>();
  for (const row of rows) {
    const page = counts.get(row.key);
    const figures = { reports: page?.get(REPORTS_VITAL)?.get(0) ?? 0 } as VitalsFigures;
    for (const vital of VITAL_NAMES) figures[vital as WebVital] = nearestRank(page?.get(vital) ?? none);
    row.vitals = figures;
  }
}
