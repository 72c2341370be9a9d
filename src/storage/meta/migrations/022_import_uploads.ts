import type { Kysely } from 'kysely';
import { bytesType } from './columns.js';

// Import uploads kept in the metadata database (src/storage/meta/kysely-import-store.ts), so that the
// process receiving an upload and the worker running its job share no disk: `import_upload_chunks`
// holds an upload's bytes in numbered chunks of at most 1 MiB, each with the time it was written;
// `import_uploads` is written after the last chunk and says the upload is whole (its size and chunk
// count). Chunks go when their job ends or is deleted; chunks of no job are swept once stale.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('import_upload_chunks')
    .addColumn('import_id', 'text', (c) => c.notNull())
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('bytes', bytesType(db), (c) => c.notNull())
    .addColumn('written_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('import_upload_chunks_pk', ['import_id', 'seq'])
    .execute();
  await db.schema
    .createTable('import_uploads')
    .addColumn('import_id', 'text', (c) => c.primaryKey())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('chunks', 'integer', (c) => c.notNull())
    .execute();
}
