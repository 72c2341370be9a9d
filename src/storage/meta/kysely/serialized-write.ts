// The write transaction of the records that read before they write (memberships, invitations, users,
// sign-in attempts, a site's bounded goals, segments, annotations, funnels, alert rules, shared links and report
// webhooks, an organisation's bounded active sites and API keys), one per engine.
import { sql, type Kysely } from 'kysely';
import type { AccountDatabase } from '../account-schema.js';
import { metaDialectOf } from '../dialect.js';
import type { MetaDatabase } from '../schema.js';
import { API_KEYS_PER_ORG_MAX, SITES_PER_ORG_MAX } from '../../../core/vocabulary.js';
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
const TABLE_OF = { goals: 'goals', segments: 'segments', annotations: 'annotations', funnels: 'funnels', alertRules: 'alert_rules', sharedLinks: 'shared_links', reportWebhooks: 'digest_webhooks' } as const;

/**
 * `write` in a serialized write, unless `count` finds `max` rows of `kind` already (then
 * LimitReached); PostgreSQL takes `lock` first, the row of the bound's owner.
 */
function boundedWrite<T>(
  db: Kysely<MetaDatabase>,
  lock: (trx: Kysely<MetaDatabase>) => Promise<unknown>,
  count: (trx: Kysely<MetaDatabase>) => Promise<{ n: number }>,
  kind: LimitReached['kind'],
  max: number,
  write: (trx: Kysely<MetaDatabase>) => Promise<T>,
): Promise<T> {
  return serializedWrite(db, lock, async (trx) => {
    if (Number((await count(trx)).n) >= max) throw new LimitReached(kind, max);
    return write(trx);
  });
}

/**
 * Inserts a row of a site's table unless the site holds `max` already (then LimitReached); PostgreSQL locks the site's
 * row first. `db`: any store's handle on the one database (alert_rules, shared_links, digest_webhooks are outside MetaDatabase's).
 */
export function boundedInsert<T, DB>(db: Kysely<DB>, kind: keyof typeof TABLE_OF, siteId: number, max: number, insert: (trx: Kysely<DB>) => Promise<T>): Promise<T> {
  const table = TABLE_OF[kind] as 'goals';
  return boundedWrite(
    db as unknown as Kysely<MetaDatabase>,
    (trx) => trx.selectFrom('sites').select('id').where('id', '=', siteId).forUpdate().execute(),
    (trx) => trx.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).where('site_id', '=', siteId).executeTakeFirstOrThrow(),
    kind,
    max,
    (trx) => insert(trx as unknown as Kysely<DB>),
  );
}

/** An organisation's bound of each kind, and the rows it counts: its active sites, its API keys in use. */
const OF_ORG: Record<'sites' | 'apiKeys', { max: number; count: (trx: Kysely<MetaDatabase>, orgId: number) => Promise<{ n: number }> }> = {
  sites: { max: SITES_PER_ORG_MAX, count: (trx, orgId) => trx.selectFrom('sites').select((eb) => eb.fn.countAll<number>().as('n')).where('org_id', '=', orgId).where('status', '=', 'active').executeTakeFirstOrThrow() },
  apiKeys: { max: API_KEYS_PER_ORG_MAX, count: (trx, orgId) => trx.selectFrom('api_keys').select((eb) => eb.fn.countAll<number>().as('n')).where('org_id', '=', orgId).where('revoked_at', 'is', null).executeTakeFirstOrThrow() },
};

/**
 * `write` (an active site's insert or its change back from archived, an API key's insert) unless the organisation holds
 * its bound of `kind` already (then LimitReached); PostgreSQL locks the organisation's row first.
 */
export function boundedOfOrg<T>(db: Kysely<MetaDatabase>, kind: keyof typeof OF_ORG, orgId: number, write: (trx: Kysely<MetaDatabase>) => Promise<T>): Promise<T> {
  const { max, count } = OF_ORG[kind];
  return boundedWrite(
    db,
    (trx) => trx.selectFrom('orgs').select('id').where('id', '=', orgId).forUpdate().execute(),
    (trx) => count(trx, orgId),
    kind,
    max,
    write,
  );
}
