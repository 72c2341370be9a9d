// ImportJobStore over the MetaStore's Kysely handle (SQLite and PostgreSQL alike).
import type { Clock } from '../../core/clock.js';
import type { Kysely, Selectable } from 'kysely';
import { UPLOAD_CHUNK_BYTES, UploadNotStored, type ImportJob, type ImportJobStore, type ImportSource, type ImportStatus } from './import-types.js';
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
  import_upload_chunks: { import_id: string; seq: number; bytes: Uint8Array; written_at: number };
  import_uploads: { import_id: string; size: number; chunks: number };
}

/** The jobs whose uploads are still to be read: the sweep leaves theirs. */
const PENDING = ['queued', 'running'];

/** `bytes` cut into pieces of exactly `size` bytes, the last one shorter. */
async function* piecesOf(bytes: AsyncIterable<Buffer>, size: number): AsyncGenerator<Buffer> {
  let held: Buffer[] = [];
  let heldBytes = 0;
  for await (const buffer of bytes) {
    held.push(buffer);
    heldBytes += buffer.length;
    if (heldBytes < size) continue;
    let joined = Buffer.concat(held, heldBytes);
    while (joined.length >= size) {
      yield joined.subarray(0, size);
      joined = joined.subarray(size);
    }
    held = [joined];
    heldBytes = joined.length;
  }
  if (heldBytes > 0) yield Buffer.concat(held, heldBytes);
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
    return this.db.transaction().execute(async (trx) => {
      const result = await trx
        .updateTable('import_jobs')
        .set({ status: outcome.status, report: outcome.report, error: outcome.error, progress: outcome.status === 'done' ? 1 : undefined, holder: null, lease_until: null })
        .where('id', '=', id)
        .where('holder', '=', holder)
        .where('status', '=', 'running')
        .executeTakeFirst();
      const finished = Number(result.numUpdatedRows) > 0;
      if (finished) await removeUpload(trx, id);
      return finished;
    });
  }

  async releaseImportJob(id: string, holder: string): Promise<void> {
    await this.db.updateTable('import_jobs').set({ status: 'queued', progress: 0, holder: null, lease_until: null }).where('id', '=', id).where('holder', '=', holder).where('status', '=', 'running').execute();
  }

  async deleteImportJob(id: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('import_jobs').where('id', '=', id).execute();
      await removeUpload(trx, id);
    });
  }

  async storeUpload(importId: string, bytes: AsyncIterable<Buffer>, clock: Clock): Promise<number> {
    let seq = 0;
    let size = 0;
    try {
      for await (const piece of piecesOf(bytes, UPLOAD_CHUNK_BYTES)) {
        await this.db.insertInto('import_upload_chunks').values({ import_id: importId, seq, bytes: piece, written_at: clock.now() }).execute();
        seq += 1;
        size += piece.length;
      }
      await this.db.insertInto('import_uploads').values({ import_id: importId, size, chunks: seq }).execute();
      return size;
    } catch (err) {
      await this.deleteUpload(importId);
      throw err;
    }
  }

  async *readUpload(importId: string): AsyncGenerator<Buffer> {
    const whole = await this.db.selectFrom('import_uploads').select(['size', 'chunks']).where('import_id', '=', importId).executeTakeFirst();
    if (!whole) throw new UploadNotStored(`the upload of ${importId} is not stored whole`);
    let size = 0;
    for (let seq = 0; seq < Number(whole.chunks); seq++) {
      const chunk = await this.db.selectFrom('import_upload_chunks').select('bytes').where('import_id', '=', importId).where('seq', '=', seq).executeTakeFirst();
      if (!chunk) throw new UploadNotStored(`the upload of ${importId} was deleted while it was read`);
      size += chunk.bytes.length;
      yield Buffer.from(chunk.bytes.buffer, chunk.bytes.byteOffset, chunk.bytes.length);
    }
    if (size !== Number(whole.size)) throw new UploadNotStored(`the upload of ${importId} holds ${size} bytes, not ${whole.size}`);
  }

  async deleteUpload(importId: string): Promise<void> {
    await this.db.transaction().execute((trx) => removeUpload(trx, importId));
  }

  async sweepUploads(writtenBefore: number): Promise<number> {
    return this.db.transaction().execute(async (trx) => {
      const pending = trx.selectFrom('import_jobs').select('id').where('status', 'in', PENDING);
      const stale = trx.selectFrom('import_upload_chunks').select('import_id').groupBy('import_id').having((eb) => eb.fn.max('written_at'), '<', writtenBefore);
      const chunks = await trx.deleteFrom('import_upload_chunks').where('import_id', 'in', stale).where('import_id', 'not in', pending).executeTakeFirst();
      // An upload marked whole whose chunks are gone (or that had none) goes with them.
      const marks = await trx
        .deleteFrom('import_uploads')
        .where('import_id', 'not in', pending)
        .where('import_id', 'not in', trx.selectFrom('import_upload_chunks').select('import_id'))
        .executeTakeFirst();
      return Number(chunks.numDeletedRows) + Number(marks.numDeletedRows);
    });
  }
}

async function removeUpload(db: Kysely<ImportDatabase>, importId: string): Promise<void> {
  await db.deleteFrom('import_uploads').where('import_id', '=', importId).execute();
  await db.deleteFrom('import_upload_chunks').where('import_id', '=', importId).execute();
}
