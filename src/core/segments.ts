// Segments and annotations (docs/api.md, Segments and Annotations): their bounds, declared once for
// the server, the dashboard and the CLI (what the APIs answer of them is in ./answers.ts). Data only:
// the dashboard bundles this module.

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
