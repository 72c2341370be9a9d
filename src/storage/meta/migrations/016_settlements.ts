import type { Kysely } from 'kysely';

// A site's settlement (src/stats/settlement.ts): the sessions and goal conversions of its days after
// the watermark counted up to an instant, as JSON; null where none is kept.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('rollup_state').addColumn('settlement', 'text').execute();
}
