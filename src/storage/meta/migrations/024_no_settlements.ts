import type { Kysely } from 'kysely';

// Reads of the days after the watermark group their raw events (docs/read-path.md): the rollup
// bookkeeping keeps no settlement of them.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('rollup_state').dropColumn('settlement').execute();
}
