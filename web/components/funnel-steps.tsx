// Editing a funnel's steps (2 to 8, each a page path pattern or an event name). Saving new steps
// makes a new version of the funnel; older versions stay readable.
import { frameText } from '../lib/text/frame.js';
import { goalEditorText } from '../lib/text/goal-editor.js';
import { namesText } from '../lib/text/names.js';
import { fill } from '../lib/i18n.js';
import { useId, useState } from 'preact/hooks';
import { ErrorText } from './feedback.js';
import { SubmitButton } from './fields.js';
import { PAGE_PATTERN_LIMITS } from '../../src/core/patterns.js';
import { FUNNEL_STEPS, type FunnelStep, type MatchKind } from '../../src/core/vocabulary.js';

/** The page pattern syntax and the limits the service enforces (docs/admin-api.md, Goals). */
export const PAGE_PATTERN_MAX_LENGTH = PAGE_PATTERN_LIMITS.maxLength;
export const pagePatternHint = (): string => fill(goalEditorText.patternSyntax, { length: PAGE_PATTERN_LIMITS.maxLength, wildcards: PAGE_PATTERN_LIMITS.maxWildcards });

export function StepsEditor({
  initial,
  submitLabel,
  busy,
  error,
  onSave,
  onCancel,
  name,
}: {
  initial: FunnelStep[];
  submitLabel: string;
  busy: boolean;
  error: string | undefined;
  onSave(steps: FunnelStep[]): void;
  onCancel?: () => void;
  /** Names the form for assistive technology ("Steps of Checkout"). */
  name: string;
}) {
  const [steps, setSteps] = useState<FunnelStep[]>(initial);
  const hintId = useId();
  const update = (index: number, change: Partial<FunnelStep>) => setSteps(steps.map((step, i) => (i === index ? { ...step, ...change } : step)));
  return (
    <form
      class="form"
      aria-label={name}
      onSubmit={(event) => {
        event.preventDefault();
        onSave(steps);
      }}
    >
      <ol class="steps">
        {steps.map((step, index) => (
          <li key={index}>
            <span class="n" aria-hidden="true">
              {index + 1}.
            </span>
            <select aria-label={fill(goalEditorText.stepKind, { n: index + 1 })} value={step.kind} onChange={(event) => update(index, { kind: event.currentTarget.value as MatchKind })}>
              <option value="page">{namesText.dimensionNames.page}</option>
              <option value="event">{namesText.dimensionNames.event}</option>
            </select>
            <input
              aria-label={fill(goalEditorText.stepPattern, { n: index + 1 })}
              required
              spellcheck={false}
              maxLength={PAGE_PATTERN_MAX_LENGTH}
              aria-describedby={step.kind === 'page' ? hintId : undefined}
              placeholder={step.kind === 'page' ? goalEditorText.stepPatternExample : 'signup'}
              value={step.pattern}
              onInput={(event) => update(index, { pattern: event.currentTarget.value })}
            />
            <button type="button" aria-label={fill(goalEditorText.removeStep, { n: index + 1 })} disabled={steps.length <= FUNNEL_STEPS.min} onClick={() => setSteps(steps.filter((_, i) => i !== index))}>
              {goalEditorText.removeButton}
            </button>
          </li>
        ))}
      </ol>
      <small id={hintId} class="hint">
        {pagePatternHint()}
      </small>
      <div class="actions">
        <button type="button" disabled={steps.length >= FUNNEL_STEPS.max} onClick={() => setSteps([...steps, { kind: 'page', pattern: '' }])}>
          {goalEditorText.addStep}
        </button>
        <SubmitButton busy={busy} busyLabel={goalEditorText.savingNote}>
          {submitLabel}
        </SubmitButton>
        {onCancel && (
          <button type="button" onClick={onCancel}>
            {frameText.cancelButton}
          </button>
        )}
      </div>
      <ErrorText message={error} />
    </form>
  );
}
