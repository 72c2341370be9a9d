// An import call: its lines checked as they stream in, enriched at once while they come in time
// order, read again from disk and sorted when they do not; then one bulk write, committed inside what
// surrounds it (the rollups' lock), and the import listeners before the call returns.
import { isPromise, type Clock, type MaybePromise } from '../core/clock.js';
import { apiError } from '../core/errors.js';
import { HeapBound } from '../core/heap-bound.js';
import { EventLoopTurns } from '../core/turns.js';
import type { EventImportReport } from '../core/management.js';
import type { EventStore } from '../storage/events/types.js';
import { daysOfImports, removeImportEvents } from '../storage/events/import-events.js';
import type { Site } from '../entities/sites.js';
import type { HostingNetworks } from './bots.js';
import type { DropReason } from './drop-reasons.js';
import type { GeoLocator } from './geo.js';
import { MAX_IMPORT_LINE_BYTES, MAX_IMPORT_LINES } from './import-contract.js';
import { checkImportLine, ndjsonLines, parseImportLine, type ImportLine, type ImportLineFields, type ImportLineResult } from './import.js';
import { ImportWriter } from './import-writer.js';
import { SpilledBody, sortedLines } from './import-spill.js';
import { botUaStep, datacenterStep, locate, runSteps, type DropCounter, type Step } from './pipeline.js';

/**
 * An import of another tool's raw events, kept apart (src/imports): its id on every event it stores
 * (`import_id`), and the earlier imports whose events it replaces on the days its own lie on.
 */
export interface ImportStamp {
  importId: string;
  replaces: readonly string[];
}

/** Called after an import stored its events, before the call returns (rollups), with the site-local days it added to. */
export type ImportListener = (site: Site, days: string[]) => Promise<void>;

/**
 * Runs an import's commit (`commit`), with what must surround it: the rollups mark the days it
 * adds to pending and hold the site's rollup lock around the commit. A failure stores nothing.
 */
export type ImportCommit = (site: Site, days: string[], commit: () => Promise<void>) => Promise<void>;

export interface ImporterDeps {
  clock: Clock;
  events: EventStore;
  geo: GeoLocator;
  hosting: HostingNetworks;
  /** Shared with collection: accepted and dropped events are counted by source. */
  drops: DropCounter;
  maxImportLines?: number;
  /** Bytes of body an unsorted import may be sorted from (tests lower it). */
  maxSortBytes?: number;
  /** Where an import's body waits on disk for a second reading (unnamed files, gone when closed). */
  spillDir: string;
  log?: { error(obj: unknown, msg: string): void };
}

const MAX_REPORTED_ERRORS = 100;

export class Importer {
  private readonly importListeners: ImportListener[] = [];
  private importCommit: ImportCommit = (_site, _days, commit) => commit();

  constructor(private readonly deps: ImporterDeps) {}

  /** Runs after an import stored its events, before the call returns; a failure fails the call, its events stored. */
  onImported(listener: ImportListener): void {
    this.importListeners.push(listener);
  }

  /** Sets what surrounds an import's commit (one at a time: the rollups'). */
  wrapImportCommit(importCommit: ImportCommit): void {
    this.importCommit = importCommit;
  }

  /**
   * Imports NDJSON lines for a site: validated and enriched like live events (origin, rate limit
   * and GPC do not apply; bots are dropped), sessionized in time order with salts that live only
   * for this call, stored in one bulk write, then handed to the import listeners before returning.
   * Nothing of a call that fails is stored. Its heap is bounded (`IMPORT_HEAP`), and its rollups
   * run with the memory the store gives imports (`EventStore.whileImporting`).
   */
  async importLines(site: Site, stream: AsyncIterable<Buffer | string> | Iterable<Buffer | string>): Promise<EventImportReport> {
    // The body is kept as it came on disk (up to a bound), to be read again if it is not in time order.
    const body = new SpilledBody(this.deps.spillDir, this.deps.maxSortBytes ?? MAX_SORT_BYTES);
    const again = () => {
      if (body.overflowed) throw apiError('PAYLOAD_TOO_LARGE', 'unsortedImport', { max: body.limit });
      return ndjsonLines(body.chunks());
    };
    return this.importFrom(site, ndjsonLines(body.keep(stream)), again, () => body.release());
  }

  /**
   * Imports the lines a reader of another tool's export makes (src/imports: GoatCounter's, Umami's),
   * as importLines does NDJSON lines: their fields checked by the same rules, without being written
   * as text and parsed again. They are numbered 1, 2, … as they come; `read` gives them from the
   * start, and again when they turn out not to be in time order (it reads its file again). Its
   * events carry `stamp`'s import id, and replace those of `stamp.replaces` on the days from its
   * first to its last: the new events and the removal in one commit, their days' rollups rewritten once.
   */
  async importReadLines(site: Site, read: () => AsyncIterable<ImportLineFields[]>, stamp: ImportStamp): Promise<EventImportReport> {
    return this.importFrom(site, numbered(read()), () => numbered(read()), () => {}, stamp);
  }

  /** An import of `lines`; `again` reads them again in file order, and `release` lets go of what it reads from. */
  private async importFrom(
    site: Site,
    lines: AsyncIterable<Array<ImportLine<string | ImportLineFields>>>,
    again: () => AsyncIterable<Array<ImportLine<string | ImportLineFields>>>,
    release: () => void,
    stamp?: ImportStamp,
  ): Promise<EventImportReport> {
    const now = this.deps.clock.now();
    const maxLines = this.deps.maxImportLines ?? MAX_IMPORT_LINES;
    const errors: EventImportReport['errors'] = [];
    let rejected = 0;
    const reject = (line: number, reason: DropReason, detail?: string) => {
      rejected++;
      this.deps.drops.count(reason, 'import');
      if (errors.length < MAX_REPORTED_ERRORS) errors.push({ line, reason: detail ? `${reason}: ${detail}` : reason });
    };
    const importSteps: Array<Step<unknown>> = [{ name: 'locate', run: (c) => locate(c, false) }, botUaStep, datacenterStep(this.deps.hosting)];
    /** A line through every check: its candidate, or why it is rejected (usually synchronous). */
    const check = (line: string | ImportLineFields): MaybePromise<ImportLineResult> => {
      const parsed = typeof line === 'string' ? parseImportLine(line, site.id, now) : checkImportLine(line, site.id, now);
      if (!parsed.ok) return parsed;
      parsed.candidate.site = site;
      const result = runSteps(importSteps, parsed.candidate, undefined);
      // No closure on the usual, synchronous path: this runs for every line.
      if (!isPromise(result)) return result === 'accepted' ? parsed : { ok: false, reason: result };
      return result.then((outcome): ImportLineResult => (outcome === 'accepted' ? parsed : { ok: false, reason: outcome }));
    };
    // Sessions are only right in time order. While lines come in time order (ties in file order),
    // each is enriched right away. Each accepted line's number and instant are kept in memory, so
    // that lines that turn out not to be sorted can be read again, the accepted ones sorted and
    // enriched anew.
    const acceptedLines: number[] = [];
    const acceptedTs: number[] = [];
    const newWriter = () => new ImportWriter(this.deps.events, this.deps.geo, this.deps.hosting, stamp?.importId ?? null);
    let writer = newWriter();
    IMPORT_HEAP.restart();
    const turns = new EventLoopTurns({ atTurn: () => IMPORT_HEAP.check() });
    try {
      let inOrder = true;
      for await (const batch of lines) {
        for (const { line, number, tooLong } of batch) {
          const turn = turns.step();
          if (turn) await turn;
          if (number > maxLines) {
            throw apiError('PAYLOAD_TOO_LARGE', 'importLines', { max: maxLines });
          }
          if (tooLong) {
            reject(number, 'too_large', `a line is limited to ${MAX_IMPORT_LINE_BYTES} bytes`);
            continue;
          }
          if (typeof line === 'string' && line.trim() === '') continue;
          let checked = check(line);
          if (isPromise(checked)) checked = await checked;
          if (!checked.ok) {
            reject(number, checked.reason, checked.detail);
            continue;
          }
          const candidate = checked.candidate;
          if (inOrder && acceptedTs.length > 0 && candidate.ts < acceptedTs[acceptedTs.length - 1]!) {
            inOrder = false;
            await writer.abandon();
          }
          acceptedLines.push(number);
          acceptedTs.push(candidate.ts);
          if (inOrder) {
            const added = writer.add(candidate);
            if (added) await added;
          }
        }
      }
      if (!inOrder) {
        const linesAgain = again();
        writer = newWriter();
        for await (const texts of sortedLines(linesAgain, release, this.deps.spillDir, acceptedLines, acceptedTs, turns)) for (const text of texts) {
          const turn = turns.step();
          if (turn) await turn;
          // The line passed every check above, so it parses the same way.
          const parsed = parseImportLine(text, site.id, now);
          if (!parsed.ok) throw new Error('an accepted import line no longer parses');
          parsed.candidate.site = site;
          locate(parsed.candidate, false);
          const added = writer.add(parsed.candidate);
          if (added) await added;
        }
      }
      // The commit and the rollups, where DuckDB's memory peaks, start from what is live; the
      // rollups within the import's memory. Neither the appends (on the event loop, where appends
      // into a pool under pressure spill and would hold up collection) nor the commit (a pool
      // lowered before it spills the import's uncommitted rows: 0.35 s of a 200 000-line import,
      // for no lower peak) run under the lowered pool.
      IMPORT_HEAP.collectIfGrown(COLLECT_GARBAGE_GROWTH);
      const { events } = this.deps;
      const written = writer.days();
      const replaced = stamp && written.length > 0 ? { ids: stamp.replaces, days: { from: written[0]!, to: written.at(-1)! } } : null;
      const days = replaced ? [...new Set([...written, ...(await daysOfImports(events, site.id, replaced.ids, replaced.days))])].sort() : written;
      await this.importCommit(site, days, async () => {
        await writer.commit();
        // Once the new events are in: a failure between leaves both, until the job (which removes its own first) runs again.
        if (replaced) await removeImportEvents(events, site.id, replaced.ids, replaced.days);
      });
      return await events.whileImporting(() => this.rollUp(site, days, acceptedLines.length, { rejected, errors }));
    } finally {
      release();
      await writer.abandon();
    }
  }

  /** Counts a committed import's events and hands its days to the import listeners (the rollups). */
  private async rollUp(site: Site, days: string[], accepted: number, rejections: Omit<EventImportReport, 'accepted'>): Promise<EventImportReport> {
    this.deps.drops.count('accepted', 'import', accepted);
    IMPORT_HEAP.collectIfGrown(COLLECT_GARBAGE_GROWTH);
    try {
      for (const listener of this.importListeners) await listener(site, days);
    } catch (err) {
      // The events are stored: the caller must not send them again, and learns how they complete.
      this.deps.log?.error({ err, site: site.id }, 'rollups after an import failed; the rollup task completes them');
      // The start of the cause's first line only (a database error goes on with its statement; the log has it all).
      const cause = (err instanceof Error ? err.message : String(err)).split('\n')[0]!.slice(0, 200);
      throw apiError('IMPORT_ROLLUPS_PENDING', 'rollups', { accepted, cause });
    }
    return { accepted, ...rejections };
  }
}

/**
 * The heap of every import under way (NDJSON, GoatCounter's and Umami's): a full garbage collection once
 * V8's used heap has grown by 48 MB since the last (checked at each turn an import gives back; an
 * import starting counts from the heap as it finds it), and before an import's commit and its
 * rollups, where DuckDB's memory peaks. Each collection stops the event loop for 20 - 40 ms: a
 * 200 000-line import spends 0.90 s of its event loop collecting garbage, 0.72 s with a 96 MB bound
 * and 0.53 s without one (CPU profiles); two imports of 2 KB paths under a 256 MB budget peak 40 -
 * 70 MB lower than with 96 MB, as V8 keeps fewer pages. The two before the commit and the rollups
 * run where the heap grew by more than COLLECT_GARBAGE_GROWTH since the last: a small import skips
 * them (a collection stops the event loop longer than its whole import), any large one, of many
 * lines or of few but long ones (2 KB paths), runs them.
 */
const IMPORT_HEAP = new HeapBound(48 * 1024 * 1024);
const COLLECT_GARBAGE_GROWTH = 8 * 1024 * 1024;

/** A reader's lines, numbered from 1 as they come. */
async function* numbered(batches: AsyncIterable<ImportLineFields[]>): AsyncGenerator<Array<ImportLine<ImportLineFields>>> {
  let number = 0;
  for await (const batch of batches) yield batch.map((line) => ({ line, number: ++number, tooLong: false }));
}

/** Unsorted imports are sorted from their kept body, which is kept up to this size. */
export const MAX_SORT_BYTES = 512 * 1024 * 1024;
