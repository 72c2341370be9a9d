// "counted since <day>" beside a goal's or funnel's figures that miss the first days of the period:
// the goal or funnel version was made after them and their raw events were gone (docs/api.md).
import { formatDay } from '../lib/format.js';
import { fill } from '../lib/i18n.js';
import { goalsText } from '../lib/text/goals.js';
import type { AnswerDays } from '../../src/core/answers.js';

/** `since`: the first complete day of the figures (the `Svc-Counted-Since` header); undefined when they count every day. */
export function CountedSince({ since, period }: { since: string | undefined; period: AnswerDays }) {
  if (since === undefined || since <= period.from) return null;
  return <p class="muted counted-since">{fill(goalsText.countedSince, { day: formatDay(since) })}</p>;
}
