import { PostgresAdapter, type Kysely } from 'kysely';

/** The SQL engines the MetaStore runs on: embedded SQLite, or PostgreSQL (SVC_DATABASE_URL). */
export type MetaDialect = 'sqlite' | 'postgres';

/** Which engine a Kysely handle speaks to, read from its dialect adapter. */
export function metaDialectOf(db: Kysely<any>): MetaDialect {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}
