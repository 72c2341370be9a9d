// Installation verification: the last collection outcomes of each site, in memory only (lost on
// restart). An entry holds the time, the outcome (accepted or the drop reason), the page path and
// the User-Agent the browser family is read from when listed; never an address or a visitor id.
import type { Outcome } from './pipeline.js';
import { parseUserAgent } from './user-agent.js';

/** Outcomes kept per site; older ones are forgotten. */
export const RECENT_OUTCOMES_PER_SITE = 100;

interface Entry {
  seq: number;
  ts: number;
  outcome: Outcome;
  path: string | null;
  ua: string;
}

export interface RecentOutcome {
  /** Increases with every outcome recorded in this process, over all sites. */
  seq: number;
  ts: number;
  outcome: Outcome;
  path: string | null;
  browser: string | null;
}

/** A site's last outcomes: a fixed ring whose entries are overwritten in place once it is full (no allocation per event). */
class Ring {
  readonly entries: Entry[] = [];
  /** Where the next outcome goes once the ring is full: also the oldest entry. */
  next = 0;

  add(seq: number, ts: number, outcome: Outcome, path: string | null, ua: string): void {
    if (this.entries.length < RECENT_OUTCOMES_PER_SITE) {
      this.entries.push({ seq, ts, outcome, path, ua });
      return;
    }
    const entry = this.entries[this.next]!;
    entry.seq = seq;
    entry.ts = ts;
    entry.outcome = outcome;
    entry.path = path;
    entry.ua = ua;
    this.next = (this.next + 1) % RECENT_OUTCOMES_PER_SITE;
  }

  /** The entries, oldest first. */
  inOrder(): Entry[] {
    return [...this.entries.slice(this.next), ...this.entries.slice(0, this.next)];
  }
}

export class RecentOutcomes {
  private readonly bySite = new Map<number, Ring>();
  private seq = 0;

  /** Records one outcome of a site's collection (by the site's internal id). */
  record(siteInternalId: number, ts: number, outcome: Outcome, path: string | null, ua: string): void {
    let ring = this.bySite.get(siteInternalId);
    if (ring === undefined) {
      ring = new Ring();
      this.bySite.set(siteInternalId, ring);
    }
    ring.add(++this.seq, ts, outcome, path, ua);
  }

  /**
   * A site's kept outcomes recorded after `afterSeq`, oldest first. An `afterSeq` past every
   * sequence number of this process comes from before a restart: everything kept is listed.
   */
  list(siteInternalId: number, afterSeq = 0): RecentOutcome[] {
    const after = afterSeq > this.seq ? 0 : afterSeq;
    const entries = this.bySite.get(siteInternalId)?.inOrder() ?? [];
    return entries
      .filter((e) => e.seq > after)
      .map((e) => ({ seq: e.seq, ts: e.ts, outcome: e.outcome, path: e.path, browser: e.ua ? parseUserAgent(e.ua).browser : null }));
  }

  /** The last sequence number given out by this process (0 before any outcome). */
  lastSeq(): number {
    return this.seq;
  }
}
