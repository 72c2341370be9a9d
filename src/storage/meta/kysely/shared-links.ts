// Shared links of a site's dashboard, and the grants a link's password opens.
import type { Kysely, Selectable } from 'kysely';
import type { SharedLink } from '../../../entities/accounts.js';
import type { AccountDatabase, SharedLinksTable } from '../account-schema.js';
import type { AccountStore } from '../account-types.js';
import { SHARED_LINKS_PER_SITE_MAX } from '../../../core/vocabulary.js';
import { boundedInsert } from './serialized-write.js';

const toSharedLink = (row: Selectable<SharedLinksTable>, sitePublicId: string): SharedLink => ({
  id: row.id,
  siteId: row.site_id,
  sitePublicId,
  passwordHash: row.password_hash ?? undefined,
  expiresAt: row.expires_at === null ? undefined : Number(row.expires_at),
  filters: JSON.parse(row.filters) as string[],
  embedDomains: JSON.parse(row.embed_domains) as string[],
  createdAt: Number(row.created_at),
  lastUsedAt: row.last_used_at === null ? undefined : Number(row.last_used_at),
});

/** Shared links with their site's public id. */
function selectSharedLinks(db: Kysely<AccountDatabase>) {
  return db.selectFrom('shared_links').innerJoin('sites', 'sites.id', 'shared_links.site_id').selectAll('shared_links').select('sites.public_id as site_public_id');
}

/** Shared links and their grants. */
export function sharedLinkRecords(db: Kysely<AccountDatabase>) {
  return {
    async createSharedLink(link: Omit<SharedLink, 'id' | 'createdAt' | 'lastUsedAt'> & { tokenHash: string }, now: number): Promise<SharedLink> {
      const row = await boundedInsert(db, 'sharedLinks', link.siteId, SHARED_LINKS_PER_SITE_MAX, (trx) =>
        trx
          .insertInto('shared_links')
          .values({
            site_id: link.siteId,
            token_hash: link.tokenHash,
            password_hash: link.passwordHash ?? null,
            expires_at: link.expiresAt ?? null,
            filters: JSON.stringify(link.filters),
            embed_domains: JSON.stringify(link.embedDomains),
            created_at: now,
            last_used_at: null,
          })
          .returningAll()
          .executeTakeFirstOrThrow(),
      );
      return toSharedLink(row, link.sitePublicId);
    },

    async sharedLinks(siteId: number): Promise<SharedLink[]> {
      const rows = await selectSharedLinks(db).where('shared_links.site_id', '=', siteId).orderBy('shared_links.id').execute();
      return rows.map((row) => toSharedLink(row, row.site_public_id));
    },

    async sharedLinkByToken(tokenHash: string, now: number): Promise<SharedLink | undefined> {
      const row = await selectSharedLinks(db)
        .where('shared_links.token_hash', '=', tokenHash)
        .where((eb) => eb.or([eb('shared_links.expires_at', 'is', null), eb('shared_links.expires_at', '>', now)]))
        .executeTakeFirst();
      return row && toSharedLink(row, row.site_public_id);
    },

    async revokeSharedLink(siteId: number, linkId: number): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        const link = await trx.selectFrom('shared_links').select('id').where('id', '=', linkId).where('site_id', '=', siteId).executeTakeFirst();
        if (!link) return false;
        await trx.deleteFrom('shared_link_grants').where('link_id', '=', linkId).execute();
        await trx.deleteFrom('shared_links').where('id', '=', linkId).execute();
        return true;
      });
    },

    async grantSharedLink(grant: { id: string; linkId: number; expiresAt: number }, now: number): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await trx.insertInto('shared_link_grants').values({ id: grant.id, link_id: grant.linkId, expires_at: grant.expiresAt }).execute();
        await trx.updateTable('shared_links').set({ last_used_at: now }).where('id', '=', grant.linkId).execute();
      });
    },

    async sharedLinkByGrant(grantId: string, now: number): Promise<SharedLink | undefined> {
      const row = await selectSharedLinks(db)
        .innerJoin('shared_link_grants', 'shared_link_grants.link_id', 'shared_links.id')
        .where('shared_link_grants.id', '=', grantId)
        .where('shared_link_grants.expires_at', '>', now)
        .where((eb) => eb.or([eb('shared_links.expires_at', 'is', null), eb('shared_links.expires_at', '>', now)]))
        .executeTakeFirst();
      return row && toSharedLink(row, row.site_public_id);
    },

    async touchSharedLink(linkId: number, now: number): Promise<void> {
      await db.updateTable('shared_links').set({ last_used_at: now }).where('id', '=', linkId).execute();
    },

    async deleteSharedLinkGrantsExpiredBy(now: number): Promise<number> {
      const result = await db.deleteFrom('shared_link_grants').where('expires_at', '<=', now).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  } satisfies Partial<AccountStore>;
}
