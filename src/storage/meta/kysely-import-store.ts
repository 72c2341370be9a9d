// ImportJobStore over the MetaStore's Kysely handle (SQLite and PostgreSQL alike).
import type { Kysely, Selectable } from 'kysely';
import type { ImportJob, ImportJobStore, ImportSource, ImportStatus } from './import-types.js';
import type { MetaDatabase } from './schema.js';

export interface ImportJobsTable {
  id: string;
  site_id: string;
  source: string;
  status: string;
  created_at: number;
  /** ImportJob.uploadFile: a name in the imports folder, or (rows of older versions) an absolute path. */
  file_path: string;
  file_name: string;
  progress: number;
  report: string | null;
  error: string | null;
  holder: string | null;
  lease_until: number | null;
}

interface ImportDatabase extends MetaDatabase {
  import_jobs: ImportJobsTable;
}

function toJob(row: Selectable<ImportJobsTable>): ImportJob {
  return {
    id: row.id,
    siteId: row.site_id,
    source: row.source as ImportSource,
    status: row.status as ImportStatus,
    createdAt: Number(row.created_at),
    uploadFile: row.file_path,
    fileName: row.file_name,
    progress: Number(row.progress),
    report: row.report,
    error: row.error,
  };
}

export class KyselyImportStore implements ImportJobStore {
  private readonly db: Kysely<ImportDatabase>;

  constructor(db: Kysely<MetaDatabase>) {
    this.db = db as unknown as Kysely<ImportDatabase>;
  }

  async createImportJob(job: Pick<ImportJob, 'id' | 'siteId' | 'source' | 'createdAt' | 'uploadFile' | 'fileName'>, heldBy?: { holder: string; leaseUntil: number }): Promise<void> {
    const state = heldBy ? { status: 'running', holder: heldBy.holder, lease_until: heldBy.leaseUntil } : { status: 'queued' };
    await this.db
      .insertInto('import_jobs')
      .values({ id: job.id, site_id: job.siteId, source: job.source, ...state, created_at: job.createdAt, file_path: job.uploadFile, file_name: job.fileName, progress: 0 })
      .execute();
  }

  async listImportJobs(siteId: string): Promise<ImportJob[]> {
    const rows = await this.db.selectFrom('import_jobs').selectAll().where('site_id', '=', siteId).orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
    return rows.map(toJob);
  }

  async getImportJob(id: string): Promise<ImportJob | undefined> {
    const row = await this.db.selectFrom('import_jobs').selectAll().where('id', '=', id).executeTakeFirst();
    return row && toJob(row);
  }

  async claimImportJob(holder: string, now: number, leaseUntil: number): Promise<ImportJob | undefined> {
    for (;;) {
      const candidate = await this.db
        .selectFrom('import_jobs')
        .selectAll()
        .where((eb) => eb.or([eb('status', '=', 'queued'), eb.and([eb('status', '=', 'running'), eb('lease_until', '<=', now)])]))
        .orderBy('created_at')
        .orderBy('id')
        .executeTakeFirst();
      if (!candidate) return undefined;
      // Taken only if nobody took it since it was read: one claimer wins each job.
      const taken = await this.db
        .updateTable('import_jobs')
        .set({ status: 'running', holder, lease_until: leaseUntil })
        .where('id', '=', candidate.id)
        .where('status', '=', candidate.status)
        .where((eb) => (candidate.holder === null ? eb('holder', 'is', null) : eb('holder', '=', candidate.holder)))
        .executeTakeFirst();
      if (Number(taken.numUpdatedRows) > 0) return { ...toJob(candidate), status: 'running' };
    }
  }

  async reportImportProgress(id: string, holder: string, progress: number, leaseUntil: number): Promise<boolean> {
    const result = await this.db.updateTable('import_jobs').set({ progress, lease_until: leaseUntil }).where('id', '=', id).where('holder', '=', holder).where('status', '=', 'running').executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async finishImportJob(id: string, holder: string, outcome: { status: 'done' | 'failed'; report: string | null; error: string | null }): Promise<boolean> {
    const result = await this.db
      .updateTable('import_jobs')
      .set({ status: outcome.status, report: outcome.report, error: outcome.error, progress: outcome.status === 'done' ? 1 : undefined, holder: null, lease_until: null })
      .where('id', '=', id)
      .where('holder', '=', holder)
      .where('status', '=', 'running')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async releaseImportJob(id: string, holder: string): Promise<void> {
    await this.db.updateTable('import_jobs').set({ status: 'queued', progress: 0, holder: null, lease_until: null }).where('id', '=', id).where('holder', '=', holder).where('status', '=', 'running').execute();
  }

  async deleteImportJob(id: string): Promise<void> {
    await this.db.deleteFrom('import_jobs').where('id', '=', id).execute();
  }
}
