// The daily salts of visitor ids, made on first use.
import type { Kysely } from 'kysely';
import { randomSalt } from '../../../core/ids.js';
import type { MetaDatabase } from '../schema.js';
import type { MetaStore } from '../types.js';

/** Daily salts. */
export function saltRecords(db: Kysely<MetaDatabase>) {
  return {
    async saltFor(day: string): Promise<Buffer> {
      const existing = await db.selectFrom('salts').select('salt').where('day', '=', day).executeTakeFirst();
      if (existing) return Buffer.from(existing.salt);
      // Two callers may race to create the same day's salt: the first insert wins, both read it.
      await db.insertInto('salts').values({ day, salt: randomSalt() }).onConflict((oc) => oc.column('day').doNothing()).execute();
      const row = await db.selectFrom('salts').select('salt').where('day', '=', day).executeTakeFirstOrThrow();
      return Buffer.from(row.salt);
    },

    async deleteSaltsBefore(day: string): Promise<number> {
      const result = await db.deleteFrom('salts').where('day', '<', day).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  } satisfies Partial<MetaStore>;
}
