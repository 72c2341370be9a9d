// Why a KPI tile has no value, in words, from what the metric registry declares: whether it is
// counted over goals (null while the site has none, and under filters past the raw window, where
// goals are counted from raw events alone). The dashboard reads with `raw=clip`, under which every
// traffic metric takes every filter (visits under event filters).
import { type Metric, METRIC_REGISTRY } from '../../src/core/metric-registry.js';
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
  if (METRIC_REGISTRY[metric].computation.kind !== 'goals') return undefined;
  if (filters.length > 0 && hasGoals !== false) return { cause: 'filters', text: 'Not counted this far back under filters' };
  return { cause: 'goals', text: 'No goals yet' };
}
