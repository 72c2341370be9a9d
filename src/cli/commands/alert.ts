// svc alert add|list|rm|test|history: alert rules of a site and their webhook deliveries.
import { many, numericId, optional, required } from '../args.js';
import { seg } from '../client.js';
import { formatFields, formatTable, time } from '../output.js';
import type { Invocation, Noun } from '../types.js';
import type { Delivery, ManagedAlertRule } from '../../core/management.js';
import { isRuleType, RULE_TYPES } from '../../core/vocabulary.js';

function threshold(inv: Invocation): number {
  const text = required(inv, 'threshold');
  const value = Number(text);
  if (!/^\d+(\.\d+)?$/.test(text) || !Number.isFinite(value)) inv.usage(`--threshold must be a number >= 0, got ${JSON.stringify(text)}`);
  return value;
}

function ruleFields(rule: ManagedAlertRule): string {
  return formatFields([
    ['id', rule.id],
    ['type', rule.type],
    ['threshold', rule.threshold],
    ['url', rule.url],
    ['goal', rule.goalId ?? '-'],
    ['emails', rule.emails.join(', ') || '-'],
  ]);
}

export const alert: Noun = {
  name: 'alert',
  summary: 'alert rules (spike, drop, silence, goal) and their signed webhook deliveries',
  commands: [
    {
      verb: 'add',
      usage: 'svc alert add --site ID --type spike|drop|silence|goal --threshold N --webhook URL --secret S [--goal GOAL_ID] [--email ADDR]...',
      summary: 'create a rule; the https webhook URL is checked now and at every send (--url is the server)',
      options: {
        site: { type: 'string' },
        type: { type: 'string' },
        threshold: { type: 'string' },
        webhook: { type: 'string' },
        secret: { type: 'string' },
        goal: { type: 'string' },
        email: { type: 'string', multiple: true },
      },
      example: 'svc alert add --site k3f9a1b2c4d5 --type spike --threshold 100 --webhook https://hooks.example.com/svc --secret whsec_abc',
      async run(inv) {
        const siteId = required(inv, 'site');
        const type = required(inv, 'type');
        if (!isRuleType(type)) inv.usage(`--type must be one of ${RULE_TYPES.join(', ')}, got ${JSON.stringify(type)}`);
        const goal = optional(inv, 'goal');
        const body = {
          type,
          threshold: threshold(inv),
          url: required(inv, 'webhook'),
          secret: required(inv, 'secret'),
          ...(goal === undefined ? {} : { goalId: numericId(inv, '--goal', goal) }),
          ...(many(inv, 'email').length > 0 ? { emails: many(inv, 'email') } : {}),
        };
        const created = await inv.client().request<ManagedAlertRule>('POST', `/sites/${seg(siteId)}/alerts`, body);
        inv.out.result(created, () => ruleFields(created));
      },
    },
    {
      verb: 'list',
      usage: 'svc alert list --site ID',
      summary: "list a site's alert rules (never the secrets)",
      options: { site: { type: 'string' } },
      example: 'svc alert list --site k3f9a1b2c4d5',
      async run(inv) {
        const siteId = required(inv, 'site');
        const listed = await inv.client().request<{ alerts: ManagedAlertRule[] }>('GET', `/sites/${seg(siteId)}/alerts`);
        inv.out.result(listed, () =>
          formatTable(
            ['ID', 'TYPE', 'THRESHOLD', 'GOAL', 'URL'],
            listed.alerts.map((r) => [r.id, r.type, r.threshold, r.goalId ?? '-', r.url]),
          ),
        );
      },
    },
    {
      verb: 'rm',
      usage: 'svc alert rm RULE_ID',
      summary: 'delete a rule with its delivery history',
      args: ['RULE_ID'],
      example: 'svc alert rm 3',
      async run(inv) {
        const ruleId = numericId(inv, 'RULE_ID', inv.positionals[0]!);
        await inv.client().request('DELETE', `/alerts/${ruleId}`);
        inv.out.result({ id: ruleId, deleted: true }, () => `alert rule ${ruleId} deleted\n`);
      },
    },
    {
      verb: 'test',
      usage: 'svc alert test RULE_ID',
      summary: 'queue a signed test delivery ("test": true) now',
      args: ['RULE_ID'],
      example: 'svc alert test 3',
      async run(inv) {
        const ruleId = numericId(inv, 'RULE_ID', inv.positionals[0]!);
        const queued = await inv.client().request<{ deliveryId: string }>('POST', `/alerts/${ruleId}/test`);
        inv.out.result(queued, () => `test delivery ${queued.deliveryId} queued; see: svc alert history ${ruleId}\n`);
      },
    },
    {
      verb: 'history',
      usage: 'svc alert history RULE_ID',
      summary: "a rule's deliveries, newest first, with every attempt",
      args: ['RULE_ID'],
      example: 'svc alert history 3',
      async run(inv) {
        const ruleId = numericId(inv, 'RULE_ID', inv.positionals[0]!);
        const history = await inv.client().request<{ deliveries: Delivery[] }>('GET', `/alerts/${ruleId}/history`);
        inv.out.result(history, () =>
          formatTable(
            ['DELIVERY', 'CREATED', 'TEST', 'STATUS', 'ATTEMPTS'],
            history.deliveries.map((d) => [d.id, time(d.createdAt), d.test, d.status, d.attempts.map((a) => `${time(a.at)} ${a.status}`).join('; ') || '-']),
          ),
        );
      },
    },
  ],
};
