import type { Kysely } from 'kysely';

// Event goals may require custom property values (\`props\`, JSON with sorted keys, '' when none, as
// src/entities/goals.ts writes it): existing goals require none. A goal is one per site, kind,
// pattern and props, so the unique index takes the props in (two goals that differ by their props
// count different events).
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('goals').addColumn('props', 'text', (c) => c.notNull().defaultTo('')).execute();
  await db.schema.dropIndex('goals_site_kind_pattern').execute();
  await db.schema.createIndex('goals_site_kind_pattern_props').on('goals').columns(['site_id', 'kind', 'pattern', 'props']).unique().execute();
}
