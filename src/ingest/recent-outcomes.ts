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

export class RecentOutcomes {
  private readonly bySite = new Map<number, Entry[]>();
  private seq = 0;

  /** Records one outcome of a site's collection (by the site's internal id). */
  record(siteInternalId: number, ts: number, outcome: Outcome, path: string | null, ua: string): void {
    let entries = this.bySite.get(siteInternalId);
    if (entries === undefined) {
      entries = [];
      this.bySite.set(siteInternalId, entries);
    }
    entries.push({ seq: ++this.seq, ts, outcome, path, ua });
    if (entries.length > RECENT_OUTCOMES_PER_SITE) entries.shift();
  }

  /**
   * A site's kept outcomes recorded after `afterSeq`, oldest first. An `afterSeq` past every
   * sequence number of this process comes from before a restart: everything kept is listed.
   */
  list(siteInternalId: number, afterSeq = 0): RecentOutcome[] {
    const after = afterSeq > this.seq ? 0 : afterSeq;
    const entries = this.bySite.get(siteInternalId) ?? [];
    return entries
      .filter((e) => e.seq > after)
      .map((e) => ({ seq: e.seq, ts: e.ts, outcome: e.outcome, path: e.path, browser: e.ua ? parseUserAgent(e.ua).browser : null }));
  }

  /** The last sequence number given out by this process (0 before any outcome). */
  lastSeq(): number {
    return this.seq;
  }
}
