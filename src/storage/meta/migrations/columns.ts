// Column definitions whose SQL differs between the MetaStore's engines. On SQLite they produce
// exactly what migrations 001 and 002 always produced (a test holds the schema to a snapshot), so
// an applied migration never changes; PostgreSQL gets its own types.
import type { ColumnDefinitionBuilder, Kysely } from 'kysely';
import { metaDialectOf } from '../dialect.js';

/**
 * An integer primary key numbered by the database: `integer primary key autoincrement` on SQLite,
 * an identity column on PostgreSQL (which has no `autoincrement`).
 */
export function serialPrimaryKey(db: Kysely<any>): (column: ColumnDefinitionBuilder) => ColumnDefinitionBuilder {
  return metaDialectOf(db) === 'postgres'
    ? (column) => column.primaryKey().generatedByDefaultAsIdentity()
    : (column) => column.primaryKey().autoIncrement();
}

/** The type of a column of bytes: `blob` on SQLite, `bytea` on PostgreSQL. */
export function bytesType(db: Kysely<any>): 'blob' | 'bytea' {
  return metaDialectOf(db) === 'postgres' ? 'bytea' : 'blob';
}
