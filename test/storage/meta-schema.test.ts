// Applied migrations never change what they produce: on SQLite, 001 and 002 create exactly the
// schema of the snapshot taken before their column helpers became dialect-aware. On PostgreSQL the
// same migrations give identity columns and bytea, and run once however many processes start. Later
// migrations keep the data they find.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import { Kysely, Migrator, SqliteDialect, sql } from 'kysely';
import { migrations } from '../../src/storage/meta/migrations/index.js';
import { openPostgresDatabase } from '../../src/storage/meta/postgres.js';
import { createTestDatabase } from '../../support/postgres.js';

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

test('PostgreSQL: identity keys and bytea; migrators started together apply each migration once', async () => {
  const database = await createTestDatabase();
  try {
    // Six processes' worth of connection pools, started at the same instant on an empty database. A
    // connection lost while they are open fails the test; once they are closed, dropping the
    // database may still end one that a pool was opening, which is no failure.
    let closing = false;
    const warn = (message: string) => {
      if (!closing) assert.fail(message);
    };
    const opened = await Promise.all(Array.from({ length: 6 }, () => openPostgresDatabase(database.url, warn)));
    const db = opened[0]!;
    try {
      const applied = await sql<{ name: string }>`SELECT name FROM kysely_migration ORDER BY name`.execute(db);
      assert.deepEqual(
        applied.rows.map((r) => r.name),
        Object.keys(migrations).sort(),
      );
      const columns = await sql<{ name: string; data_type: string }>`
        SELECT table_name || '.' || column_name AS name, data_type FROM information_schema.columns
        WHERE table_schema = 'public' AND (is_identity = 'YES' OR data_type = 'bytea') ORDER BY 1`.execute(db);
      const types = new Map(columns.rows.map((c) => [c.name, c.data_type]));
      const serials = ['orgs.id', 'sites.id', 'api_keys.id', 'relay_keys.id', 'goals.id', 'funnels.id', 'alert_rules.id', 'webhook_deliveries.seq'];
      for (const name of serials) assert.equal(types.get(name), 'integer', `${name} is an integer identity column`);
      assert.equal(types.get('salts.salt'), 'bytea');
    } finally {
      closing = true;
      await Promise.all(opened.map((d) => d.destroy()));
    }
  } finally {
    await database.drop();
  }
});

test('SQLite: a database holding twin goals keeps the first of each, its alert rules moved to it, and gains the unique index', async () => {
  const sqlite = new Database(':memory:');
  const db = new Kysely<any>({ dialect: new SqliteDialect({ database: sqlite }) });
  try {
    const before = Object.fromEntries(Object.entries(migrations).filter(([name]) => name < '008'));
    assert.equal((await new Migrator({ db, provider: { getMigrations: async () => before } }).migrateToLatest()).error, undefined);
    await db.insertInto('orgs').values({ id: 1, name: 'o', created_at: 0 }).execute();
    await db.insertInto('sites').values({ id: 1, public_id: 'p', org_id: 1, domain: 'd.example', name: 'd', timezone: 'UTC', created_at: 0 }).execute();
    const goal = (id: number, pattern: string) => ({ id, site_id: 1, name: `g${id}`, kind: 'event', pattern, created_at: 0 });
    await db.insertInto('goals').values([goal(1, 'signup'), goal(2, 'signup'), goal(3, 'buy'), goal(4, 'signup')]).execute();
    const rule = (id: number, goalId: number | null) => ({ id, site_id: 1, type: 'goal', threshold: 1, goal_id: goalId, url: 'https://h.example/', secret: 's', created_at: 0, updated_at: 0 });
    await db.insertInto('alert_rules').values([rule(1, 4), rule(2, 3), rule(3, null)]).execute();

    assert.equal((await new Migrator({ db, provider: { getMigrations: async () => migrations } }).migrateToLatest()).error, undefined);
    assert.deepEqual((await db.selectFrom('goals').select(['id', 'pattern']).orderBy('id').execute()), [{ id: 1, pattern: 'signup' }, { id: 3, pattern: 'buy' }]);
    assert.deepEqual((await db.selectFrom('alert_rules').select(['id', 'goal_id']).orderBy('id').execute()), [{ id: 1, goal_id: 1 }, { id: 2, goal_id: 3 }, { id: 3, goal_id: null }]);
    await assert.rejects(db.insertInto('goals').values(goal(5, 'buy')).execute(), /UNIQUE/);
  } finally {
    await db.destroy();
  }
});

test("SQLite: a database's sites keep their domains through 017, after which a domain is unique per organisation only", async () => {
  const sqlite = new Database(':memory:');
  const db = new Kysely<any>({ dialect: new SqliteDialect({ database: sqlite }) });
  try {
    const before = Object.fromEntries(Object.entries(migrations).filter(([name]) => name < '017'));
    assert.equal((await new Migrator({ db, provider: { getMigrations: async () => before } }).migrateToLatest()).error, undefined);
    await db.insertInto('orgs').values([{ id: 1, name: 'a', created_at: 0 }, { id: 2, name: 'b', created_at: 0 }]).execute();
    const site = (id: number, orgId: number, status = 'active') => ({ id, public_id: `p${id}`, org_id: orgId, domain: 'd.example', name: 'd', timezone: 'UTC', status, created_at: 0 });
    await db.insertInto('sites').values([site(1, 1), site(2, 1, 'archived')]).execute();
    await assert.rejects(db.insertInto('sites').values(site(3, 2)).execute(), /UNIQUE/, 'before 017, across organisations');

    assert.equal((await new Migrator({ db, provider: { getMigrations: async () => migrations } }).migrateToLatest()).error, undefined);
    assert.deepEqual((await db.selectFrom('sites').select(['id', 'status']).orderBy('id').execute()), [{ id: 1, status: 'active' }, { id: 2, status: 'archived' }]);
    await db.insertInto('sites').values(site(3, 2)).execute();
    await assert.rejects(db.insertInto('sites').values(site(4, 2)).execute(), /UNIQUE/);
    await assert.rejects(db.insertInto('sites').values(site(5, 1)).execute(), /UNIQUE/);
  } finally {
    await db.destroy();
  }
});
