// Applied migrations never change what they produce: on SQLite, 001 and 002 create exactly the
// schema of the snapshot taken before their column helpers became dialect-aware.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import { Kysely, Migrator, SqliteDialect } from 'kysely';
import { migrations } from '../../src/storage/meta/migrations/index.js';

const snapshot = JSON.parse(readFileSync(new URL('./fixtures/sqlite-schema-001-002.json', import.meta.url), 'utf8'));

test('SQLite schema of migrations 001 and 002 is byte-identical to the snapshot', async () => {
  const sqlite = new Database(':memory:');
  const db = new Kysely<any>({ dialect: new SqliteDialect({ database: sqlite }) });
  try {
    const provider = { getMigrations: async () => ({ '001_foundation': migrations['001_foundation']!, '002_alerts': migrations['002_alerts']! }) };
    const { error } = await new Migrator({ db, provider }).migrateToLatest();
    assert.equal(error, undefined);
    const schema = sqlite
      .prepare("SELECT type, name, tbl_name, sql FROM sqlite_master WHERE name NOT LIKE 'kysely_%' AND name NOT LIKE 'sqlite_%' ORDER BY rowid")
      .all();
    assert.deepEqual(schema, snapshot);
  } finally {
    await db.destroy();
  }
});
