// Segments and annotations (docs/api.md, Segments and Annotations): their bounds and what the APIs
// answer of them, declared once for the server, the dashboard and the CLI. Types and data only: the
// dashboard bundles this module.

/** A segment's name: 1 to 80 characters. */
export const SEGMENT_NAME_LENGTH = { min: 1, max: 80 } as const;
/** A segment holds 1 to 10 filters of the read API's syntax. */
export const SEGMENT_FILTERS = { min: 1, max: 10 } as const;
/** Segments a site keeps, shared and personal together. */
export const MAX_SEGMENTS_PER_SITE = 100;

/** An annotation's text: 1 to 200 characters. */
export const ANNOTATION_TEXT_LENGTH = { min: 1, max: 200 } as const;
/** Annotations a site keeps. */
export const MAX_ANNOTATIONS_PER_SITE = 1000;

/** The query parameter that applies a segment to a statistics read. */
export const SEGMENT_PARAM = 'segment';

/** A segment as the read API lists it (`GET /v1/sites/:siteId/segments`: the shared ones). */
export interface SegmentView {
  id: number;
  name: string;
  filters: string[];
}

/** A segment as the management APIs answer it: whether the site's members share it. */
export interface ManagedSegment extends SegmentView {
  shared: boolean;
}

/** A note on a day of a site's chart. */
export interface Annotation {
  id: number;
  /** The site-local day, YYYY-MM-DD. */
  date: string;
  text: string;
  createdAt: number;
}

/** `GET /v1/sites/:siteId/annotations`: the annotations whose day lies in the period, by date. */
export interface AnnotationsAnswer {
  period: { from: string; to: string };
  annotations: Annotation[];
}
