// The MetaStore's adapters for contract tests: SQLite (embedded) and PostgreSQL (SVC_DATABASE_URL),
// each opened on a fresh database.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openMetaStores, type MetaStores } from '../../src/storage/meta/open.js';
import { createTestDatabase } from './postgres.js';

export interface MetaAdapter {
  name: string;
  /** Fresh stores; `dispose` removes their database once `meta.close()` has closed it. */
  open(): Promise<{ stores: MetaStores; dispose(): Promise<void> }>;
}

export const META_ADAPTERS: MetaAdapter[] = [
  {
    name: 'sqlite',
    async open() {
      const dir = mkdtempSync(join(tmpdir(), 'svc-meta-'));
      const stores = await openMetaStores({ sqlitePath: join(dir, 'meta.sqlite') });
      return { stores, dispose: async () => rmSync(dir, { recursive: true, force: true }) };
    },
  },
  {
    name: 'postgres',
    async open() {
      const database = await createTestDatabase();
      const stores = await openMetaStores({ databaseUrl: database.url });
      return { stores, dispose: () => database.drop() };
    },
  },
];
