// Installation verification: the last collection outcomes of each site (the port, and its
// in-process implementation, lost on restart; the Redis one is redis-recent-outcomes.ts). An
// entry holds the time, the outcome (accepted or the drop reason), the page path, the event's name and
// the User-Agent the browser family is read from when listed; never an address or a visitor id.
import type { MaybePromise } from '../../core/clock.js';

/** Outcomes kept per site; older ones are forgotten. */
export const RECENT_OUTCOMES_PER_SITE = 100;
/**
 * Outcomes a process keeps over all its sites: the sites whose last outcome is oldest are let go of
 * whole past it, so that many sites (a tenant may make many, and anyone may send to a known site id)
 * hold a bounded amount of memory: at most 20 000 entries of at most 2 KB of text each.
 */
export const RECENT_OUTCOMES_KEPT = 20_000;
/** What an entry keeps of a path and a User-Agent: enough to recognise them, at most 512 characters each. */
export const RECENT_OUTCOME_TEXT_LENGTH = 512;

/** An outcome as collection records it. */
export interface OutcomeEntry {
  ts: number;
  outcome: string;
  path: string | null;
  /** The event's name (`pageview`, a custom event's), null when the event had none that passed its rules. */
  name: string | null;
  ua: string;
}

export interface RecordedOutcome extends OutcomeEntry {
  /** Increases with every outcome recorded, over all sites (in process: this process's; with Redis: every process's). */
  seq: number;
}

export interface RecentOutcomeLog {
  /** Records one outcome of a site's collection (by the site's internal id). */
  record(siteInternalId: number, entry: OutcomeEntry): void;
  /**
   * A site's kept outcomes recorded after `afterSeq`, oldest first, and the last sequence number
   * given out (0 before any). An `afterSeq` past that number comes from before a restart: everything
   * kept is listed.
   */
  list(siteInternalId: number, afterSeq: number): MaybePromise<{ outcomes: RecordedOutcome[]; lastSeq: number }>;
}

/** Keeps the outcomes `afterSeq` asks for, oldest first, of a site's kept ones (newest first). */
export function outcomesAfter(newestFirst: readonly RecordedOutcome[], afterSeq: number, lastSeq: number): RecordedOutcome[] {
  const after = afterSeq > lastSeq ? 0 : afterSeq;
  return newestFirst.filter((o) => o.seq > after).reverse();
}

/** A site's last outcomes: a fixed ring whose entries are overwritten in place once it is full (no allocation per event). */
class Ring {
  readonly entries: RecordedOutcome[] = [];
  /** Where the next outcome goes once the ring is full: also the oldest entry. */
  next = 0;

  add(seq: number, recorded: OutcomeEntry): void {
    const { ts, outcome, name } = recorded;
    const path = recorded.path === null ? null : recorded.path.slice(0, RECENT_OUTCOME_TEXT_LENGTH);
    const ua = recorded.ua.slice(0, RECENT_OUTCOME_TEXT_LENGTH);
    if (this.entries.length < RECENT_OUTCOMES_PER_SITE) {
      this.entries.push({ seq, ts, outcome, path, name, ua });
      return;
    }
    const entry = this.entries[this.next]!;
    entry.seq = seq;
    entry.ts = ts;
    entry.outcome = outcome;
    entry.path = path;
    entry.name = name;
    entry.ua = ua;
    this.next = (this.next + 1) % RECENT_OUTCOMES_PER_SITE;
  }

  /** Copies of the entries, newest first. */
  newestFirst(): RecordedOutcome[] {
    return [...this.entries.slice(this.next), ...this.entries.slice(0, this.next)].reverse().map((e) => ({ ...e }));
  }
}

export class MemoryRecentOutcomes implements RecentOutcomeLog {
  /** The sites' rings, the one recorded to longest ago first (a Map keeps the order of insertion). */
  private readonly bySite = new Map<number, Ring>();
  private kept = 0;
  private seq = 0;

  constructor(private readonly keptAtMost = RECENT_OUTCOMES_KEPT) {}

  record(siteInternalId: number, entry: OutcomeEntry): void {
    let ring = this.bySite.get(siteInternalId);
    if (ring === undefined) ring = new Ring();
    else this.bySite.delete(siteInternalId);
    this.bySite.set(siteInternalId, ring);
    const before = ring.entries.length;
    ring.add(++this.seq, entry);
    this.kept += ring.entries.length - before;
    // Past the bound, the sites recorded to longest ago go whole (never the one just recorded to).
    for (const [oldest, oldestRing] of this.bySite) {
      if (this.kept <= this.keptAtMost || oldest === siteInternalId) break;
      this.bySite.delete(oldest);
      this.kept -= oldestRing.entries.length;
    }
  }

  list(siteInternalId: number, afterSeq: number): { outcomes: RecordedOutcome[]; lastSeq: number } {
    return { outcomes: outcomesAfter(this.bySite.get(siteInternalId)?.newestFirst() ?? [], afterSeq, this.seq), lastSeq: this.seq };
  }
}
