import type { Kysely } from 'kysely';

// Import jobs (src/imports): one row per uploaded file, from queued to done or failed. The worker
// that runs a job holds it until `lease_until` (epoch ms) and renews it with each progress report;
// a job whose holder stopped (a restart) is taken again once that passes and starts again from its
// file, which stays on disk until the job ends. `report` is the job's report as JSON.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('import_jobs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('site_id', 'text', (c) => c.notNull()) // the site's public id, as in the event store
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('file_path', 'text', (c) => c.notNull())
    .addColumn('file_name', 'text', (c) => c.notNull())
    .addColumn('progress', 'double precision', (c) => c.notNull().defaultTo(0))
    .addColumn('report', 'text')
    .addColumn('error', 'text')
    .addColumn('holder', 'text')
    .addColumn('lease_until', 'bigint')
    .execute();
  await db.schema.createIndex('import_jobs_site').on('import_jobs').columns(['site_id', 'created_at']).execute();
  await db.schema.createIndex('import_jobs_status').on('import_jobs').columns(['status']).execute();
}
