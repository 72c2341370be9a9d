// A fresh, empty metadata database of each engine, for contract tests: SQLite (embedded) and
// PostgreSQL (SVC_DATABASE_URL).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MetaLocation } from '../../src/storage/meta/open.js';
import { createTestDatabase } from '../../support/postgres.js';

export interface MetaDatabaseKind {
  name: string;
  /** A fresh database; `dispose` removes it once every store on it is closed. */
  create(): Promise<{ location: MetaLocation; dispose(): Promise<void> }>;
}

export const META_DATABASES: MetaDatabaseKind[] = [
  {
    name: 'sqlite',
    async create() {
      const dir = mkdtempSync(join(tmpdir(), 'svc-meta-'));
      return { location: { sqlitePath: join(dir, 'meta.sqlite') }, dispose: async () => rmSync(dir, { recursive: true, force: true }) };
    },
  },
  {
    name: 'postgres',
    async create() {
      const database = await createTestDatabase();
      return { location: { databaseUrl: database.url }, dispose: () => database.drop() };
    },
  },
];
