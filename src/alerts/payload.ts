// The webhook body (docs/webhooks.md). Serialized once, when the delivery is
// created: every retry sends these exact bytes, only the signature headers change.
import type { RuleType } from '../core/vocabulary.js';

export interface AlertPayload {
  type: RuleType;
  site: string; // the site's domain
  rule: number;
  value: number;
  threshold: number | null;
  at: string; // ISO 8601 UTC
  test?: true;
}

export function alertPayload(rule: { id: number; type: RuleType; threshold: number }, siteDomain: string, value: number, at: number, test: boolean): AlertPayload {
  const payload: AlertPayload = { type: rule.type, site: siteDomain, rule: rule.id, value, threshold: rule.threshold, at: new Date(at).toISOString() };
  if (test) payload.test = true;
  return payload;
}
