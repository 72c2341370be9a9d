// A read of figures that failed, in place of the figures: a period with no day of single events
// under filters that need them reads as a note, anything else as an error. Apart from ./feedback.tsx,
// so that pages without figures bundle none of the refusals' sentences.
import type { ErrorReason } from '../../src/core/errors.js';
import { tellsOfNoSingleEvents } from '../lib/read-errors.js';
import { ErrorText } from './feedback.js';

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
