// "counted since <day>" beside a goal's or funnel's figures that miss the first days of the period:
// the goal or funnel version was made after them and their raw events were gone (docs/api.md).
import { formatDay } from '../lib/format.js';
import type { AnswerDays } from '../../src/core/answers.js';

export function CountedSince({ since, period }: { since: string | null; period: AnswerDays }) {
  if (since === null || since <= period.from) return null;
  return <p class="muted counted-since">Counted since {formatDay(since)}</p>;
}
