// When a digest is due: weekly on Mondays for the previous Monday–Sunday, monthly on the 1st for the
// previous month, both at 08:00 in the site's zone. A worker that was down at 08:00 still plans the
// digest within the following day; later, the period is skipped (a report of last week arriving on
// Thursday is no report).
import { addDays, localDay, localToEpoch } from '../core/localtime.js';
import { addMonths, firstOfMonth, mondayOf } from '../core/period.js';
import type { DigestKind } from '../storage/meta/digest-types.js';

export const SEND_HOUR = 8;
/** How long after its 08:00 a digest is still planned. */
export const CATCH_UP_MS = 24 * 3_600_000;

export interface DigestPeriod {
  kind: DigestKind;
  from: string;
  to: string;
}

const at8 = (day: string, timeZone: string) => {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return localToEpoch(y, m, d, SEND_HOUR, 0, timeZone);
};

/** The period of `kind` whose digest is due at `now` in `timeZone`, or undefined. */
export function duePeriod(kind: DigestKind, now: number, timeZone: string): DigestPeriod | undefined {
  const today = localDay(now, timeZone);
  // The day the latest digest of this kind became due (today's, if 08:00 has passed), and one before.
  const sendDay = (day: string) => (kind === 'weekly' ? mondayOf(day) : firstOfMonth(day));
  let day = sendDay(today);
  if (at8(day, timeZone) > now) day = sendDay(addDays(day, -1));
  const dueAt = at8(day, timeZone);
  if (now - dueAt >= CATCH_UP_MS) return undefined;
  const from = kind === 'weekly' ? addDays(day, -7) : addMonths(day, -1);
  return { kind, from, to: addDays(day, -1) };
}
