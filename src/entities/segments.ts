// Segments and annotations of a site as stored (the MetaStore stores them: src/storage/meta/types.ts);
// what the APIs answer of them is the vocabulary's (src/core/segments.ts).
import type { Annotation, ManagedSegment } from '../core/answers.js';

/** A segment: shared with the site's members, or personal to its owner. */
export interface Segment extends ManagedSegment {
  siteId: number; // internal
  /** The user who made it (for a personal segment, the only one who sees it); null for the operator's. */
  ownerUserId: number | null;
  createdAt: number;
}

export type NewSegment = Pick<Segment, 'name' | 'filters' | 'shared' | 'ownerUserId'>;
export type SegmentPatch = Partial<NewSegment>;

export type NewAnnotation = Pick<Annotation, 'date' | 'text'>;
export type AnnotationPatch = Partial<NewAnnotation>;

/** Who looks at a site's segments: a signed-in user sees the shared ones and its own; anyone else the shared ones. */
export interface SegmentViewer {
  userId?: number;
}

/** Whether a viewer sees a segment. */
export const segmentVisibleTo = (segment: Segment, viewer: SegmentViewer): boolean => segment.shared || (viewer.userId !== undefined && segment.ownerUserId === viewer.userId);
