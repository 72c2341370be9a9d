// What one import call takes (docs/admin-api.md, "Import lines"): how a line's `ts` reads, how long a
// line and how many lines a call may have. Its own module, free of the enrichment's imports,
// because `svc import` reads them too (to split a large file at site-local midnights).

/** Lines of one call: bounds the numbers kept per accepted line and the import's sessions. */
export const MAX_IMPORT_LINES = 1_000_000;

/** Bytes of one line (without its newline); a longer line is rejected as `too_large`, unread. */
export const MAX_IMPORT_LINE_BYTES = 65_536;

const EARLIEST = Date.UTC(2000, 0, 1);
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/;

/** Epoch milliseconds of a line's `ts`, or null when the server would reject it. */
export function parseImportTimestamp(ts: unknown, now: number): number | null {
  let ms: number;
  if (typeof ts === 'number') ms = ts;
  else if (typeof ts === 'string' && ISO_INSTANT.test(ts)) ms = Date.parse(ts);
  else return null;
  // Far future or prehistoric instants are typing mistakes (seconds for milliseconds, say). A day
  // ahead is allowed: exporters that write local wall time as UTC run up to 14 hours early.
  if (!Number.isFinite(ms) || ms < EARLIEST || ms > now + 86_400_000) return null;
  return Math.floor(ms);
}
