import { sql, type Kysely } from 'kysely';

// At most one goal per site, kind and pattern (src/storage/meta/kysely/goals.ts, createGoal): two
// such goals count the same events. A database that already holds such twins keeps the first of
// each (lowest id); the alert rules on a later twin move to the kept one, then the twin goes, so
// that the unique index can be built.
export async function up(db: Kysely<any>): Promise<void> {
  const kept = sql`(SELECT min(k.id) FROM goals k WHERE k.site_id = goals.site_id AND k.kind = goals.kind AND k.pattern = goals.pattern)`;
  await sql`UPDATE alert_rules SET goal_id = (SELECT ${kept} FROM goals WHERE goals.id = alert_rules.goal_id)
    WHERE goal_id IN (SELECT id FROM goals WHERE id <> ${kept})`.execute(db);
  await sql`DELETE FROM goals WHERE id <> ${kept}`.execute(db);
  await db.schema.createIndex('goals_site_kind_pattern').on('goals').columns(['site_id', 'kind', 'pattern']).unique().execute();
}
