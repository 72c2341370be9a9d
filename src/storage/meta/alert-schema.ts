// Kysely table types of the AlertStore (migrations 002_alerts and 003_leases), in the MetaStore's
// database: the same definitions serve SQLite and PostgreSQL.
import type { Generated } from 'kysely';
import type { RuleType } from '../../core/vocabulary.js';
import type { MetaDatabase } from './schema.js';

export interface AlertRulesTable {
  id: Generated<number>;
  site_id: number;
  type: RuleType;
  threshold: number;
  goal_id: number | null;
  url: string;
  secret: string;
  emails: string; // JSON array of addresses
  in_episode: number; // 0 | 1: the condition was true at the last evaluation and the rule fired
  last_fired_day: string | null; // site-local day of the last firing (goal: at most once a day)
  created_at: number;
  updated_at: number;
}

export interface WebhookDeliveriesTable {
  seq: Generated<number>;
  id: string; // svc-delivery-id
  rule_id: number;
  test: number;
  body: string;
  status: string; // 'pending' or the last attempt's status
  attempts: number;
  next_attempt_at: number | null;
  lease_until: number | null; // the claim's expiry
  claimed_by: string | null; // the sender that claimed it last
  created_at: number;
}

export interface WebhookAttemptsTable {
  delivery_seq: number;
  attempt: number;
  at: number;
  status: string;
}

export interface AlertDatabase extends MetaDatabase {
  alert_rules: AlertRulesTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
}
