import type { Kysely } from 'kysely';

// How many days each site keeps its raw events (`rawDays`, 30 to 800): existing sites keep the 30
// days every site had.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('sites').addColumn('raw_days', 'integer', (c) => c.notNull().defaultTo(30)).execute();
}
