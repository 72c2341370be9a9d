import type { Kysely } from 'kysely';

// The account's language (docs/accounts.md, Your own account): one of the languages the dashboard
// and its mails are written in (`en`, `de`, `fr`, `es`), or null while the user has chosen none (the
// dashboard follows the browser's, mails the request's or English).
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').addColumn('language', 'text').execute();
}
