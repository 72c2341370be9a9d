import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { kyselyMetaStore, migrateToLatest } from './kysely-store.js';
import type { MetaDatabase } from './schema.js';
import type { MetaStore } from './types.js';

/** The embedded MetaStore database: one SQLite file in WAL mode, migrated to the latest version. */
export async function openSqliteDatabase(path: string): Promise<Kysely<MetaDatabase>> {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const sqlite = new Database(path);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  const db = new Kysely<MetaDatabase>({ dialect: new SqliteDialect({ database: sqlite }) });
  await migrateToLatest(db);
  return db;
}

/** The MetaStore alone on a SQLite file (or `:memory:`), for code that needs no other store. */
export async function openSqliteMetaStore(path: string): Promise<MetaStore> {
  return kyselyMetaStore(await openSqliteDatabase(path));
}
