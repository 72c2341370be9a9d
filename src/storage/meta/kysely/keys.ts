// API keys (an organisation's, revocable) and relay keys (a trusted relay's), stored by fingerprint.
import type { Kysely } from 'kysely';
import type { KeyScope } from '../../../core/vocabulary.js';
import type { ApiKeyRecord } from '../../../entities/sites.js';
import type { MetaDatabase } from '../schema.js';
import type { MetaStore } from '../types.js';
import { boundedOfOrg } from './serialized-write.js';

function toKey(row: { id: number; org_id: number; name: string; scope: KeyScope; created_at: number; revoked_at: number | null }): ApiKeyRecord {
  return {
    id: row.id,
    orgId: row.org_id,
    name: row.name,
    scope: row.scope,
    createdAt: Number(row.created_at),
    revokedAt: row.revoked_at === null ? null : Number(row.revoked_at),
  };
}

/** The columns of an API key that its record shows (never its fingerprint). */
const KEY_COLUMNS = ['id', 'org_id', 'name', 'scope', 'created_at', 'revoked_at'] as const;

/** API keys and relay keys. */
export function keyRecords(db: Kysely<MetaDatabase>) {
  // Named, for the methods that call each other (`this` would be whichever object they are called on).
  const records = {
    async createApiKey(orgId: number, name: string, fingerprint: string, now: number, scope: KeyScope = 'read'): Promise<ApiKeyRecord> {
      const row = await boundedOfOrg(db, 'apiKeys', orgId, (trx) =>
        trx.insertInto('api_keys').values({ org_id: orgId, name, fingerprint, created_at: now, revoked_at: null, scope }).returning(KEY_COLUMNS).executeTakeFirstOrThrow(),
      );
      return toKey(row);
    },

    async listApiKeys(orgId: number): Promise<ApiKeyRecord[]> {
      const rows = await db
        .selectFrom('api_keys')
        .select(KEY_COLUMNS)
        .where('org_id', '=', orgId)
        .orderBy('id')
        .execute();
      return rows.map(toKey);
    },

    async getApiKey(id: number): Promise<ApiKeyRecord | undefined> {
      const row = await db.selectFrom('api_keys').select(KEY_COLUMNS).where('id', '=', id).executeTakeFirst();
      return row && toKey(row);
    },

    async findApiKeyByFingerprint(fingerprint: string): Promise<ApiKeyRecord | undefined> {
      const row = await db.selectFrom('api_keys').select(KEY_COLUMNS).where('fingerprint', '=', fingerprint).executeTakeFirst();
      return row && toKey(row);
    },

    async revokeApiKey(id: number, now: number): Promise<ApiKeyRecord | undefined> {
      // Revocation is irreversible: a second revoke keeps the first instant.
      await db.updateTable('api_keys').set({ revoked_at: now }).where('id', '=', id).where('revoked_at', 'is', null).execute();
      return records.getApiKey(id);
    },

    async createRelayKey(name: string, fingerprint: string, now: number): Promise<{ id: number; name: string }> {
      return db
        .insertInto('relay_keys')
        .values({ name, fingerprint, created_at: now })
        .returning(['id', 'name'])
        .executeTakeFirstOrThrow();
    },

    async relayKeyExists(fingerprint: string): Promise<boolean> {
      const row = await db.selectFrom('relay_keys').select('id').where('fingerprint', '=', fingerprint).executeTakeFirst();
      return row !== undefined;
    },
  } satisfies Partial<MetaStore>;
  return records;
}
