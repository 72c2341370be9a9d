// The dashboard's client of a site's segments and annotations (/app/v1/manage/sites/:siteId/…) and
// of the annotations of a period (/app/v1/sites/:siteId/annotations).
import { api } from './api.js';
import { dimensionLabel, filterValueLabel, OPERATOR_LABELS, type GoalNames } from './labels.js';
import { readSite } from './site.js';
import type { Filter } from '../../src/core/vocabulary.js';
import type { Annotation, AnnotationsAnswer, ManagedSegment } from '../../src/core/answers.js';

/** Filters as the chips say them, in one line: `Country is France, Goal is Signup`. */
export const filtersInWords = (filters: readonly Filter[], goals?: GoalNames): string =>
  filters.map((f) => `${dimensionLabel(f.dimension)} ${OPERATOR_LABELS[f.operator ?? 'is']} ${filterValueLabel(f, goals)}`).join(', ');

const managed = (siteId: string, kind: 'segments' | 'annotations', id?: number) => `/manage/sites/${encodeURIComponent(siteId)}/${kind}${id === undefined ? '' : `/${id}`}`;

/** The site's shared segments and the user's own. */
export const listSegments = (siteId: string) => api<{ segments: ManagedSegment[] }>('GET', managed(siteId, 'segments')).then((a) => a.segments);

export const createSegment = (siteId: string, segment: { name: string; filters: string[]; shared: boolean }) => api<ManagedSegment>('POST', managed(siteId, 'segments'), segment);

export const renameSegment = (siteId: string, id: number, name: string) => api<ManagedSegment>('PATCH', managed(siteId, 'segments', id), { name });

export const deleteSegment = (siteId: string, id: number) => api<void>('DELETE', managed(siteId, 'segments', id));

/** The annotations whose day lies in `from`..`to` (site-local days). */
export const readAnnotations = (siteId: string, period: { from: string; to: string }) =>
  readSite<AnnotationsAnswer>(siteId, { path: '/annotations', params: new URLSearchParams(period) }).then((a) => a.annotations);

export type AnnotationFields = Pick<Annotation, 'date' | 'text'>;

export const createAnnotation = (siteId: string, fields: AnnotationFields) => api<Annotation>('POST', managed(siteId, 'annotations'), fields);

export const updateAnnotation = (siteId: string, id: number, fields: AnnotationFields) => api<Annotation>('PATCH', managed(siteId, 'annotations', id), fields);

export const deleteAnnotation = (siteId: string, id: number) => api<void>('DELETE', managed(siteId, 'annotations', id));

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
