// An import's enrichment and bulk write: its own salts and sessions, rows handed to the EventStore
// while the next ones are enriched, committed or rolled back as one.
import { isPromise, type MaybePromise } from '../core/clock.js';
import type { BulkAppend, EventStore } from '../storage/events/types.js';
import type { StoredEvent } from '../storage/events/schema.js';
import { SessionCache } from '../storage/counters/memory-sessions.js';
import type { HostingNetworks } from './bots.js';
import type { GeoLocator } from './geo.js';
import { MAX_IMPORT_LINES } from './import-contract.js';
import { enrich, type Candidate, type Enricher } from './pipeline.js';
import { EphemeralSalts, SaltBook } from './visitor.js';

/** Rows handed to the store at a time: small enough that they never outlive the young generation. */
const IMPORT_WRITE_ROWS = 2048;

/**
 * The most (estimated) heap an import's open sessions take, the shared values included: about
 * 140 000 sessions at once. A file in which every line starts a session (a million lines of Umami
 * sessions, each held 25 hours: NAMED_SESSION_HOLD_MS) would otherwise hold them all; past the bound
 * the least recently seen end, as a session idle longest is the likeliest to have ended.
 */
export const IMPORT_SESSION_BYTES = 48 * 1024 * 1024;

/** An import's own sessions: bounded by its lines and by IMPORT_SESSION_BYTES. */
export const importSessions = () => new SessionCache({ maxSessions: MAX_IMPORT_LINES, maxBytes: IMPORT_SESSION_BYTES });

/**
 * Enriches one import's candidates, in time order, into a bulk write of the EventStore: its own
 * salts (random per date, never stored) and its own sessions; each row carries `importId` (null for
 * an NDJSON import, whose events are the site's like collected ones).
 */
export class ImportWriter {
  private readonly enricher: Enricher;
  private readonly touchedDays = new Set<string>();
  private rows: StoredEvent[] = [];
  private bulk: Promise<BulkAppend> | null = null;
  private written: Promise<void> = Promise.resolve();

  constructor(
    private readonly events: EventStore,
    geo: GeoLocator,
    hosting: HostingNetworks,
    private readonly importId: string | null,
  ) {
    // Its sessions have a bound of their own, apart from the live cache's share of the budget.
    this.enricher = { geo, hosting, salts: new SaltBook(new EphemeralSalts()), sessions: importSessions() };
  }

  /** Usually synchronous: it waits only for a new date's salt or for the store to catch up. */
  add(candidate: Candidate): MaybePromise<void> {
    const stored = enrich(candidate, this.enricher);
    return isPromise(stored) ? stored.then((s) => this.keep(s)) : this.keep(stored);
  }

  private keep(stored: StoredEvent): MaybePromise<void> {
    stored.importId = this.importId;
    this.touchedDays.add(stored.day);
    this.rows.push(stored);
    if (this.rows.length < IMPORT_WRITE_ROWS) return;
    // Sessions idle for longer than the gap can only end: memory follows the sessions open at once.
    this.enricher.sessions.sweep(stored.ts);
    return this.write();
  }

  /** Rows go to the store while the next ones are enriched; at most one write is under way. */
  private async write(): Promise<void> {
    const rows = this.rows;
    this.rows = [];
    await this.written;
    this.bulk ??= this.events.beginBulk();
    const bulk = await this.bulk;
    this.written = bulk.append(rows);
    // Awaited by the next write or by commit; until then a failure must not count as unhandled
    // (the import gives the event loop turns meanwhile, and an unhandled rejection ends the process).
    this.written.catch(() => undefined);
  }

  async commit(): Promise<void> {
    if (this.rows.length > 0) await this.write();
    await this.written;
    if (this.bulk) await (await this.bulk).commit();
  }

  /** Drops what was written so far (nothing, after a commit). */
  async abandon(): Promise<void> {
    this.rows = [];
    await this.written.catch(() => undefined);
    const bulk = await this.bulk?.catch(() => null);
    await bulk?.rollback();
  }

  /** Site-local days the import wrote to, in order. */
  days(): string[] {
    return [...this.touchedDays].sort();
  }
}
