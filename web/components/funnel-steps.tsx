// Editing a funnel's steps (2 to 8, each a page path pattern or an event name). Saving new steps
// makes a new version of the funnel; older versions stay readable.
import { frameText } from '../lib/text/frame.js';
import { useId, useState } from 'preact/hooks';
import { ErrorText } from './feedback.js';
import { SubmitButton } from './fields.js';
import { PAGE_PATTERN_LIMITS } from '../../src/core/patterns.js';
import { FUNNEL_STEPS, type FunnelStep, type MatchKind } from '../../src/core/vocabulary.js';

/** The page pattern syntax and the limits the service enforces (docs/admin-api.md, Goals). */
export const PAGE_PATTERN_MAX_LENGTH = PAGE_PATTERN_LIMITS.maxLength;
export const PAGE_PATTERN_HINT = `Pages: * is any text without /, ** any text. At most ${PAGE_PATTERN_LIMITS.maxLength} characters and ${PAGE_PATTERN_LIMITS.maxWildcards} wildcards.`;

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
            <select aria-label={`Step ${index + 1} kind`} value={step.kind} onChange={(event) => update(index, { kind: event.currentTarget.value as MatchKind })}>
              <option value="page">Page</option>
              <option value="event">Event</option>
            </select>
            <input
              aria-label={`Step ${index + 1} pattern`}
              required
              spellcheck={false}
              maxLength={PAGE_PATTERN_MAX_LENGTH}
              aria-describedby={step.kind === 'page' ? hintId : undefined}
              placeholder={step.kind === 'page' ? '/pricing or /blog/*' : 'signup'}
              value={step.pattern}
              onInput={(event) => update(index, { pattern: event.currentTarget.value })}
            />
            <button type="button" aria-label={`Remove step ${index + 1}`} disabled={steps.length <= FUNNEL_STEPS.min} onClick={() => setSteps(steps.filter((_, i) => i !== index))}>
              Remove
            </button>
          </li>
        ))}
      </ol>
      <small id={hintId} class="hint">
        {PAGE_PATTERN_HINT}
      </small>
      <div class="actions">
        <button type="button" disabled={steps.length >= FUNNEL_STEPS.max} onClick={() => setSteps([...steps, { kind: 'page', pattern: '' }])}>
          Add step
        </button>
        <SubmitButton busy={busy} busyLabel="Saving…">
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
