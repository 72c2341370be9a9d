// The ImportJobStore port: import jobs in the metadata database (migration 013_imports).

import type { ImportSource, ImportStatus } from '../../core/vocabulary.js';

export type { ImportSource, ImportStatus };

export interface ImportJob {
  id: string;
  siteId: string;
  source: ImportSource;
  status: ImportStatus;
  createdAt: number;
  /**
   * The uploaded file: its name in the imports folder, which each process finds in its own
   * SVC_DATA_DIR (rows of older versions hold an absolute path, read as it is); and the name it
   * was sent under.
   */
  uploadFile: string;
  fileName: string;
  progress: number;
  /** The job's report as JSON, once it has one. */
  report: string | null;
  error: string | null;
}

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
  /** Ends a job the holder runs: done with its report, or failed with its error (and report, if any). */
  finishImportJob(id: string, holder: string, outcome: { status: 'done' | 'failed'; report: string | null; error: string | null }): Promise<boolean>;
  /** Puts a job the holder runs back in the queue (its worker stops): the next worker starts it again. */
  releaseImportJob(id: string, holder: string): Promise<void>;
  deleteImportJob(id: string): Promise<void>;
}
