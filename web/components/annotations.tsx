// The chart's annotations: the notes of the site whose day lies in the period shown, marked on their
// day's bucket (the marker shows the text on hover and focus). Admins and owners add one from the
// chart (`Add annotation`: `Date`, `Text`) and edit or delete one from its marker.
import { frameText } from '../lib/text/frame.js';
import { segmentsText } from '../lib/text/segments.js';
import { fill } from '../lib/i18n.js';
import type { VNode } from 'preact';
import { useMemo, useState } from 'preact/hooks';
import { ConfirmButton } from './confirm.js';
import { ErrorText } from './feedback.js';
import { Form, SubmitButton, TextField } from './fields.js';
import { Modal } from './modal.js';
import type { ChartOverlay } from './chart.js';
import { bucketOfDay, createAnnotation, deleteAnnotation, readAnnotations, updateAnnotation, type AnnotationFields } from '../lib/explore.js';
import { bucketStamp, formatDay } from '../lib/format.js';
import { useAction, useRead } from '../lib/hooks.js';
import { ANNOTATION_TEXT_LENGTH } from '../../src/core/segments.js';
import type { Annotation } from '../../src/core/answers.js';
import type { SiteRow } from '../../src/core/management.js';
import type { TimeseriesAnswer } from '../../src/core/answers.js';
import { roleAtLeast } from '../../src/core/vocabulary.js';

const ADD_ID = 'add-annotation';

function AnnotationDialog({ siteId, annotation, day, onDone }: { siteId: string; annotation: Annotation | undefined; day: string; onDone(changed: boolean): void }) {
  const [fields, setFields] = useState<AnnotationFields>({ date: annotation?.date ?? day, text: annotation?.text ?? '' });
  const save = useAction();
  const remove = useAction();
  const submit = () =>
    save.run(() => (annotation ? updateAnnotation(siteId, annotation.id, fields) : createAnnotation(siteId, fields))).then((saved) => saved && onDone(true));
  return (
    <Modal title={annotation ? segmentsText.editAnnotation : segmentsText.addAnnotation} onClose={() => onDone(false)} returnFocusId={ADD_ID}>
      <Form onSubmit={submit}>
        <TextField label={segmentsText.dateField} type="date" value={fields.date} onValue={(date) => setFields({ ...fields, date })} required />
        <TextField label={segmentsText.textField} value={fields.text} onValue={(text) => setFields({ ...fields, text })} required maxLength={ANNOTATION_TEXT_LENGTH.max} autoFocus />
        <ErrorText message={save.error ?? remove.error} />
        <div class="actions">
          <SubmitButton busy={save.busy}>{frameText.saveButton}</SubmitButton>
          {annotation && (
            <ConfirmButton question={segmentsText.deleteAnnotationQuestion} confirmLabel={segmentsText.deleteButton} onConfirm={() => remove.run(() => deleteAnnotation(siteId, annotation.id)).then((done) => done && onDone(true))}>
              {segmentsText.deleteButton}
            </ConfirmButton>
          )}
          <button type="button" onClick={() => onDone(false)}>
            {frameText.cancelButton}
          </button>
        </div>
      </Form>
    </Modal>
  );
}

/**
 * The markers of `annotations` on the baseline under their buckets (`xs`, out of `width`), those of
 * one bucket stacked; `onSelect` (editing) for those who may change them.
 */
function Marks({ annotations, series, xs, width, height, onSelect }: { annotations: readonly Annotation[]; series: TimeseriesAnswer; xs: readonly number[]; width: number; height: number; onSelect: ((annotation: Annotation) => void) | undefined }) {
  const days = useMemo(() => series.points.map((p) => bucketStamp(p.t, 'day', series.tz)), [series]);
  const stacked = new Map<number, number>();
  if (annotations.length === 0) return null;
  return (
    <ul class="marks" aria-label={segmentsText.annotationMarks} style={{ height: `${height}px` }}>
      {annotations.map((mark) => {
        const index = bucketOfDay(days, mark.date, series.period.to);
        if (index === null) return null;
        const level = stacked.get(index) ?? 0;
        stacked.set(index, level + 1);
        const name = fill(segmentsText.annotationOf, { day: formatDay(mark.date), text: mark.text });
        return (
          // The text opens toward the middle of the chart, so that it never leaves the page.
          <li key={mark.id} class={`mark ${xs[index]! > width / 2 ? 'end' : 'start'}`} style={{ left: `${(xs[index]! / width) * 100}%`, bottom: `${level * 1.1}rem` }}>
            <button type="button" aria-label={name} aria-disabled={onSelect ? undefined : 'true'} onClick={() => onSelect?.(mark)} />
            <span class="mark-text" aria-hidden="true">
              <strong>{formatDay(mark.date)}</strong> {mark.text}
            </span>
          </li>
        );
      })}
    </ul>
  );
}

/** `chart(overlay)` draws the chart with the period's annotations; `Add annotation` under it for admins and owners. */
export function AnnotatedChart({ site, series, chart }: { site: SiteRow; series: TimeseriesAnswer; chart(overlay: ChartOverlay): VNode }) {
  const { period } = series;
  const annotations = useRead(() => readAnnotations(site.id, period), [site.id, period.from, period.to]);
  const [editing, setEditing] = useState<Annotation | 'new' | null>(null);
  const editable = roleAtLeast(site.role, 'admin');
  const onSelect = editable ? setEditing : undefined;
  return (
    <>
      {chart((xs, width, height) => <Marks annotations={annotations.data ?? []} series={series} xs={xs} width={width} height={height} onSelect={onSelect} />)}
      <ErrorText message={annotations.error} />
      {editable && (
        <button type="button" id={ADD_ID} class="link add-annotation" aria-haspopup="dialog" onClick={() => setEditing('new')}>
          {segmentsText.addAnnotation}
        </button>
      )}
      {editing !== null && (
        <AnnotationDialog
          siteId={site.id}
          annotation={editing === 'new' ? undefined : editing}
          day={period.to}
          onDone={(changed) => {
            setEditing(null);
            if (changed) annotations.reload();
          }}
        />
      )}
    </>
  );
}
