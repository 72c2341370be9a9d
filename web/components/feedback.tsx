// What a page shows while it waits, and what it shows when the server said no.
import type { ComponentChildren } from 'preact';
import type { ErrorReason } from '../../src/core/errors.js';
import { tellsOfNoSingleEvents } from '../lib/read-errors.js';

export function Loading({ label = 'Loading…' }: { label?: string }) {
  return (
    <p class="loading" role="status">
      <span class="spinner" aria-hidden="true" />
      {label}
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

/**
 * A read's failure in place of its figures: a period with no day of single events under filters
 * that need them reads as a note (the figures do not exist; nothing failed), anything else as an error.
 */
export function ReadFailure({ read }: { read: { error: string | undefined; reason?: ErrorReason | undefined } }) {
  if (!read.error) return null;
  if (!tellsOfNoSingleEvents(read.reason)) return <ErrorText message={read.error} />;
  return (
    <p class="muted empty" role="status" data-note="no-single-events">
      {read.error}
    </p>
  );
}

/** The `data-state` of a part showing a read: `loading`, `ready` (a no-single-events note among answers), or `error`. */
export function readState(read: { data: unknown; error: string | undefined; reason?: ErrorReason | undefined; loading: boolean }): 'loading' | 'ready' | 'error' {
  if (read.error) return tellsOfNoSingleEvents(read.reason) ? 'ready' : 'error';
  return read.loading || read.data === undefined ? 'loading' : 'ready';
}

/** Shows `children(data)` once loaded, the loading state before, and the failure instead of it. */
export function LoadState<T>({ state, children }: { state: { data: T | undefined; error: string | undefined; loading: boolean }; children: (data: T) => ComponentChildren }) {
  if (state.error) return <ErrorText message={state.error} />;
  if (state.data === undefined) return <Loading />;
  return <>{children(state.data)}</>;
}
