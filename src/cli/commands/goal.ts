// svc goal add|list|rm: conversion goals of a site.
import { numericId, required } from '../args.js';
import { seg } from '../client.js';
import { formatFields, formatTable } from '../output.js';
import type { Noun } from '../types.js';
import type { ManagedGoal } from '../../core/vocabulary.js';

export const goal: Noun = {
  name: 'goal',
  summary: 'conversion goals: a page pattern or a custom event name',
  commands: [
    {
      verb: 'add',
      usage: 'svc goal add --site ID --name N --kind page|event --pattern P [--currency CODE]',
      summary: 'create a goal (page patterns start with / and may use * and **; an event goal with a currency counts revenue)',
      options: { site: { type: 'string' }, name: { type: 'string' }, kind: { type: 'string' }, pattern: { type: 'string' }, currency: { type: 'string' } },
      example: 'svc goal add --site k3f9a1b2c4d5 --name Signup --kind event --pattern signup',
      async run(inv) {
        const siteId = required(inv, 'site');
        const name = required(inv, 'name');
        const kind = required(inv, 'kind');
        if (kind !== 'page' && kind !== 'event') inv.usage(`--kind must be page or event, got ${JSON.stringify(kind)}`);
        const pattern = required(inv, 'pattern');
        const currency = inv.values.currency as string | undefined;
        const created = await inv.client().request<ManagedGoal>('POST', `/sites/${seg(siteId)}/goals`, { name, kind, pattern, currency });
        inv.out.result(created, () =>
          formatFields([
            ['id', created.goalId],
            ['name', created.name],
            ['kind', created.kind],
            ['pattern', created.pattern],
            ...(created.currency ? [['currency', created.currency] as [string, string]] : []),
          ]),
        );
      },
    },
    {
      verb: 'list',
      usage: 'svc goal list --site ID',
      summary: "list a site's goals",
      options: { site: { type: 'string' } },
      example: 'svc goal list --site k3f9a1b2c4d5',
      async run(inv) {
        const answer = await inv.client().request<{ goals: ManagedGoal[] }>('GET', `/sites/${seg(required(inv, 'site'))}/goals`);
        inv.out.result(answer, () => formatTable(['ID', 'NAME', 'KIND', 'PATTERN'], answer.goals.map((g) => [g.goalId, g.name, g.kind, g.pattern])));
      },
    },
    {
      verb: 'rm',
      usage: 'svc goal rm --site ID GOAL_ID',
      summary: 'delete a goal',
      options: { site: { type: 'string' } },
      args: ['GOAL_ID'],
      example: 'svc goal rm --site k3f9a1b2c4d5 4',
      async run(inv) {
        const siteId = required(inv, 'site');
        const goalId = numericId(inv, 'GOAL_ID', inv.positionals[0]!);
        await inv.client().request('DELETE', `/sites/${seg(siteId)}/goals/${goalId}`);
        inv.out.result({ goalId, deleted: true }, () => `goal ${goalId} deleted\n`);
      },
    },
  ],
};
