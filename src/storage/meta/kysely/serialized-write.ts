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
const TABLE_OF = {
  goals: 'goals',
  segments: 'segments',
  annotations: 'annotations',
  funnels: 'funnels',
  alertRules: 'alert_rules',
  sharedLinks: 'shared_links',
  reportWebhooks: 'digest_webhooks',
} as const;

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

/** Inserts a row of a site's table unless the site holds `max` already (then LimitReached); PostgreSQL locks the site's row first. */
export function boundedInsert<T>(db: Kysely<MetaDatabase>, kind: keyof typeof TABLE_OF, siteId: number, max: number, insert: (trx: Kysely<MetaDatabase>) => Promise<T>): Promise<T> {
  // alert_rules, shared_links and digest_webhooks are of the same database, outside MetaDatabase's table set.
  const table = TABLE_OF[kind] as 'goals';
  return boundedWrite(
    db,
    (trx) => trx.selectFrom('sites').select('id').where('id', '=', siteId).forUpdate().execute(),
    (trx) => trx.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).where('site_id', '=', siteId).executeTakeFirstOrThrow(),
    kind,
    max,
    insert,
  );
}

/**
 * Makes a site of an organisation active (`write`: its insert, or its change back from archived)
 * unless the organisation has SITES_PER_ORG_MAX active ones already (then LimitReached);
 * PostgreSQL locks the organisation's row first.
 */
export function boundedActiveSite<T>(db: Kysely<MetaDatabase>, orgId: number, write: (trx: Kysely<MetaDatabase>) => Promise<T>): Promise<T> {
  return boundedWrite(
    db,
    (trx) => trx.selectFrom('orgs').select('id').where('id', '=', orgId).forUpdate().execute(),
    (trx) => trx.selectFrom('sites').select((eb) => eb.fn.countAll<number>().as('n')).where('org_id', '=', orgId).where('status', '=', 'active').executeTakeFirstOrThrow(),
    'sites',
    SITES_PER_ORG_MAX,
    write,
  );
}

/** Inserts an API key of an organisation unless it has API_KEYS_PER_ORG_MAX unrevoked ones already (then LimitReached); PostgreSQL locks the organisation's row first. */
export function boundedApiKey<T>(db: Kysely<MetaDatabase>, orgId: number, insert: (trx: Kysely<MetaDatabase>) => Promise<T>): Promise<T> {
  return boundedWrite(
    db,
    (trx) => trx.selectFrom('orgs').select('id').where('id', '=', orgId).forUpdate().execute(),
    (trx) => trx.selectFrom('api_keys').select((eb) => eb.fn.countAll<number>().as('n')).where('org_id', '=', orgId).where('revoked_at', 'is', null).executeTakeFirstOrThrow(),
    'apiKeys',
    API_KEYS_PER_ORG_MAX,
    insert,
  );
}
