// A site's goals, at most one per kind, pattern and properties (migration 009_unique_goals), and at
// most GOALS_PER_SITE_MAX of them: the count and the write are one serialized transaction.
import type { Kysely } from 'kysely';
import { GOALS_PER_SITE_MAX, type MatchKind } from '../../../core/vocabulary.js';
import { goalPropsOf, storedGoalProps, type Goal, type NewGoal } from '../../../entities/goals.js';
import { isUniqueViolation } from '../dialect.js';
import type { MetaDatabase } from '../schema.js';
import { DuplicateGoal, type MetaStore } from '../types.js';
import { boundedInsert } from './serialized-write.js';

function goalOf(r: { id: number; site_id: number; name: string; kind: MatchKind; pattern: string; props: string; currency: string | null }): Goal {
  return { goalId: r.id, siteId: r.site_id, name: r.name, kind: r.kind, pattern: r.pattern, props: goalPropsOf(r.props), currency: r.currency };
}

/** Goals. */
export function goalRecords(db: Kysely<MetaDatabase>) {
  return {
    async createGoal(siteInternalId: number, goal: NewGoal, now: number): Promise<Goal> {
      const props = storedGoalProps(goal.props ?? null);
      try {
        const row = await boundedInsert(db, 'goals', siteInternalId, GOALS_PER_SITE_MAX, (trx) =>
          trx
            .insertInto('goals')
            .values({ site_id: siteInternalId, name: goal.name, kind: goal.kind, pattern: goal.pattern, props, currency: goal.currency ?? null, created_at: now })
            .returning(['id', 'site_id', 'name', 'kind', 'pattern', 'props', 'currency'])
            .executeTakeFirstOrThrow(),
        );
        return goalOf(row);
      } catch (err) {
        // The unique index (site, kind, pattern, props) decides, so two concurrent creations cannot both pass.
        if (!isUniqueViolation(err)) throw err;
        const existing = await db
          .selectFrom('goals')
          .select('id')
          .where('site_id', '=', siteInternalId)
          .where('kind', '=', goal.kind)
          .where('pattern', '=', goal.pattern)
          .where('props', '=', props)
          .executeTakeFirstOrThrow();
        throw new DuplicateGoal(existing.id);
      }
    },

    async listGoals(siteInternalId: number): Promise<Goal[]> {
      const rows = await db
        .selectFrom('goals')
        .select(['id', 'site_id', 'name', 'kind', 'pattern', 'props', 'currency'])
        .where('site_id', '=', siteInternalId)
        .orderBy('id')
        .execute();
      return rows.map(goalOf);
    },

    async deleteGoal(siteInternalId: number, goalId: number): Promise<boolean> {
      const result = await db.deleteFrom('goals').where('site_id', '=', siteInternalId).where('id', '=', goalId).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
  } satisfies Partial<MetaStore>;
}
