// Why a KPI tile has no value, in words, from what the metric registry declares: whether it is
// counted over goals (null while the site has none, and under filters past the raw window, where
// goals are counted from raw events alone). The dashboard reads with `raw=clip`, under which every
// traffic metric takes every filter (visits under event filters). Under filters a ratio is read from
// raw events, which hold every measure, so a null one divides by none: the reason names what there
// is none of (without filters it may also be a measure imported history lacks, and no reason is given).
import { type Metric, METRIC_REGISTRY, type ReadMeasureName } from '../../src/core/metric-registry.js';
import type { Filter } from '../../src/core/vocabulary.js';
import { dashboardText } from './text/dashboard.js';

export interface NullReason {
  /** What the filters or the site's goals stop, or that the view holds none of what a ratio divides by. */
  cause: 'filters' | 'goals' | 'empty';
  text: string;
}

/**
 * The reason a metric's value is null in a view with these filters; undefined when the registry
 * gives none. `hasGoals`: whether the site has goals, undefined while unknown.
 */
export function nullReason(metric: Metric, filters: readonly Filter[], hasGoals?: boolean): NullReason | undefined {
  const computation = METRIC_REGISTRY[metric].computation;
  if (computation.kind === 'ratio') return filters.length > 0 ? { cause: 'empty', text: emptyDenominator(computation.denominator, filters) } : undefined;
  if (computation.kind !== 'goals') return undefined;
  if (filters.length > 0 && hasGoals !== false) return { cause: 'filters', text: dashboardText.notCountedFarBack };
  return { cause: 'goals', text: dashboardText.noGoalsYet };
}

/** What a ratio's view holds none of, by the measure it divides by. */
function emptyDenominator(denominator: ReadMeasureName, filters: readonly Filter[]): string {
  switch (denominator) {
    // Under a page or hostname filter, bounce rate counts the visits that entered on a matching page.
    case 'landings':
      return filters.some((f) => f.dimension === 'page' || f.dimension === 'hostname') ? dashboardText.noVisitEntered : dashboardText.noVisits;
    case 'engagedViews':
      return dashboardText.noTimeOnPage;
    case 'baseVisitors':
      return dashboardText.noVisitors;
    default:
      return dashboardText.noVisits;
  }
}
