import type { Kysely } from 'kysely';
import { serialPrimaryKey } from './columns.js';

// Alert rules, webhook deliveries and their attempts (src/storage/meta/kysely-alert-store.ts). Deliveries
// are the durable queue: a row is due when `status = 'pending'` and `next_attempt_at` has passed,
// and is owned by one sender while `lease_until` lies in the future.
export async function up(db: Kysely<any>): Promise<void> {
  const serialKey = serialPrimaryKey(db);
  await db.schema
    .createTable('alert_rules')
    .addColumn('id', 'integer', serialKey)
    .addColumn('site_id', 'integer', (c) => c.notNull().references('sites.id'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('threshold', 'double precision', (c) => c.notNull())
    .addColumn('goal_id', 'integer')
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('emails', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('in_episode', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_fired_day', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('alert_rules_site').on('alert_rules').column('site_id').execute();

  await db.schema
    .createTable('webhook_deliveries')
    .addColumn('seq', 'integer', serialKey)
    .addColumn('id', 'text', (c) => c.notNull().unique())
    .addColumn('rule_id', 'integer', (c) => c.notNull().references('alert_rules.id'))
    .addColumn('test', 'integer', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'bigint')
    .addColumn('lease_until', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('webhook_deliveries_rule').on('webhook_deliveries').columns(['rule_id', 'seq']).execute();
  await db.schema.createIndex('webhook_deliveries_due').on('webhook_deliveries').columns(['status', 'next_attempt_at']).execute();

  await db.schema
    .createTable('webhook_attempts')
    .addColumn('delivery_seq', 'integer', (c) => c.notNull().references('webhook_deliveries.seq'))
    .addColumn('attempt', 'integer', (c) => c.notNull())
    .addColumn('at', 'bigint', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('webhook_attempts_pk', ['delivery_seq', 'attempt'])
    .execute();
}
