// What a page shows while it waits, and what it shows when the server said no.
import type { ComponentChildren } from 'preact';
import { frameText } from '../lib/text/frame.js';

export function Loading({ label }: { label?: string }) {
  return (
    <p class="loading" role="status">
      <span class="spinner" aria-hidden="true" />
      {label ?? frameText.loadingNote}
    </p>
  );
}

/** A failure message, announced to screen readers; renders nothing without a message. */
export function ErrorText({ message }: { message: string | undefined }) {
  if (!message) return null;
  return (
    <p class="error" role="alert">
      {message}
    </p>
  );
}

export function Notice({ children }: { children: ComponentChildren }) {
  return (
    <p class="notice" role="status">
      {children}
    </p>
  );
}

/** Shows `children(data)` once loaded, the loading state before, and the failure instead of it. */
export function LoadState<T>({ state, children }: { state: { data: T | undefined; error: string | undefined; loading: boolean }; children: (data: T) => ComponentChildren }) {
  if (state.error) return <ErrorText message={state.error} />;
  if (state.data === undefined) return <Loading />;
  return <>{children(state.data)}</>;
}
