// svc goal add|list|rm: conversion goals of a site.
import { many, numericId, required } from '../args.js';
import { seg } from '../client.js';
import { formatFields, formatTable } from '../output.js';
import type { Noun } from '../types.js';
import type { GoalProps } from '../../core/vocabulary.js';
import type { ManagedGoal } from '../../core/management.js';
import type { Invocation } from '../types.js';

/** An event goal's required property values, from `--prop key=value` (the key up to the first `=`); null without any. */
function goalProps(inv: Invocation): GoalProps | null {
  const texts = many(inv, 'prop');
  if (texts.length === 0) return null;
  return Object.fromEntries(
    texts.map((text) => {
      const at = text.indexOf('=');
      if (at < 1) inv.usage(`--prop must be key=value, got ${JSON.stringify(text)}`);
      return [text.slice(0, at), text.slice(at + 1)];
    }),
  );
}

/** A goal's property values as one field: `plan=pro seats=3`; '' without any. */
const propsText = (props: GoalProps | undefined) =>
  Object.entries(props ?? {})
    .map(([key, value]) => `${key}=${value}`)
    .join(' ');

export const goal: Noun = {
  name: 'goal',
  summary: 'conversion goals: a page pattern or a custom event name',
  commands: [
    {
      verb: 'add',
      usage: 'svc goal add --site ID --name N --kind page|event --pattern P [--prop KEY=VALUE]... [--currency CODE]',
      summary: 'create a goal (page patterns start with / and may use * and **; an event goal may require property values, and with a currency counts revenue)',
      options: { site: { type: 'string' }, name: { type: 'string' }, kind: { type: 'string' }, pattern: { type: 'string' }, prop: { type: 'string', multiple: true }, currency: { type: 'string' } },
      example: 'svc goal add --site k3f9a1b2c4d5 --name Signup --kind event --pattern signup',
      async run(inv) {
        const siteId = required(inv, 'site');
        const name = required(inv, 'name');
        const kind = required(inv, 'kind');
        if (kind !== 'page' && kind !== 'event') inv.usage(`--kind must be page or event, got ${JSON.stringify(kind)}`);
        const pattern = required(inv, 'pattern');
        const props = goalProps(inv);
        const currency = inv.values.currency as string | undefined;
        const created = await inv.client().request<ManagedGoal>('POST', `/sites/${seg(siteId)}/goals`, { name, kind, pattern, ...(props ? { props } : {}), currency });
        inv.out.result(created, () =>
          formatFields([
            ['id', created.goalId],
            ['name', created.name],
            ['kind', created.kind],
            ['pattern', created.pattern],
            ...(created.props ? [['props', propsText(created.props)] as [string, string]] : []),
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
        const withProps = answer.goals.some((g) => g.props);
        inv.out.result(answer, () =>
          formatTable(
            ['ID', 'NAME', 'KIND', 'PATTERN', ...(withProps ? ['PROPS'] : [])],
            answer.goals.map((g) => [g.goalId, g.name, g.kind, g.pattern, ...(withProps ? [propsText(g.props)] : [])]),
          ),
        );
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
