import { PostgresAdapter, type Kysely } from 'kysely';

/** The SQL engines the MetaStore runs on: embedded SQLite, or PostgreSQL (SVC_DATABASE_URL). */
export type MetaDialect = 'sqlite' | 'postgres';

/** Which engine a Kysely handle speaks to, read from its dialect adapter. */
export function metaDialectOf(db: Kysely<any>): MetaDialect {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}

/** Whether a write failed on a unique key (or primary key): SQLite's codes, or PostgreSQL's SQLSTATE 23505. */
export function isUniqueViolation(err: unknown): boolean {
  const code = (err as { code?: string } | null)?.code;
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === '23505';
}
