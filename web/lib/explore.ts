// The dashboard's client of a site's segments and annotations (/app/v1/manage/sites/:siteId/…) and
// of the annotations of a period (/app/v1/sites/:siteId/annotations).
import { call } from './client.js';
import { dimensionLabel, filterValueLabel, operatorLabel, type GoalNames } from './labels.js';
import { readSite } from './site.js';
import type { Filter } from '../../src/core/vocabulary.js';
import type { Annotation, AnnotationsAnswer } from '../../src/core/answers.js';

/** Filters as the chips say them, in one line: `Country is France, Goal is Signup`. */
export const filtersInWords = (filters: readonly Filter[], goals?: GoalNames): string =>
  filters.map((f) => `${dimensionLabel(f.dimension)} ${operatorLabel(f.operator ?? 'is')} ${filterValueLabel(f, goals)}`).join(', ');

/** The site's shared segments and the user's own. */
export const listSegments = (siteId: string) => call('GET /manage/sites/:siteId/segments', { params: { siteId } }).then((a) => a.segments);

export const createSegment = (siteId: string, segment: { name: string; filters: string[]; shared: boolean }) => call('POST /manage/sites/:siteId/segments', { params: { siteId }, body: segment });

export const renameSegment = (siteId: string, id: number, name: string) => call('PATCH /manage/sites/:siteId/segments/:segmentId', { params: { siteId, segmentId: id }, body: { name } });

export const deleteSegment = (siteId: string, id: number) => call('DELETE /manage/sites/:siteId/segments/:segmentId', { params: { siteId, segmentId: id } });

/** The annotations whose day lies in `from`..`to` (site-local days). */
export const readAnnotations = (siteId: string, period: { from: string; to: string }) =>
  readSite<AnnotationsAnswer>(siteId, { path: '/annotations', params: new URLSearchParams(period) }).then((a) => a.annotations);

export type AnnotationFields = Pick<Annotation, 'date' | 'text'>;

export const createAnnotation = (siteId: string, fields: AnnotationFields) => call('POST /manage/sites/:siteId/annotations', { params: { siteId }, body: fields });

export const updateAnnotation = (siteId: string, id: number, fields: AnnotationFields) => call('PATCH /manage/sites/:siteId/annotations/:annotationId', { params: { siteId, annotationId: id }, body: fields });

export const deleteAnnotation = (siteId: string, id: number) => call('DELETE /manage/sites/:siteId/annotations/:annotationId', { params: { siteId, annotationId: id } });

/**
 * The bucket a site-local day (`YYYY-MM-DD`) falls in: the last one that starts on or before it
 * (`days[i]` is bucket i's first day); null for a day before the first bucket or after `lastDay`.
 */
export function bucketOfDay(days: readonly string[], day: string, lastDay: string): number | null {
  if (day > lastDay) return null;
  let index: number | null = null;
  days.forEach((start, i) => start <= day && (index = i));
  return index;
}
