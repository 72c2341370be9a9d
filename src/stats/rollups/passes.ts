// The passes a run rewrites a range of days in, bounded in days and in events.
import type { EventStore } from '../../storage/events/types.js';
import { addDays } from '../../core/localtime.js';
import type { Period } from '../../core/period.js';
import { eventDaysStatement } from '../sql/session-paths.js';

/** Days rewritten per pass; bounds statement size while catching up on long histories. */
const CHUNK_DAYS = 31;
/**
 * Events a pass rewrites at most (a larger day is a pass of its own): a pass's statements hold its
 * sessions and keys in memory (its session rows also read the parts of the day either side), which
 * must fit DuckDB's share of SVC_MEMORY_BUDGET_MB however busy the site. Measured in
 * docs/performance.md#memory: passes of 1 000 000 events fit in 112 MB.
 */
const CHUNK_EVENTS = 1_000_000;

/** A day that holds raw events of the site, and how many (weighed as `eventDaysStatement` does). */
export interface EventDay {
  day: string;
  events: number;
}

/** The days of a range that hold raw events of the site, ascending, with their events weighed by their pages' length (`eventDaysStatement`). */
export async function eventDays(events: EventStore, siteId: string, days: Period): Promise<EventDay[]> {
  const rows = await events.query<{ t: unknown; n: unknown }>(eventDaysStatement(events.dialect, siteId, days));
  return rows.map((r) => ({ day: String(r.t), events: Number(r.n) })).sort((a, b) => (a.day < b.day ? -1 : a.day > b.day ? 1 : 0));
}

/**
 * The passes over a range: consecutive days, at most CHUNK_DAYS of them and CHUNK_EVENTS events
 * (`withEvents`: the range's days that hold events), in order.
 */
export function chunks(range: Period, withEvents: readonly EventDay[]): Period[] {
  const out: Period[] = [];
  let next = 0;
  for (let from = range.from; from <= range.to; ) {
    const longest = addDays(from, CHUNK_DAYS - 1);
    let to = longest < range.to ? longest : range.to;
    let events = 0;
    while (next < withEvents.length && withEvents[next]!.day < from) next++;
    for (let i = next; i < withEvents.length && withEvents[i]!.day <= to; i++) {
      events += withEvents[i]!.events;
      // A pass ends before the day that would take it past the bound, unless that day is its first.
      if (events > CHUNK_EVENTS && withEvents[i]!.day > from) {
        to = addDays(withEvents[i]!.day, -1);
        break;
      }
    }
    out.push({ from, to });
    from = addDays(to, 1);
  }
  return out;
}

/**
 * The first day of the latest pass of a range: as `chunks` bounds a pass, counted back from the
 * range's last day (backfills go latest first).
 */
export function latestPassStart(range: Period, withEvents: readonly EventDay[]): string {
  let events = 0;
  for (let i = withEvents.length - 1; i >= 0; i--) {
    const { day } = withEvents[i]!;
    if (day > range.to) continue;
    if (day < range.from) break;
    events += withEvents[i]!.events;
    if (events > CHUNK_EVENTS && day < range.to) return addDays(day, 1);
  }
  return range.from;
}
