// A modal dialog of its own (a <dialog> shown with showModal: focus inside, Escape closes it) that
// is open while it is rendered; closing it (Escape, or its owner no longer rendering it) gives the
// focus back to what had it when the dialog opened, or to `returnFocusId` when that is gone.
import type { ComponentChildren } from 'preact';
import { useEffect, useId, useRef } from 'preact/hooks';

export function Modal({ title, onClose, children, returnFocusId }: { title: string; onClose(): void; children: ComponentChildren; returnFocusId?: string }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const opener = useRef(document.activeElement as HTMLElement | null);
  const id = useId();
  useEffect(() => {
    // showModal focuses the field marked `autofocus`, else the dialog's first control.
    dialog.current?.showModal();
    return () => {
      const back = opener.current?.isConnected ? opener.current : returnFocusId ? document.getElementById(returnFocusId) : null;
      back?.focus();
    };
  }, []);
  return (
    <dialog ref={dialog} class="modal" aria-labelledby={`${id}-title`} onClose={onClose}>
      <h2 id={`${id}-title`}>{title}</h2>
      {children}
    </dialog>
  );
}
