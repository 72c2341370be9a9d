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

/** The day a digest of `kind` is sent on, on or before `day`: its Monday, or its month's 1st. */
const sendDay = (kind: DigestKind, day: string) => (kind === 'weekly' ? mondayOf(day) : firstOfMonth(day));

/** The week or month that ends the day before `day` (a send day). */
function periodBefore(kind: DigestKind, day: string): DigestPeriod {
  const from = kind === 'weekly' ? addDays(day, -7) : addMonths(day, -1);
  return { kind, from, to: addDays(day, -1) };
}

/** The period of `kind` whose digest is due at `now` in `timeZone`, or undefined. */
export function duePeriod(kind: DigestKind, now: number, timeZone: string): DigestPeriod | undefined {
  const today = localDay(now, timeZone);
  // The day the latest digest of this kind became due (today's, if 08:00 has passed), and one before.
  let day = sendDay(kind, today);
  if (at8(day, timeZone) > now) day = sendDay(kind, addDays(day, -1));
  if (now - at8(day, timeZone) >= CATCH_UP_MS) return undefined;
  return periodBefore(kind, day);
}

/** The last complete week (Monday to Sunday) or month at `now` in `timeZone`: what a report sent on request covers. */
export const lastCompletePeriod = (kind: DigestKind, now: number, timeZone: string): DigestPeriod => periodBefore(kind, sendDay(kind, localDay(now, timeZone)));
