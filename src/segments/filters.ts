// A segment's filters: checked when a segment is saved as the read API checks a request's, and
// added to a statistics request's own at the parse stage (`segment=<id>`), so that a request with a
// segment reads exactly what it reads with the segment's filters written out (docs/api.md, Segments).
import { apiError } from '../core/errors.js';
import { goalsOfFilter, parseFilters, single, type RawParams } from '../core/query.js';
import { SEGMENT_FILTERS, SEGMENT_PARAM } from '../core/segments.js';
import { goalFilterOf, splitFilterParam } from '../core/vocabulary.js';
import { segmentVisibleTo, type Segment, type SegmentViewer } from '../entities/segments.js';
import type { Site } from '../entities/sites.js';
import type { MetaStore } from '../storage/meta/types.js';

/**
 * A body's `filters`: 1 to 10 filter parameters, each one the read API takes, one per dimension, a
 * goal filter naming goals of the site only (a read would refuse any other); else 400 with the
 * catalogue's message.
 */
export async function segmentFiltersOf(value: unknown, meta: MetaStore, site: Site): Promise<string[]> {
  const count = Array.isArray(value) ? value.length : 0;
  if (!Array.isArray(value) || count < SEGMENT_FILTERS.min || count > SEGMENT_FILTERS.max || !value.every((v) => typeof v === 'string')) {
    throw apiError('INVALID_PARAMS', 'segmentFilters', SEGMENT_FILTERS);
  }
  const goalFilter = goalFilterOf(parseFilters(value as string[]));
  if (goalFilter) goalsOfFilter(goalFilter, await meta.listGoals(site.internalId));
  return value as string[];
}

/** The dimension a filter parameter names (its whole text when it has no separator, as parseFilters reads it). */
const dimensionOf = (text: string) => splitFilterParam(text)?.dimension ?? text;

/** The segment of an id in a path or a parameter, when the viewer sees it; else 404. */
export async function visibleSegment(meta: MetaStore, site: Site, id: string | undefined, viewer: SegmentViewer): Promise<Segment> {
  const segment = id !== undefined && /^[1-9]\d{0,15}$/.test(id) ? await meta.getSegment(site.internalId, Number(id)) : undefined;
  if (!segment || !segmentVisibleTo(segment, viewer)) throw apiError('NOT_FOUND', 'segment');
  return segment;
}

/**
 * A statistics request's parameters with its segment's filters added to its own `filter`s (and
 * `segment` gone): the request as if it had written them out. Without `segment`, the parameters as
 * they are. A segment the viewer does not see is 404 like an unknown one; a dimension filtered by
 * both the request and the segment is 400.
 */
export async function segmentedParams(meta: MetaStore, site: Site, params: RawParams, viewer: SegmentViewer): Promise<RawParams> {
  const id = single(params, SEGMENT_PARAM);
  if (id === undefined) return params;
  const segment = await visibleSegment(meta, site, id, viewer);
  const own = params.filter === undefined ? [] : ([] as string[]).concat(params.filter);
  const dimensions = new Set(own.map(dimensionOf));
  const twice = segment.filters.find((text) => dimensions.has(dimensionOf(text)));
  if (twice !== undefined) throw apiError('INVALID_PARAMS', 'segmentFilterTwice', { dimension: dimensionOf(twice) });
  const { [SEGMENT_PARAM]: _segment, ...rest } = params;
  return { ...rest, filter: [...own, ...segment.filters] };
}
