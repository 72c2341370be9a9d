// The ImportJobStore port: import jobs in the metadata database (migration 013_imports), and their
// uploads' bytes in chunks beside them (migration 022_import_uploads), which every process of a
// deployment reaches through the database, sharing no disk.

import type { Clock } from '../../core/clock.js';
import type { ImportSource, ImportStatus } from '../../core/vocabulary.js';

export type { ImportSource, ImportStatus };

export interface ImportJob {
  id: string;
  siteId: string;
  source: ImportSource;
  status: ImportStatus;
  createdAt: number;
  /**
   * The uploaded file: the name of its copy in the imports folder of the process reading it (the
   * bytes themselves are the job's stored upload; '' for a GA4 job, which has none); and the name
   * it was sent under.
   */
  uploadFile: string;
  fileName: string;
  progress: number;
  /** The job's report as JSON, once it has one. */
  report: string | null;
  error: string | null;
}

/** The most bytes of an upload one row holds: an upload is written and read a chunk at a time. */
export const UPLOAD_CHUNK_BYTES = 1024 * 1024;

/** Thrown by readUpload for an upload not stored whole (cut while it was stored, deleted, or never stored). */
export class UploadNotStored extends Error {}

export interface ImportJobStore {
  /**
   * Queues a job; with `heldBy`, creates it running under that holder's lease instead (a job its
   * own process runs at once, which no other may take while the lease holds).
   */
  createImportJob(job: Pick<ImportJob, 'id' | 'siteId' | 'source' | 'createdAt' | 'uploadFile' | 'fileName'>, heldBy?: { holder: string; leaseUntil: number }): Promise<void>;
  /** A site's jobs, newest first. */
  listImportJobs(siteId: string): Promise<ImportJob[]>;
  getImportJob(id: string): Promise<ImportJob | undefined>;
  /**
   * Takes the oldest job that is queued, or running under a lease that expired (its worker
   * stopped), for `holder` until `leaseUntil`; one caller gets each.
   */
  claimImportJob(holder: string, now: number, leaseUntil: number): Promise<ImportJob | undefined>;
  /** Records progress and renews the lease; false when the job is no longer the holder's (deleted, or taken over). */
  reportImportProgress(id: string, holder: string, progress: number, leaseUntil: number): Promise<boolean>;
  /** Ends a job the holder runs: done with its report, or failed with its error (and report, if any); its upload goes with it. */
  finishImportJob(id: string, holder: string, outcome: { status: 'done' | 'failed'; report: string | null; error: string | null }): Promise<boolean>;
  /** Puts a job the holder runs back in the queue (its worker stops): the next worker starts it again. */
  releaseImportJob(id: string, holder: string): Promise<void>;
  /** Deletes a job and its upload, in one transaction. */
  deleteImportJob(id: string): Promise<void>;
  /**
   * Stores an upload's bytes for the job `importId` in chunks of UPLOAD_CHUNK_BYTES, each written on
   * its own (no transaction held while bytes arrive), then marks it whole; `clock` dates each chunk as
   * it is written, so that sweepUploads never takes an upload still arriving, however slowly. Failing,
   * it removes what it wrote. Resolves to the upload's size.
   */
  storeUpload(importId: string, bytes: AsyncIterable<Buffer>, clock: Clock): Promise<number>;
  /** A stored upload's bytes in order, one chunk read at a time; fails with UploadNotStored when it is not whole. */
  readUpload(importId: string): AsyncGenerator<Buffer>;
  /** Removes an upload's chunks, whole or not. */
  deleteUpload(importId: string): Promise<void>;
  /**
   * Removes the uploads of no queued or running job that had no chunk written since `writtenBefore`
   * (their process stopped while storing them, or their job ended meanwhile); how many rows went.
   */
  sweepUploads(writtenBefore: number): Promise<number>;
}
