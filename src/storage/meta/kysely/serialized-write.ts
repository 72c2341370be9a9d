// The write transaction of the records that read before they write (memberships, invitations, users,
// sign-in attempts, a site's bounded goals, segments, annotations, funnels and alert rules, an organisation's bounded
// active sites), one per engine.
import { sql, type Kysely } from 'kysely';
import type { AccountDatabase } from '../account-schema.js';
import { metaDialectOf } from '../dialect.js';
import type { MetaDatabase } from '../schema.js';
import { SITES_PER_ORG_MAX } from '../../../core/vocabulary.js';
import { LimitReached } from '../types.js';

/**
 * A write transaction that reads and then writes, which no other one that conflicts with it
 * interleaves with, from any process.
 * - SQLite: BEGIN IMMEDIATE takes the database's write lock before the first read: another
 *   process waits for it (up to busy_timeout) instead of failing with SQLITE_BUSY when a deferred
 *   transaction's read lock would have to become a write lock; in this process Kysely's one
 *   connection already serializes. What was read is still true when the write commits.
 * - PostgreSQL: READ COMMITTED, with `lockOnPostgres` first taking the locks its caller's
 *   conflicts need (row locks, or transaction-scoped advisory locks, each in its own key space:
 *   hashtext, where a collision only serializes two keys more). A holder commits before its
 *   locks go, so each statement after them sees what the holder wrote.
 */
export async function serializedWrite<T, DB = AccountDatabase>(
  db: Kysely<DB>,
  lockOnPostgres: ((trx: Kysely<DB>) => Promise<unknown>) | undefined,
  work: (trx: Kysely<DB>) => Promise<T>,
): Promise<T> {
  if (metaDialectOf(db) === 'postgres') {
    return db.transaction().execute(async (trx) => {
      await lockOnPostgres?.(trx);
      return work(trx);
    });
  }
  return db.connection().execute(async (connection) => {
    await sql`BEGIN IMMEDIATE`.execute(connection);
    try {
      const result = await work(connection);
      await sql`COMMIT`.execute(connection);
      return result;
    } catch (err) {
      await sql`ROLLBACK`.execute(connection);
      throw err;
    }
  });
}

/** The table of each kind of a site's bounded rows. */
const TABLE_OF = { goals: 'goals', segments: 'segments', annotations: 'annotations', funnels: 'funnels', alertRules: 'alert_rules' } as const;

/** Inserts a row of a site's table unless the site holds `max` already (then LimitReached); PostgreSQL locks the site's row first. */
export function boundedInsert<T>(db: Kysely<MetaDatabase>, kind: keyof typeof TABLE_OF, siteId: number, max: number, insert: (trx: Kysely<MetaDatabase>) => Promise<T>): Promise<T> {
  const lockSite = (trx: Kysely<MetaDatabase>) => trx.selectFrom('sites').select('id').where('id', '=', siteId).forUpdate().execute();
  return serializedWrite(db, lockSite, async (trx) => {
    // alert_rules is of the same database, outside MetaDatabase's table set (KyselyAlertStore).
    const table = TABLE_OF[kind] as 'goals';
    const { n } = await trx.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).where('site_id', '=', siteId).executeTakeFirstOrThrow();
    if (Number(n) >= max) throw new LimitReached(kind, max);
    return insert(trx);
  });
}

/**
 * Makes a site of an organisation active (`write`: its insert, or its change back from archived)
 * unless the organisation has SITES_PER_ORG_MAX active ones already (then LimitReached);
 * PostgreSQL locks the organisation's row first.
 */
export function boundedActiveSite<T>(db: Kysely<MetaDatabase>, orgId: number, write: (trx: Kysely<MetaDatabase>) => Promise<T>): Promise<T> {
  const lockOrg = (trx: Kysely<MetaDatabase>) => trx.selectFrom('orgs').select('id').where('id', '=', orgId).forUpdate().execute();
  return serializedWrite(db, lockOrg, async (trx) => {
    const { n } = await trx
      .selectFrom('sites')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('org_id', '=', orgId)
      .where('status', '=', 'active')
      .executeTakeFirstOrThrow();
    if (Number(n) >= SITES_PER_ORG_MAX) throw new LimitReached('sites', SITES_PER_ORG_MAX);
    return write(trx);
  });
}
