// A button that asks before it acts, in a modal <dialog> (focus moves into it; Escape cancels).
import type { ComponentChildren } from 'preact';
import { useRef } from 'preact/hooks';
import { frameText } from '../lib/text/frame.js';

export function ConfirmButton({
  children,
  question,
  confirmLabel,
  onConfirm,
  disabled,
  label,
}: {
  children: ComponentChildren;
  question: string;
  confirmLabel: string;
  onConfirm(): void;
  disabled?: boolean;
  /** The button's accessible name when its text alone is ambiguous in a list. */
  label?: string;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  return (
    <>
      <button type="button" class="danger" disabled={disabled} aria-label={label} onClick={() => dialog.current?.showModal()}>
        {children}
      </button>
      <dialog ref={dialog} class="confirm" aria-label={question}>
        <form
          method="dialog"
          onSubmit={(event) => {
            const submitter = (event as SubmitEvent).submitter as HTMLButtonElement | null;
            if (submitter?.value === 'confirm') onConfirm();
          }}
        >
          <p>{question}</p>
          <div class="actions">
            <button value="cancel" autoFocus>
              {frameText.cancelButton}
            </button>
            <button value="confirm" class="danger">
              {confirmLabel}
            </button>
          </div>
        </form>
      </dialog>
    </>
  );
}
