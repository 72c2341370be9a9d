// `Segments`, beside `Filter`: the site's shared segments and the user's own, each applied with a
// click (`segment=<id>` in the address: the server adds its filters to every read), renamed or
// deleted by whoever may change it (its owner; admins and owners for shared ones); and `Save as
// segment`, which keeps the view's filters (with the applied segment's) under a name, shared with
// the site's members when an admin or owner says so, and applies it.
import { frameText } from '../lib/text/frame.js';
import { periodText } from '../lib/text/period.js';
import { segmentsText } from '../lib/text/segments.js';
import { fill } from '../lib/i18n.js';
import { useState } from 'preact/hooks';
import { ConfirmButton } from './confirm.js';
import { ErrorText, LoadState } from './feedback.js';
import { CheckboxField, Form, SubmitButton, TextField } from './fields.js';
import { Modal } from './modal.js';
import { createSegment, deleteSegment, filtersInWords, listSegments, renameSegment } from '../lib/explore.js';
import type { GoalNames } from '../lib/labels.js';
import { useAction, useRead, type Read } from '../lib/hooks.js';
import { parseViewState, type ViewState } from '../../src/core/view-state.js';
import { SEGMENT_NAME_LENGTH } from '../../src/core/segments.js';
import type { ManagedSegment } from '../../src/core/answers.js';
import type { SiteRow } from '../../src/core/management.js';
import { filterParam, roleAtLeast, type Filter } from '../../src/core/vocabulary.js';

interface SegmentsProps {
  site: SiteRow;
  state: ViewState;
  go(next: ViewState): void;
  /** The site's goals' names, for goal filters said in words. */
  goals: GoalNames;
}

const BUTTON_ID = 'segments-button';

/** The view with segment `segment` (none for undefined), without its own filters on the segment's dimensions: the API takes one filter per dimension. */
function withSegment(state: ViewState, segment: { id: number; filters: readonly Filter[] } | undefined): ViewState {
  const next: ViewState = { period: state.period, filters: state.filters, metric: state.metric, comparison: state.comparison };
  if (!segment) return next;
  const taken = new Set(segment.filters.map((f) => f.dimension));
  return { ...next, segment: segment.id, filters: state.filters.filter((f) => !taken.has(f.dimension)) };
}

/** A segment's filters (the API's `filter` texts) as the view holds them. */
const filtersOf = (texts: readonly string[]): Filter[] => parseViewState(new URLSearchParams(texts.map((f) => ['filter', f]))).filters;

/** The view with `segment` applied (its filters replace the view's own on the same dimensions). */
const applied = (state: ViewState, segment: ManagedSegment | undefined): ViewState => withSegment(state, segment && { id: segment.id, filters: filtersOf(segment.filters) });

function SegmentRow({ site, segment, goals, current, onApply, onChanged }: { site: SiteRow; segment: ManagedSegment; goals: GoalNames; current: boolean; onApply(): void; onChanged(deleted: boolean): void }) {
  const [renaming, setRenaming] = useState<string | null>(null);
  const change = useAction();
  const editable = !segment.shared || roleAtLeast(site.role, 'admin');
  if (renaming !== null) {
    return (
      <li class="segment">
        <Form label={fill(segmentsText.renameSegmentLabel, { name: segment.name })} onSubmit={() => change.run(() => renameSegment(site.id, segment.id, renaming.trim())).then((done) => {
              if (!done) return;
              setRenaming(null);
              onChanged(false);
            })}
        >
          <TextField label={segmentsText.nameField} value={renaming} onValue={setRenaming} required maxLength={SEGMENT_NAME_LENGTH.max} autoFocus />
          <div class="actions">
            <SubmitButton busy={change.busy}>{frameText.saveButton}</SubmitButton>
            <button type="button" onClick={() => setRenaming(null)}>
              {frameText.cancelButton}
            </button>
          </div>
          <ErrorText message={change.error} />
        </Form>
      </li>
    );
  }
  return (
    <li class="segment">
      <button type="button" class="segment-apply" aria-pressed={current} onClick={onApply}>
        {segment.name}
      </button>
      {segment.shared && <span class="badge">{segmentsText.sharedBadge}</span>}
      <span class="muted">{filtersInWords(filtersOf(segment.filters), goals)}</span>
      {editable && (
        <span class="segment-actions">
          <button type="button" aria-label={fill(segmentsText.renameSegmentLabel, { name: segment.name })} onClick={() => setRenaming(segment.name)}>
            {segmentsText.renameButton}
          </button>
          <ConfirmButton label={fill(segmentsText.deleteSegmentLabel, { name: segment.name })} question={fill(segmentsText.deleteSegmentQuestion, { name: segment.name })} confirmLabel={segmentsText.deleteButton} onConfirm={() => change.run(() => deleteSegment(site.id, segment.id)).then((done) => done && onChanged(true))}>
            {segmentsText.deleteButton}
          </ConfirmButton>
        </span>
      )}
      <ErrorText message={change.error} />
    </li>
  );
}

function SegmentsDialog({ site, state, go, goals, segments, onClose }: SegmentsProps & { segments: Read<ManagedSegment[]>; onClose(): void }) {
  return (
    <Modal title={segmentsText.segmentsButton} onClose={onClose} returnFocusId={BUTTON_ID}>
      <LoadState state={segments}>
        {(list) =>
          list.length === 0 ? (
            <p class="muted">{segmentsText.noSegments}</p>
          ) : (
            <ul class="segments plain">
              {list.map((segment) => (
                <SegmentRow
                  key={segment.id}
                  site={site}
                  segment={segment}
                  goals={goals}
                  current={segment.id === state.segment}
                  onApply={() => {
                    go(applied(state, segment));
                    onClose();
                  }}
                  onChanged={(deleted) => {
                    if (deleted && segment.id === state.segment) go(applied(state, undefined));
                    segments.reload();
                  }}
                />
              ))}
            </ul>
          )
        }
      </LoadState>
      <div class="actions">
        <button type="button" onClick={onClose}>
          {periodText.closeButton}
        </button>
      </div>
    </Modal>
  );
}

function SaveDialog({ site, state, go, goals, current, onSaved, onClose }: SegmentsProps & { current: ManagedSegment | undefined; onSaved(): void; onClose(): void }) {
  const [name, setName] = useState('');
  const [shared, setShared] = useState(false);
  const save = useAction();
  // What the view shows: the applied segment's filters and the view's own.
  const filters = [...(current?.filters ?? []), ...state.filters.map(filterParam)];
  const submit = async () => {
    let made: ManagedSegment | undefined;
    if (await save.run(async () => (made = await createSegment(site.id, { name: name.trim(), filters, shared })))) {
      go(applied(state, made));
      onSaved();
      onClose();
    }
  };
  return (
    <Modal title={segmentsText.saveAsSegment} onClose={onClose} returnFocusId={BUTTON_ID}>
      <Form onSubmit={submit}>
        <p class="muted">{filtersInWords(filtersOf(filters), goals)}</p>
        <TextField label={segmentsText.nameField} value={name} onValue={setName} required maxLength={SEGMENT_NAME_LENGTH.max} autoFocus />
        {roleAtLeast(site.role, 'admin') && <CheckboxField label={segmentsText.sharedWithMembers} checked={shared} onChecked={setShared} />}
        <ErrorText message={save.error} />
        <div class="actions">
          <SubmitButton busy={save.busy}>{frameText.saveButton}</SubmitButton>
          <button type="button" onClick={onClose}>
            {frameText.cancelButton}
          </button>
        </div>
      </Form>
    </Modal>
  );
}

export function SegmentsMenu(props: SegmentsProps) {
  const { site, state, go } = props;
  const segments = useRead(() => listSegments(site.id), [site.id]);
  const [open, setOpen] = useState<'list' | 'save' | null>(null);
  const current = state.segment === undefined ? undefined : segments.data?.find((s) => s.id === state.segment);
  const close = () => setOpen(null);
  return (
    <>
      <button type="button" id={BUTTON_ID} aria-haspopup="dialog" aria-expanded={open === 'list'} onClick={() => setOpen('list')}>
        {segmentsText.segmentsButton}
      </button>
      {(state.filters.length > 0 || current) && (
        <button type="button" aria-haspopup="dialog" aria-expanded={open === 'save'} onClick={() => setOpen('save')}>
          {segmentsText.saveAsSegment}
        </button>
      )}
      {state.segment !== undefined && (
        <span class="chip segment-chip">
          <span>
            {segmentsText.segmentChip}
            <strong>{current?.name ?? (segments.loading ? '…' : `#${state.segment}`)}</strong>
          </span>
          <button
            type="button"
            aria-label={segmentsText.removeSegment}
            title={segmentsText.removeSegment}
            onClick={() => {
              go(applied(state, undefined));
              document.getElementById(BUTTON_ID)?.focus();
            }}
          >
            ×
          </button>
        </span>
      )}
      {segments.error && !open && <ErrorText message={segments.error} />}
      {open === 'list' && <SegmentsDialog {...props} segments={segments} onClose={close} />}
      {open === 'save' && <SaveDialog {...props} current={current} onSaved={segments.reload} onClose={close} />}
    </>
  );
}
