// The English catalogue's words of the site dashboard's segments and the chart's annotations
// (web/components/segments.tsx, annotations.tsx).
export const segments = {
  segmentsButton: 'Segments',
  saveAsSegment: 'Save as segment',
  segmentChip: 'Segment ',
  removeSegment: 'Remove segment',
  renameSegmentLabel: 'Rename segment {name}',
  deleteSegmentLabel: 'Delete segment {name}',
  deleteSegmentQuestion: 'Delete the segment {name}?',
  renameButton: 'Rename',
  deleteButton: 'Delete',
  sharedBadge: 'Shared',
  noSegments: 'No segments yet: add filters, then save them with “Save as segment”.',
  nameField: 'Name',
  sharedWithMembers: "Shared with the site's members",
  annotationMarks: 'Annotations',
  annotationOf: 'Annotation of {day}: {text}',
  addAnnotation: 'Add annotation',
  editAnnotation: 'Edit annotation',
  deleteAnnotationQuestion: 'Delete this annotation?',
  dateField: 'Date',
  textField: 'Text',
};
