import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { migrateToLatest } from './kysely-store.js';
import type { MetaDatabase } from './schema.js';

/** The advisory lock key that serializes migrators of every svc process on one database. */
const MIGRATION_LOCK_KEY = 7_370_726_105; // "svc meta" in no particular encoding: any fixed bigint

/**
 * `bigint` columns hold epoch milliseconds and counts, well inside 2^53: read as numbers, as SQLite
 * gives them, instead of pg's default strings.
 */
const types: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === pg.types.builtins.INT8 && format !== 'binary' ? (value: string) => Number(value) : pg.types.getTypeParser(oid, format)) as pg.CustomTypesConfig['getTypeParser'],
};

/**
 * The MetaStore database on PostgreSQL (SVC_DATABASE_URL), migrated to the latest version. The
 * whole migrator, the creation of its bookkeeping tables included, runs under a session advisory
 * lock, so processes starting together apply each migration once: the first migrates, the others
 * wait and then find nothing to do.
 */
export async function openPostgresDatabase(url: string, warn: (message: string) => void): Promise<Kysely<MetaDatabase>> {
  const pool = new pg.Pool({ connectionString: url, types, max: 10 });
  // An idle connection that breaks (a server restart) leaves the pool; the next query opens another.
  pool.on('error', (err) => warn(`metadata database ${databaseName(url)}: idle connection lost: ${err.message}`));
  const db = new Kysely<MetaDatabase>({ dialect: new PostgresDialect({ pool }) });
  try {
    await db.connection().execute(async (locked) => {
      await sql`SELECT pg_advisory_lock(${MIGRATION_LOCK_KEY})`.execute(locked);
      try {
        await migrateToLatest(db);
      } finally {
        await sql`SELECT pg_advisory_unlock(${MIGRATION_LOCK_KEY})`.execute(locked);
      }
    });
  } catch (err) {
    await db.destroy();
    throw new Error(`metadata database ${databaseName(url)} on PostgreSQL could not be opened and migrated: ${err instanceof Error ? err.message : String(err)}`);
  }
  return db;
}

/** host:port/database of a PostgreSQL URL, without its credentials, for messages. */
function databaseName(url: string): string {
  const parsed = new URL(url);
  return `${parsed.hostname}:${parsed.port || '5432'}${parsed.pathname}`;
}
