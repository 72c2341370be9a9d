// Labelled form controls: the visible label is the control's accessible name.
import type { ComponentChildren, InputHTMLAttributes } from 'preact';
import { useId, useLayoutEffect, useRef } from 'preact/hooks';
import { frameText } from '../lib/text/frame.js';

interface InputProps {
  label: string;
  value: string;
  onValue(value: string): void;
  hint?: string;
  type?: 'text' | 'email' | 'password' | 'number' | 'url' | 'date';
  autoComplete?: string;
  required?: boolean;
  /** Shown and sent, never edited (an invitation's email). */
  readOnly?: boolean;
  minLength?: number;
  maxLength?: number;
  min?: number;
  max?: number;
  placeholder?: string;
  spellcheck?: boolean;
  /** Takes the focus when the field first shows (the first field of a page's only form). */
  autoFocus?: boolean;
}

export function TextField({ label, value, onValue, hint, type = 'text', autoFocus = false, ...input }: InputProps) {
  const id = useId();
  const field = useRef<HTMLInputElement>(null);
  // A layout effect: the focus lands in the render that shows the field, before the first paint, so
  // it never moves away from a field the user (or a test) has already started typing into. In a
  // modal dialog, which is hidden until it shows, the `autofocus` attribute is what showModal follows.
  useLayoutEffect(() => {
    if (autoFocus) field.current?.focus();
  }, []);
  // Preact types each input type's attributes apart; these props fit every type listed above.
  const attributes = { ...input, type } as InputHTMLAttributes<HTMLInputElement>;
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <input ref={field} id={id} value={value} autoFocus={autoFocus} onInput={(event) => onValue(event.currentTarget.value)} aria-describedby={describedBy(id, hint)} {...attributes} />
      <FieldHint id={id} hint={hint} />
    </div>
  );
}

/** A labelled multi-line text control. */
export function TextAreaField({ label, value, onValue, hint, placeholder, spellcheck }: { label: string; value: string; onValue(value: string): void; hint?: string; placeholder?: string; spellcheck?: boolean }) {
  const id = useId();
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <textarea id={id} rows={3} value={value} placeholder={placeholder} spellcheck={spellcheck} onInput={(event) => onValue(event.currentTarget.value)} aria-describedby={describedBy(id, hint)} />
      <FieldHint id={id} hint={hint} />
    </div>
  );
}

/** The id of a control's hint (FieldHint), when it has one. */
const describedBy = (id: string, hint: string | undefined) => (hint ? `${id}-hint` : undefined);

/** A control's hint, its accessible description (`aria-describedby` of `${id}-hint`). */
function FieldHint({ id, hint }: { id: string; hint: string | undefined }) {
  return hint ? (
    <small id={`${id}-hint`} class="hint">
      {hint}
    </small>
  ) : null;
}

export function SelectField<T extends string>({ label, value, onValue, options, hint }: { label: string; value: T; onValue(value: T): void; options: Array<[T, string]>; hint?: string }) {
  const id = useId();
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <select id={id} value={value} onChange={(event) => onValue(event.currentTarget.value as T)} aria-describedby={describedBy(id, hint)}>
        {options.map(([option, text]) => (
          <option key={option} value={option}>
            {text}
          </option>
        ))}
      </select>
      <FieldHint id={id} hint={hint} />
    </div>
  );
}

export function CheckboxField({ label, checked, onChecked, hint }: { label: string; checked: boolean; onChecked(checked: boolean): void; hint?: string }) {
  const id = useId();
  return (
    <div class="field checkbox">
      <input id={id} type="checkbox" checked={checked} onChange={(event) => onChecked(event.currentTarget.checked)} aria-describedby={describedBy(id, hint)} />
      <label for={id}>{label}</label>
      <FieldHint id={id} hint={hint} />
    </div>
  );
}

/** A form that calls `onSubmit` without reloading the page. */
export function Form({ onSubmit, children, class: className, label }: { onSubmit(): void; children: ComponentChildren; class?: string; label?: string }) {
  return (
    <form
      class={className ?? 'form'}
      aria-label={label}
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit();
      }}
    >
      {children}
    </form>
  );
}

export function SubmitButton({ busy, children, busyLabel }: { busy: boolean; children: ComponentChildren; busyLabel?: string }) {
  return (
    <button type="submit" class="primary" disabled={busy} aria-busy={busy}>
      {busy ? (busyLabel ?? frameText.workingNote) : children}
    </button>
  );
}
