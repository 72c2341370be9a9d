import type { Kysely } from 'kysely';

// Revenue goals: an event goal with a currency (three capital letters) sums the revenue its
// conversions carry in that currency. Existing goals have none.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('goals').addColumn('currency', 'text').execute();
}
