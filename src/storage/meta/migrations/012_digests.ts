import type { Kysely } from 'kysely';
import { serialPrimaryKey } from './columns.js';

// Digests (src/digests/). `digest_subscriptions`: the reports a member chose for a site.
// `digest_webhooks`: a site's webhooks that receive its reports (signed JSON, or Slack's format).
// `digest_sends`: one row per recipient (a member, `webhook_id` 0; or a webhook, `user_id` 0), site,
// kind and period, its key the primary key, so that however
// many workers plan a period at once, it has one row; a worker claims a row (`claimed_by` until
// `claimed_until`) before sending it and marks it `sent` after the SMTP server took the mail, so a
// row is sent by one worker at a time and never again once sent. A failed attempt waits until
// `next_attempt_at`; `last_error` says why.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('digest_subscriptions')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('site_id', 'integer', (c) => c.notNull().references('sites.id'))
    .addColumn('weekly', 'integer', (c) => c.notNull())
    .addColumn('monthly', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('digest_subscriptions_pk', ['user_id', 'site_id'])
    .execute();
  await db.schema.createIndex('digest_subscriptions_site').on('digest_subscriptions').column('site_id').execute();
  await db.schema
    .createTable('digest_webhooks')
    .addColumn('id', 'integer', serialPrimaryKey(db))
    .addColumn('site_id', 'integer', (c) => c.notNull().references('sites.id'))
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('weekly', 'integer', (c) => c.notNull())
    .addColumn('monthly', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('digest_webhooks_site').on('digest_webhooks').column('site_id').execute();
  await db.schema
    .createTable('digest_sends')
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('webhook_id', 'integer', (c) => c.notNull())
    .addColumn('site_id', 'integer', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('period_from', 'text', (c) => c.notNull())
    .addColumn('period_to', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('next_attempt_at', 'bigint', (c) => c.notNull())
    .addColumn('claimed_by', 'text')
    .addColumn('claimed_until', 'bigint')
    .addColumn('last_error', 'text')
    .addColumn('last_attempt_at', 'bigint')
    .addColumn('sent_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('digest_sends_pk', ['user_id', 'webhook_id', 'site_id', 'kind', 'period_from'])
    .execute();
  await db.schema.createIndex('digest_sends_due').on('digest_sends').columns(['status', 'next_attempt_at']).execute();
  await db.schema.createIndex('digest_sends_site').on('digest_sends').column('site_id').execute();
}
