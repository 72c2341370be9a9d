import type { Kysely } from 'kysely';

// A site's settlement of its days after the watermark, as JSON. Nothing reads or writes it
// (docs/decisions/today-from-raw-events.md): the column stays, so that another checkout of svc can
// run on the same metadata (the benches that compare two checkouts do).
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('rollup_state').addColumn('settlement', 'text').execute();
}
