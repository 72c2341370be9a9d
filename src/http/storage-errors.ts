// The errors the stores throw on a client's request, and the API error each one answers: the one
// place where storage errors become API errors, applied by the error handler (./errors.ts) to
// whatever a route lets through, so that no route catches them itself.
import { apiError, type ApiError } from '../core/errors.js';
import { StatementOutOfMemory, StatementTimeout } from '../storage/events/types.js';
import { DuplicateEmail } from '../storage/meta/account-types.js';
import { UploadNotStored } from '../storage/meta/import-types.js';
import { DuplicateDomain, DuplicateGoal, LimitReached } from '../storage/meta/types.js';

/** A storage error (its class) and the API error it answers. */
interface StorageRefusal {
  error: abstract new (...args: never[]) => Error;
  /** The API error of `err` when it is one of `error`, else undefined. */
  answer(err: unknown): ApiError | undefined;
}

function refusal<E extends Error>(error: abstract new (...args: never[]) => E, answer: (err: E) => ApiError): StorageRefusal {
  return { error, answer: (err) => (err instanceof error ? answer(err) : undefined) };
}

export const STORAGE_REFUSALS: readonly StorageRefusal[] = [
  refusal(DuplicateDomain, (err) => apiError('CONFLICT', 'domain', { domain: err.domain })),
  refusal(DuplicateGoal, (err) => apiError('CONFLICT', 'goal', { goalId: err.goalId })),
  refusal(DuplicateEmail, () => apiError('CONFLICT', 'email')),
  refusal(LimitReached, (err) => apiError('CONFLICT', err.kind, { max: err.max })),
  refusal(StatementTimeout, (err) => apiError('QUERY_TIMEOUT', 'deadline', { seconds: err.deadlineMs / 1000 })),
  refusal(StatementOutOfMemory, () => apiError('QUERY_TOO_LARGE', 'memory')),
  // The worker reads uploads, and fails their job on it; a route that read one would have no import to show.
  refusal(UploadNotStored, () => apiError('NOT_FOUND', 'import')),
];

/** The API error of a storage error of the table; undefined for anything else (an internal error). */
export function storageRefusal(err: unknown): ApiError | undefined {
  for (const { answer } of STORAGE_REFUSALS) {
    const refused = answer(err);
    if (refused) return refused;
  }
  return undefined;
}
