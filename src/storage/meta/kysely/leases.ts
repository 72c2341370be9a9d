// Named leases' rows (../leases.ts holds them for a piece of work).
import type { Kysely } from 'kysely';
import type { MetaDatabase } from '../schema.js';
import type { MetaStore } from '../types.js';

/** Named leases. */
export function leaseRecords(db: Kysely<MetaDatabase>) {
  return {
    async acquireLease(name: string, holder: string, now: number, expiresAt: number): Promise<boolean> {
      // One statement: an insert, or a takeover of a row that expired or is already the holder's.
      // Concurrent callers serialize on the row, and only one sees its holder returned.
      const row = await db
        .insertInto('leases')
        .values({ name, holder, expires_at: expiresAt })
        .onConflict((oc) =>
          oc
            .column('name')
            .doUpdateSet({ holder, expires_at: expiresAt })
            .where((eb) => eb.or([eb('leases.expires_at', '<=', now), eb('leases.holder', '=', holder)])),
        )
        .returning('holder')
        .executeTakeFirst();
      return row?.holder === holder;
    },

    async renewLease(name: string, holder: string, expiresAt: number): Promise<boolean> {
      const result = await db.updateTable('leases').set({ expires_at: expiresAt }).where('name', '=', name).where('holder', '=', holder).executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    async releaseLease(name: string, holder: string): Promise<void> {
      await db.deleteFrom('leases').where('name', '=', name).where('holder', '=', holder).execute();
    },
  } satisfies Partial<MetaStore>;
}
