// Import jobs (docs/imports.md): an upload is streamed to a file of the receiving process's data
// folder, checked to be one of the formats (refused at once otherwise), stored in chunks in the
// metadata database beside its job, and queued (a raw-event upload on a process that runs jobs is
// read by its job as it arrives instead); a worker process takes the queued jobs one at a time,
// copies the stored upload to a file of its own data folder, reports their progress, and ends each
// done (with its report) or failed (having removed whatever it wrote). A job whose worker stopped,
// or whose write into the store failed, is taken again once its lease runs out and starts again
// from its stored upload, which goes when the job ends or is deleted: the processes share no disk.
// A GA4 import has no file: the process that receives its request runs it at once, holding the
// service account's key in memory only (never in the job's row, the data folder or the log). A job
// whose process stopped cannot go on without the key: it fails, saying so, and leaves nothing.
import { randomBytes, randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { createReadStream } from 'node:fs';
import { mkdir, open, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Readable, Transform } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { GOOGLE_ENDPOINTS } from '../config.js';
import { PerKeySlots } from '../core/per-key-slots.js';
import { IMPORTS_FOLDER } from '../core/data-files.js';
import { ApiError, apiError } from '../core/errors.js';
import type { Clock } from '../core/clock.js';
import type { Site } from '../entities/sites.js';
import type { EventStore } from '../storage/events/types.js';
import { UploadNotStored, type ImportJob, type ImportJobStore } from '../storage/meta/import-types.js';
import type { ImportSource } from '../core/vocabulary.js';
import type { ImportView } from '../core/management.js';
import type { EventImportReport as NdjsonReport } from '../core/management.js';
import type { ImportLineFields } from '../ingest/import.js';
import type { ImportStamp } from '../ingest/importer.js';
import { csvBatches } from './csv.js';
import { goatcounterFormat } from './goatcounter.js';
import { checkRawExport, daysOf, newSkips, openCsvFile, type RawEventFormat } from './raw-events.js';
import { umamiFormat } from './umami.js';
import { openArrivingCsv, UploadArrival } from './upload-arrival.js';
import { readAnnotations } from './annotations.js';
import type { NewAnnotation } from '../entities/segments.js';
import { checkPlausibleExport, ignoredFile, importPlausible, ImportRefused, removeImport, WriteInterrupted, type ImportReport } from './plausible-import.js';
import { importGa4, type Ga4Options, type Ga4Request } from './ga4/import.js';

/** The largest upload an import takes: 2 GiB. */
export const MAX_IMPORT_BYTES = 2 * 1024 ** 3;
/**
 * Imports of one site uploading, queued or running at once: each holds up to 2 GiB of disk until
 * it ends, so a site cannot fill the disk with uploads.
 */
export const MAX_PENDING_IMPORTS = 3;
/** How long a worker holds a job between two progress reports before another may take it. */
const LEASE_MS = 5 * 60_000;
/** How long a job whose write failed waits before it is taken again from its file. */
const WRITE_RETRY_MS = 60_000;
/** Progress is written at most this often. */
const PROGRESS_EVERY_MS = 1_000;

export function importView(job: ImportJob): ImportView {
  const report = job.report === null ? null : (JSON.parse(job.report) as ImportReport);
  return {
    importId: job.id,
    source: job.source,
    status: job.status,
    createdAt: job.createdAt,
    from: report?.days?.from ?? null,
    to: report?.days?.to ?? null,
    progress: job.progress,
    rows: report?.rows ?? 0,
    skippedRows: report?.skippedRows ?? 0,
    skippedBots: report?.skippedBots ?? 0,
    renamedEvents: report?.renamedEvents ?? 0,
    skippedDays: report?.skippedDays ?? [],
    // Reports written before svc read older exports list no missing columns.
    files: (report?.files ?? []).map((f) => ({ ...f, missingColumns: f.missingColumns ?? [] })),
    skippedLines: report?.skippedLines ?? [],
    error: job.error,
  };
}

export interface ImportServiceOptions {
  events: EventStore;
  jobs: ImportJobStore;
  clock: Clock;
  dataDir: string;
  /** Whether this process runs jobs (the worker role): an upload then starts at once. */
  runsJobs: boolean;
  maxBytes?: number;
  warn(obj: unknown, message: string): void;
  /** The site of a job (raw events become its events). */
  getSite(siteId: string): Promise<Site | undefined>;
  /**
   * The import path of NDJSON lines (src/ingest/importer.ts, importReadLines), which raw events
   * (GoatCounter's, Umami's) go through as the lines' fields; `read` reads them from the start, and
   * `stamp` names the job and the earlier imports of its source whose events it replaces.
   */
  importReadLines(site: Site, read: () => AsyncIterable<ImportLineFields[]>, stamp: ImportStamp): Promise<NdjsonReport>;
  /**
   * Removes the events a job of raw events wrote and rewrites what was derived from them on their
   * days (src/stats/rollups/imports.ts, removeImportedEvents).
   */
  removeEvents(siteId: string, importId: string): Promise<void>;
  /** Adds an export's annotations to the site of a job (./annotations.ts, addAnnotations). */
  addAnnotations(siteId: string, annotations: NewAnnotation[]): Promise<void>;
  /** Google's endpoints for GA4 imports (Google's own by default), and their tuning (tests: the stand-in's CA, short waits, small pages). */
  ga4?: Ga4Options;
  /** How long a job whose write failed waits before it runs again (WRITE_RETRY_MS; tests shorten it). */
  writeRetryMs?: number;
}

const newImportId = () => `imp_${randomBytes(9).toString('base64url')}`;

type RawEventSource = 'goatcounter' | 'umami';

/** The sources whose exports hold raw events, which go through the NDJSON import path. */
const RAW_EVENT_FORMATS: Readonly<Record<RawEventSource, RawEventFormat>> = { goatcounter: goatcounterFormat, umami: umamiFormat };

const isRawEventSource = (source: ImportSource): source is RawEventSource => Object.hasOwn(RAW_EVENT_FORMATS, source);

/** Why a job whose upload is not stored whole fails: the process receiving it stopped before it was. */
export const UPLOAD_NOT_WHOLE = 'the upload did not arrive whole: the process receiving it stopped before it was stored; upload the file again';

/** Thrown out of a job's progress report, and its calls to Google, when its worker stops. */
class JobStopped extends Error {}

/** Why a GA4 job whose process stopped fails. */
export const GA4_KEY_GONE =
  'the import stopped with the process that ran it: the service account key lives in that process\'s memory only, never stored, so the job cannot go on; start the import again (it replaces the same days)';

export class ImportService {
  private readonly holder = `${randomUUID()}`;
  private running: Promise<void> | null = null;
  private stopping = false;
  private readonly maxBytes: number;
  /** Uploads of each site this process is receiving, counted before a byte is written. */
  private readonly uploading = new Map<string, number>();
  /** The requests of the GA4 jobs this process runs, keys included: in memory only, until the job ends. */
  private readonly ga4Requests = new Map<string, Ga4Request>();
  /** The jobs this process runs outside the queue (GA4's, uploads read as they arrive), which `drain` waits for too. */
  private readonly ownRuns = new Set<Promise<void>>();
  /** The uploads still arriving whose jobs already read them, by job id. */
  private readonly arrivals = new Map<string, { arrival: UploadArrival; announced: number; runEnded: boolean }>();
  /**
   * The one import this process runs at a time, whatever started it (the queue, an upload read as it
   * arrives, a GA4 request): imports at once would add their memory together (docs/operations.md#memory).
   */
  private readonly turn = new PerKeySlots(1, Number.MAX_SAFE_INTEGER);
  /** The job whose turn it is. */
  private runningHere: string | null = null;
  /** Aborted by `stop`: the calls to Google under way and the waits between them end at once. */
  private stopSignal = new AbortController();

  constructor(private readonly options: ImportServiceOptions) {
    this.maxBytes = options.maxBytes ?? MAX_IMPORT_BYTES;
  }

  private get folder(): string {
    return join(this.options.dataDir, IMPORTS_FOLDER);
  }

  /** Where this process keeps its copy of a job's upload: a file of its own imports folder. */
  private uploadPath(job: Pick<ImportJob, 'id'>): string {
    return join(this.folder, `${job.id}.upload`);
  }

  /**
   * Copies a job's stored upload to this process's file of it, a chunk at a time, each chunk a
   * progress report (which renews the lease and stops the copy when the worker stops). An upload
   * not stored whole (its process stopped while it arrived) fails the job with the reason.
   */
  private async fetchUpload(job: ImportJob, progress: (done: number) => void): Promise<string> {
    await mkdir(this.folder, { recursive: true, mode: 0o700 });
    const path = this.uploadPath(job);
    const { jobs } = this.options;
    async function* chunks(): AsyncGenerator<Buffer> {
      for await (const chunk of jobs.readUpload(job.id)) {
        progress(0);
        yield chunk;
      }
    }
    try {
      await pipeline(chunks(), createWriteStream(path, { mode: 0o600 }));
    } catch (err) {
      await rm(path, { force: true });
      throw err instanceof UploadNotStored ? new ImportRefused(UPLOAD_NOT_WHOLE, { cause: err }) : err;
    }
    return path;
  }

  /**
   * Streams an upload to disk (refused past the size limit before more is read), checks it is one
   * of the formats, and queues its job, or on a process that runs jobs starts a raw-event upload's
   * job as it arrives (receiveWhileImporting). `name`: the file's own name, which gives a single CSV
   * its table; `announced`: its content-length, 0 when none (a job's progress reads against it).
   */
  async upload(site: Site, source: ImportSource, name: string, body: AsyncIterable<Buffer>, announced = 0): Promise<{ importId: string }> {
    return this.arriving(site, (counted) => {
      if (isRawEventSource(source) && this.options.runsJobs) return this.receiveWhileImporting(site, source, name, body, announced, counted);
      return this.receive(site, source, name, body);
    });
  }

  /**
   * Starts an import of a site counted as arriving until `start` ends (its job exists then), so that
   * requests at the same instant cannot pass MAX_PENDING_IMPORTS together: counted before anything
   * is read or written; the jobs of other processes are in the queue. `start` may end the count
   * sooner (`counted`), once its job exists.
   */
  private async arriving<T>(site: Site, start: (counted: () => void) => Promise<T>): Promise<T> {
    const receiving = (this.uploading.get(site.id) ?? 0) + 1;
    this.uploading.set(site.id, receiving);
    let counting = true;
    const counted = () => {
      if (!counting) return;
      counting = false;
      const left = (this.uploading.get(site.id) ?? 1) - 1;
      if (left === 0) this.uploading.delete(site.id);
      else this.uploading.set(site.id, left);
    };
    try {
      await this.checkPending(site, receiving);
      return await start(counted);
    } finally {
      counted();
    }
  }

  /** Refuses one more import of a site that has MAX_PENDING_IMPORTS uploading (`receiving` of them here), queued or running. */
  private async checkPending(site: Site, receiving: number): Promise<void> {
    const pending = (await this.options.jobs.listImportJobs(site.id)).filter((j) => j.status === 'queued' || j.status === 'running').length;
    if (pending + receiving > MAX_PENDING_IMPORTS) throw apiError('RATE_LIMITED', 'imports', { max: MAX_PENDING_IMPORTS }, { 'retry-after': '60' });
  }

  /**
   * Starts a GA4 import in this process: its job is created running under this process's lease (no
   * other takes it) and its key stays in memory until the job ends.
   */
  async importGa4(site: Site, request: Ga4Request): Promise<{ importId: string }> {
    return this.arriving(site, () => this.startGa4(site, request));
  }

  private async startGa4(site: Site, request: Ga4Request): Promise<{ importId: string }> {
    const now = this.options.clock.now();
    const job: ImportJob = {
      id: newImportId(),
      siteId: site.id,
      source: 'ga4',
      status: 'running',
      createdAt: now,
      uploadFile: '',
      fileName: `GA4 property ${request.property}`,
      progress: 0,
      report: null,
      error: null,
    };
    await this.options.jobs.createImportJob(job, { holder: this.holder, leaseUntil: now + LEASE_MS });
    this.ga4Requests.set(job.id, request);
    const run = this.runHere(job)
      .catch((err: unknown) => this.options.warn({ err: String(err), importId: job.id }, 'a GA4 import job stopped on an error'))
      .finally(() => {
        this.ga4Requests.delete(job.id);
        this.ownRuns.delete(run);
      });
    this.ownRuns.add(run);
    return { importId: job.id };
  }

  /** Runs a job this process holds, and again after a failed write (as the queue would, a minute later). */
  private async runHere(job: ImportJob): Promise<void> {
    while ((await this.runJob(job)) === 'again') {
      try {
        await sleep(this.options.writeRetryMs ?? WRITE_RETRY_MS, undefined, { signal: this.stopSignal.signal });
      } catch {
        // Stopping: no other process can run it again (the key stays here).
        await removeImport(this.options.events, { siteId: job.siteId, importId: job.id });
        await this.options.jobs.finishImportJob(job.id, this.holder, { status: 'failed', report: null, error: GA4_KEY_GONE });
        return;
      }
    }
  }

  /** Receives an upload whole into a file here, checks it, stores it beside its job and queues the job; the file goes either way. */
  private async receive(site: Site, source: ImportSource, name: string, body: AsyncIterable<Buffer>): Promise<{ importId: string }> {
    const id = newImportId();
    await mkdir(this.folder, { recursive: true, mode: 0o700 });
    const uploadFile = `${id}.upload`;
    const path = join(this.folder, uploadFile);
    const { jobs, clock } = this.options;
    try {
      await pipeline(Readable.from(body), this.sizeLimit(), createWriteStream(path, { mode: 0o600 }));
      if (isRawEventSource(source)) await checkRawExport(path, RAW_EVENT_FORMATS[source], name);
      else await checkPlausibleExport(path, name);
      await jobs.storeUpload(id, createReadStream(path), clock);
      await jobs.createImportJob({ id, siteId: site.id, source, createdAt: clock.now(), uploadFile, fileName: name }).catch(async (err: unknown) => {
        await jobs.deleteUpload(id);
        throw err;
      });
    } catch (err) {
      if (err instanceof ImportRefused) throw apiError('INVALID_IMPORT', 'file', { reason: err.message });
      throw err;
    } finally {
      await rm(path, { force: true });
    }
    this.kick();
    return { importId: id };
  }

  /**
   * An upload of raw events (GoatCounter's, Umami's) on a process that runs jobs: its job is created
   * running here and reads the file as it arrives, so that the import ends about when the upload
   * does. Once whole and checked it is stored beside its job before the reading may end, so that a
   * job taken again after a crash reads the stored upload, and one whose upload was never stored
   * whole fails. An upload that fails (too large, cut, not the format) leaves no job and nothing stored.
   */
  private async receiveWhileImporting(site: Site, source: RawEventSource, name: string, body: AsyncIterable<Buffer>, announced: number, counted: () => void): Promise<{ importId: string }> {
    const id = newImportId();
    await mkdir(this.folder, { recursive: true, mode: 0o700 });
    const uploadFile = `${id}.upload`;
    const path = join(this.folder, uploadFile);
    const arrival = new UploadArrival();
    const cut = new AbortController();
    const uploaded = pipeline(Readable.from(body), this.sizeLimit(), UploadArrival.writer(await open(path, 'wx', 0o600), arrival), { signal: cut.signal });
    const now = this.options.clock.now();
    const job: ImportJob = { id, siteId: site.id, source, status: 'running', createdAt: now, uploadFile, fileName: name, progress: 0, report: null, error: null };
    let run: Promise<void> | null = null;
    try {
      await this.options.jobs.createImportJob(job, { holder: this.holder, leaseUntil: now + LEASE_MS });
      counted();
      const arriving = { arrival, announced, runEnded: false };
      this.arrivals.set(id, arriving);
      const running: Promise<void> = this.runJob(job).then(
        () => undefined,
        (err: unknown) => this.options.warn({ err: String(err), importId: id }, 'an import job stopped on an error'),
      );
      run = running.finally(() => {
        this.arrivals.delete(id);
        this.ownRuns.delete(running);
      });
      this.ownRuns.add(running);
      await uploaded;
      await checkRawExport(path, RAW_EVENT_FORMATS[source], name);
      // Stored before the reading may end, so that the job's end removes it with the job.
      await this.options.jobs.storeUpload(id, createReadStream(path), this.options.clock);
      arrival.ended('whole');
      // A run that ended while the file came left the file to this request, and the stored upload
      // too unless the job waits to be taken again (its worker stopped).
      if (arriving.runEnded) {
        await rm(path, { force: true });
        const left = await this.options.jobs.getImportJob(id);
        if (left?.status !== 'queued' && left?.status !== 'running') await this.options.jobs.deleteUpload(id);
      }
      return { importId: id };
    } catch (err) {
      cut.abort();
      arrival.ended('cut');
      await this.options.jobs.deleteImportJob(id);
      // The run finds its job gone, and removes what it wrote.
      await run;
      await rm(path, { force: true });
      if (err instanceof ImportRefused) throw apiError('INVALID_IMPORT', 'file', { reason: err.message });
      throw err;
    } finally {
      uploaded.catch(() => undefined);
    }
  }

  /** Passes an upload's bytes on, and fails it once they pass the size limit. */
  private sizeLimit(): Transform {
    let size = 0;
    const max = this.maxBytes;
    return new Transform({
      transform(chunk: Buffer, _encoding, done) {
        size += chunk.length;
        if (size > max) done(apiError('PAYLOAD_TOO_LARGE', 'importFile', { max }));
        else done(null, chunk);
      },
    });
  }

  async list(site: Site): Promise<ImportView[]> {
    return (await this.options.jobs.listImportJobs(site.id)).map(importView);
  }

  /** Removes an import's data and its job with its stored upload; 404 for another site's or an unknown id. */
  async remove(site: Site, importId: string): Promise<void> {
    const job = await this.options.jobs.getImportJob(importId);
    if (!job || job.siteId !== site.id) throw apiError('NOT_FOUND', 'import');
    await this.options.jobs.deleteImportJob(job.id);
    // A worker running it finds the job gone at its next report, and removes what it wrote and its copy of the upload too.
    if (this.runningHere === job.id) return;
    if (!isRawEventSource(job.source)) return this.removeData(job);
    // Removing events rewrites their days' rollups, with an import's memory: in this process's turn of imports.
    const release = (await this.turn.take('import'))!;
    try {
      await this.removeData(job);
    } finally {
      release();
    }
  }

  /** Removes what a job wrote: its imported aggregates, or its events and what was derived from them. */
  private async removeData(job: ImportJob): Promise<void> {
    if (isRawEventSource(job.source)) await this.options.removeEvents(job.siteId, job.id);
    else await removeImport(this.options.events, { siteId: job.siteId, importId: job.id });
  }

  /** Starts running queued jobs in the background, on a process that runs them. */
  kick(): void {
    if (!this.options.runsJobs) return;
    this.runNow().catch((err: unknown) => this.options.warn({ err: String(err) }, 'import jobs stopped on an error: the next run takes them again'));
  }

  /** Runs the queued jobs, or waits for the run already going on in this process. */
  runNow(): Promise<void> {
    this.running ??= this.runQueued().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  /** Waits for the jobs started in the background, GA4 jobs included. */
  async drain(): Promise<void> {
    while (this.running || this.ownRuns.size > 0) {
      await Promise.all([this.running?.catch(() => undefined), ...this.ownRuns]);
    }
  }

  /** Takes jobs again after `stop()`. */
  start(): void {
    this.stopping = false;
    if (this.stopSignal.signal.aborted) this.stopSignal = new AbortController();
    this.kick();
  }

  /** Stops the jobs running (a file's back to the queue, a GA4 one failed; what they wrote removed) and takes no other. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.stopSignal.abort(new JobStopped());
    await this.drain();
  }

  /** Runs every job that is queued or whose worker stopped, one after another, once the stale uploads of no job are gone. */
  async runQueued(): Promise<void> {
    await this.options.jobs.sweepUploads(this.options.clock.now() - LEASE_MS);
    while (!this.stopping) {
      const now = this.options.clock.now();
      const job = await this.options.jobs.claimImportJob(this.holder, now, now + LEASE_MS);
      if (!job) return;
      // A GA4 job of this process whose lease lapsed (a long wait on Google) is still running here.
      if (job.source === 'ga4' && this.ga4Requests.has(job.id)) continue;
      // So is a job whose upload still arrives here.
      if (this.arrivals.has(job.id)) continue;
      await this.runJob(job);
    }
  }

  /**
   * An export's raw events (GoatCounter's, Umami's) through the NDJSON import path, in one call
   * (atomic: all its events are stored or none), with its bots and bad rows counted apart.
   */
  private async importRawEvents(job: ImportJob, format: RawEventFormat, path: string, progress: (done: number) => void): Promise<ImportReport> {
    const site = await this.options.getSite(job.siteId);
    if (!site) throw new ImportRefused('the site no longer exists');
    // An upload still arriving is read as it grows, its size the one announced.
    const arriving = this.arrivals.get(job.id);
    const size = arriving ? arriving.announced : (await stat(path)).size;
    let read = 0;
    const skips = newSkips();
    let readings = 0;
    // The first reading reports the progress and counts what is left out; a second one (lines not
    // in time order, read again to be sorted, once the upload is whole) only hands the lines on again.
    async function* lines(): AsyncGenerator<ImportLineFields[]> {
      const first = readings++ === 0;
      const onRead = (n: number) => {
        read += n;
        if (first) progress((0.9 * read) / Math.max(size, read, 1));
      };
      const bytes = first && arriving ? await openArrivingCsv(path, arriving.arrival, onRead) : await openCsvFile(path, onRead);
      yield* format.lines(csvBatches(bytes), site!.domain, first ? skips : newSkips(), job.fileName);
    }
    // The same source's earlier imports that ended: the days this one covers are its own (docs/imports.md, "Never counted twice").
    const replaces = (await this.options.jobs.listImportJobs(job.siteId)).filter((j) => j.source === job.source && j.status === 'done' && j.id !== job.id).map((j) => j.id);
    const result = await this.options.importReadLines(site, lines, { importId: job.id, replaces }).catch((err: unknown) => {
      throw err instanceof ApiError ? new ImportRefused(err.message, { cause: err }) : err;
    });
    const rejected = result.errors.map((e) => ({ file: job.fileName, line: skips.sourceLines[e.line - 1] ?? e.line, reason: e.reason }));
    return {
      days: daysOf(skips),
      rows: result.accepted,
      skippedRows: skips.bots + skips.badRows + result.rejected,
      skippedBots: skips.bots,
      renamedEvents: skips.renamedEvents,
      skippedLines: [...skips.lines.map((l) => ({ file: job.fileName, ...l })), ...rejected].sort((a, b) => a.line - b.line).slice(0, 100),
      skippedDays: [],
      files: [{ ...ignoredFile(job.fileName), rows: result.accepted, skippedRows: skips.bots + skips.badRows + result.rejected }],
    };
  }

  /** GA4's job with the request this process holds for it; refused once the process that had the key stopped. */
  private async runGa4(job: ImportJob, progress: (done: number) => void): Promise<ImportReport> {
    const request = this.ga4Requests.get(job.id);
    if (!request) throw new ImportRefused(GA4_KEY_GONE);
    return importGa4(this.options.events, { siteId: job.siteId, importId: job.id }, request, { ...GOOGLE_ENDPOINTS, ...this.options.ga4, signal: this.stopSignal.signal }, progress);
  }

  /**
   * Runs a job to its end; `again` when its write failed and it is to run again (its lease held
   * meanwhile). This process's copy of its upload goes however it ends (the stored upload stays
   * while the job waits to be taken again); one still arriving is left to the request receiving it.
   */
  private async runJob(job: ImportJob): Promise<'ended' | 'again'> {
    const release = await this.inTurn(job);
    this.runningHere = job.id;
    try {
      return await this.runOnce(job);
    } finally {
      this.runningHere = null;
      release();
      const arriving = this.arrivals.get(job.id);
      if (arriving?.arrival.state === 'arriving') arriving.runEnded = true;
      else if (job.source !== 'ga4') await rm(this.uploadPath(job), { force: true });
    }
  }

  /** Waits until this process runs no other import, renewing the job's lease meanwhile; the function returned ends its turn. */
  private async inTurn(job: ImportJob): Promise<() => void> {
    const { jobs, clock } = this.options;
    const renew = setInterval(() => void jobs.reportImportProgress(job.id, this.holder, 0, clock.now() + LEASE_MS), LEASE_MS / 5);
    try {
      return (await this.turn.take('import'))!;
    } finally {
      clearInterval(renew);
    }
  }

  private async runOnce(job: ImportJob): Promise<'ended' | 'again'> {
    const { events, jobs, clock } = this.options;
    const target = { siteId: job.siteId, importId: job.id };
    let lastReport = 0;
    let deleted = false;
    const progress = (done: number) => {
      if (this.stopping) throw new JobStopped();
      const now = clock.now();
      if (now - lastReport < PROGRESS_EVERY_MS && done < 1) return;
      lastReport = now;
      void jobs.reportImportProgress(job.id, this.holder, Math.min(done, 0.99), now + LEASE_MS).then((held) => {
        if (!held) deleted = true;
      });
    };
    let outcome: { status: 'done' | 'failed'; report: string | null; error: string | null };
    try {
      // A job taken again after a restart starts from its upload: what its first run staged or wrote goes first.
      await this.removeData(job);
      let report: ImportReport;
      if (job.source === 'ga4') report = await this.runGa4(job, progress);
      else {
        // An upload still arriving is read as it comes (receiveWhileImporting).
        const path = this.arrivals.has(job.id) ? this.uploadPath(job) : await this.fetchUpload(job, progress);
        report = isRawEventSource(job.source) ? await this.importRawEvents(job, RAW_EVENT_FORMATS[job.source], path, progress) : await importPlausible(events, target, path, job.fileName, progress);
        // Once the figures are written: a job taken again adds no annotation twice.
        if (job.source === 'plausible') await this.options.addAnnotations(job.siteId, await readAnnotations(path));
      }
      outcome = { status: 'done', report: JSON.stringify(report), error: null };
    } catch (err) {
      const ga4 = job.source === 'ga4';
      if (err instanceof JobStopped && !ga4) {
        await jobs.releaseImportJob(job.id, this.holder);
        return 'ended';
      }
      if (err instanceof WriteInterrupted) {
        // Failing would leave the earlier import's days rewritten in part: the job runs again instead
        // (a GA4 job in this process, which holds its key, under a lease that outlasts the wait).
        this.options.warn({ err: String(err), importId: job.id }, 'an import job is taken again in a minute: its write failed');
        const held = await jobs.reportImportProgress(job.id, this.holder, 0.99, clock.now() + (this.options.writeRetryMs ?? WRITE_RETRY_MS) + (ga4 ? LEASE_MS : 0));
        return ga4 && held ? 'again' : 'ended';
      }
      // A GA4 job cannot go back to the queue: no other process has its key.
      const failure = err instanceof JobStopped ? new ImportRefused(GA4_KEY_GONE) : err;
      if (!(failure instanceof ImportRefused)) this.options.warn({ err: String(failure), importId: job.id }, 'an import job failed');
      // Raw events fail after their commit too (replacing the earlier import's, or their rollups): none stay.
      if (isRawEventSource(job.source)) await this.removeData(job);
      outcome = { status: 'failed', report: null, error: failure instanceof ImportRefused ? failure.message : `the import failed: ${String(failure)}` };
    }
    // Ending the job removes its stored upload with it.
    const finished = !deleted && (await jobs.finishImportJob(job.id, this.holder, outcome));
    // Deleted while it ran: nothing of it stays.
    if (!finished && (await jobs.getImportJob(job.id)) === undefined) await this.removeData(job);
    return 'ended';
  }
}
