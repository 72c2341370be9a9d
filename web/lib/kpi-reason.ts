// Why a KPI tile has no value, in words, from what the metric registry declares: the filters a
// metric takes (its `filters`, against the scopes of the active filters' dimensions) and whether it
// is counted over goals (null while the site has none, and under filters past the raw window,
// where goals are counted from raw events alone).
import { dimensionLabel, inSentence } from './labels.js';
import { type Metric, METRIC_REGISTRY, metricTakesFilters } from '../../src/core/metric-registry.js';
import type { Filter } from '../../src/core/vocabulary.js';

export interface NullReason {
  /** What the filters or the site's goals stop. */
  cause: 'filters' | 'goals';
  text: string;
}

/**
 * The reason a metric's value is null in a view with these filters; undefined when the registry
 * gives none. `hasGoals`: whether the site has goals, undefined while unknown.
 */
export function nullReason(metric: Metric, filters: readonly Filter[], hasGoals?: boolean): NullReason | undefined {
  const spec = METRIC_REGISTRY[metric];
  if (!metricTakesFilters(metric, filters)) {
    if (spec.filters === 'none') return { cause: 'filters', text: 'Not counted under filters' };
    const refused = filters.filter((f) => !metricTakesFilters(metric, [f])).map((f) => inSentence(dimensionLabel(f.dimension)));
    return { cause: 'filters', text: `Not available with a ${refused.join(' or ')} filter` };
  }
  if (spec.computation.kind !== 'goals') return undefined;
  if (filters.length > 0 && hasGoals !== false) return { cause: 'filters', text: 'Not counted this far back under filters' };
  return { cause: 'goals', text: 'No goals yet' };
}
