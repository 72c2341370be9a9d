import type { Kysely } from 'kysely';

// A site's settlement: the sessions and goal conversions of its days after the watermark counted up
// to an instant, as JSON; null where none is kept. Dropped by 024_no_settlements.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('rollup_state').addColumn('settlement', 'text').execute();
}
