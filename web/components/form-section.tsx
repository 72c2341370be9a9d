// A titled form in a card: its fields in one row, the submit button last, its failure below.
import type { ComponentChildren } from 'preact';
import type { Action } from '../lib/hooks.js';
import { ErrorText } from './feedback.js';
import { Form, SubmitButton } from './fields.js';

export function FormSection({
  title,
  label = title,
  action,
  onSubmit,
  submitLabel,
  busyLabel,
  hint,
  children,
}: {
  /** The heading above the form. */
  title: string;
  /** The form's accessible name; the heading's text unless given. */
  label?: string;
  /** The action `onSubmit` runs: its busy state disables the button, its failure shows below. */
  action: Action;
  onSubmit(): void;
  submitLabel: string;
  busyLabel: string;
  /** Shown between the form and its failure. */
  hint?: ComponentChildren;
  children: ComponentChildren;
}) {
  return (
    <>
      <h3>{title}</h3>
      <Form onSubmit={onSubmit} class="form inline" label={label}>
        {children}
        <div class="submit-cell">
          <SubmitButton busy={action.busy} busyLabel={busyLabel}>
            {submitLabel}
          </SubmitButton>
        </div>
      </Form>
      {hint}
      <ErrorText message={action.error} />
    </>
  );
}
