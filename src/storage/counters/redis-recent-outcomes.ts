// The last collection outcomes of each site in Redis, so that an api process lists what every
// collect process recorded: a list per site of its last RECENT_OUTCOMES_PER_SITE outcomes, newest
// first ("<seq> <JSON>"), numbered by one counter shared by every process. The records of one turn
// of the event loop are sent per site when that turn's EVALSHA leaves (script-batch.ts): a site's
// last RECENT_OUTCOMES_PER_SITE of them, the earlier ones numbered but not sent (the list would
// drop them at once). Nothing waits for them.
import type { Redis } from 'ioredis';
import { MemoryRecentOutcomes, outcomesAfter, RECENT_OUTCOMES_PER_SITE, type OutcomeEntry, type RecentOutcomeLog, type RecordedOutcome } from './recent-outcomes.js';
import type { ScriptBatch } from './script-batch.js';

/** A site without outcomes for this long lets go of its list. */
export const OUTCOMES_EXPIRY_MS = 7 * 24 * 3_600_000;

export class RedisRecentOutcomes implements RecentOutcomeLog {
  private readonly seqKey: string;
  /** What this process recorded: listed while Redis does not answer. */
  private readonly local = new MemoryRecentOutcomes();
  /** This process's last records, settled: a list waits for them, so it lists what was recorded before it. */
  private recorded: Promise<void> = Promise.resolve();
  /** The records of this turn by site: the last ones (fewer than twice as many as are kept), and how many earlier ones are not sent. */
  private pending = new Map<number, { entries: OutcomeEntry[]; skipped: number }>();
  /** Settles `recorded` once this turn's records are answered; null while none wait. */
  private settle: (() => void) | null = null;

  /** Keys are `prefix` + `seq` and `prefix` + the site's internal id. */
  constructor(
    private readonly redis: Redis,
    private readonly batch: ScriptBatch,
    private readonly prefix: string,
    private readonly onUnavailable: (err: unknown) => void,
  ) {
    this.seqKey = `${prefix}seq`;
  }

  record(siteInternalId: number, entry: OutcomeEntry): void {
    this.local.record(siteInternalId, entry);
    let site = this.pending.get(siteInternalId);
    if (site === undefined) this.pending.set(siteInternalId, (site = { entries: [], skipped: 0 }));
    site.entries.push(entry);
    // Only the last RECENT_OUTCOMES_PER_SITE are sent: the earlier ones are let go of a hundred at a time.
    if (site.entries.length === 2 * RECENT_OUTCOMES_PER_SITE) {
      site.entries.splice(0, RECENT_OUTCOMES_PER_SITE);
      site.skipped += RECENT_OUTCOMES_PER_SITE;
    }
    if (this.settle === null) {
      this.recorded = new Promise((resolve) => (this.settle = resolve));
      this.batch.beforeSend(this.send);
    }
  }

  /** Puts this turn's records in the batch about to leave: one call per site. */
  private readonly send = (): void => {
    const { pending, settle } = this;
    this.pending = new Map();
    this.settle = null;
    for (const [siteInternalId, { entries, skipped }] of pending) {
      const sent = entries.length - RECENT_OUTCOMES_PER_SITE;
      const kept = sent > 0 ? entries.slice(sent) : entries;
      this.batch.record(this.seqKey, this.prefix + siteInternalId, skipped + Math.max(sent, 0), kept);
      this.batch.results.catch(this.onUnavailable);
    }
    // Batches are answered in the order sent: the last one's answer comes after the others'.
    this.batch.results.then(settle, settle);
  };

  async list(siteInternalId: number, afterSeq: number): Promise<{ outcomes: RecordedOutcome[]; lastSeq: number }> {
    let replies: Array<[Error | null, unknown]> | null;
    await this.recorded;
    try {
      replies = await this.redis.multi().get(this.seqKey).lrange(this.prefix + siteInternalId, 0, -1).exec();
      if (!replies || replies.some(([err]) => err)) throw replies?.find(([err]) => err)?.[0] ?? new Error('MULTI was discarded');
    } catch (err) {
      this.onUnavailable(err);
      return this.local.list(siteInternalId, afterSeq);
    }
    const lastSeq = Number(replies[0]![1] ?? 0);
    const newestFirst = (replies[1]![1] as string[]).map((text): RecordedOutcome => {
      const space = text.indexOf(' ');
      const entry = JSON.parse(text.slice(space + 1)) as OutcomeEntry;
      // An entry recorded before events' names were kept has none.
      return { seq: Number(text.slice(0, space)), ts: entry.ts, outcome: entry.outcome, path: entry.path, name: entry.name ?? null, ua: entry.ua };
    });
    return { outcomes: outcomesAfter(newestFirst, afterSeq, lastSeq), lastSeq };
  }
}
