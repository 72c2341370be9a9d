// svc funnel add|steps|list|show|rm: ordered funnels of a site.
import { integer, many, numericId, required } from '../args.js';
import { seg } from '../client.js';
import { formatFields, formatTable, time } from '../output.js';
import type { Invocation, Noun } from '../types.js';
import { FUNNEL_STEPS, type FunnelStep } from '../../core/vocabulary.js';
import type { FunnelDefinition, FunnelHistory } from '../../core/management.js';
import type { FunnelSummary } from '../../core/answers.js';

/** `--step page:/pricing` and `--step event:signup` as API steps. */
function parseSteps(inv: Invocation): FunnelStep[] {
  const raw = many(inv, 'step');
  if (raw.length < FUNNEL_STEPS.min || raw.length > FUNNEL_STEPS.max) inv.usage(`a funnel has ${FUNNEL_STEPS.min} to ${FUNNEL_STEPS.max} --step options, got ${raw.length}`);
  return raw.map((text) => {
    const colon = text.indexOf(':');
    const kind = colon < 0 ? '' : text.slice(0, colon);
    const pattern = colon < 0 ? '' : text.slice(colon + 1);
    if ((kind !== 'page' && kind !== 'event') || pattern === '') {
      inv.usage(`--step must be page:PATH or event:NAME, got ${JSON.stringify(text)}`);
    }
    return { kind, pattern };
  });
}

const summary = (f: FunnelSummary) =>
  formatFields([['id', f.id], ['name', f.name], ['steps', f.stepCount], ['window', `${f.windowMinutes} min`], ['version', f.version]]);

/** Steps written as the --step options that define them, in order. */
const stepsText = (steps: FunnelStep[]) => steps.map((s) => `${s.kind}:${s.pattern}`).join(' → ');

/** The FUNNEL_ID of a command on one funnel, and the funnel's API path under its --site. */
function oneFunnel(inv: Invocation): { funnelId: number; path: string } {
  const siteId = required(inv, 'site');
  const funnelId = numericId(inv, 'FUNNEL_ID', inv.positionals[0]!);
  return { funnelId, path: `/sites/${seg(siteId)}/funnels/${funnelId}` };
}

export const funnel: Noun = {
  name: 'funnel',
  summary: `funnels: ${FUNNEL_STEPS.min} to ${FUNNEL_STEPS.max} ordered steps completed within a time window`,
  commands: [
    {
      verb: 'add',
      usage: 'svc funnel add --site ID --name N --window MIN --step page:/a --step event:signup ...',
      summary: 'create a funnel (steps in order; page:PATTERN or event:NAME)',
      options: { site: { type: 'string' }, name: { type: 'string' }, window: { type: 'string' }, step: { type: 'string', multiple: true } },
      example: 'svc funnel add --site k3f9a1b2c4d5 --name Checkout --window 60 --step page:/pricing --step page:/checkout --step event:purchase',
      async run(inv) {
        const siteId = required(inv, 'site');
        const name = required(inv, 'name');
        const windowMinutes = integer(inv, 'window', required(inv, 'window'), 1, 30 * 24 * 60);
        const steps = parseSteps(inv);
        const created = await inv.client().request<FunnelSummary>('POST', `/sites/${seg(siteId)}/funnels`, { name, windowMinutes, steps });
        inv.out.result(created, () => summary(created));
      },
    },
    {
      verb: 'steps',
      usage: 'svc funnel steps --site ID FUNNEL_ID --step page:/a --step event:signup ...',
      summary: "replace a funnel's steps (a new version; earlier versions stay queryable)",
      options: { site: { type: 'string' }, step: { type: 'string', multiple: true } },
      args: ['FUNNEL_ID'],
      example: 'svc funnel steps --site k3f9a1b2c4d5 2 --step page:/pricing --step event:purchase',
      async run(inv) {
        const siteId = required(inv, 'site');
        const funnelId = numericId(inv, 'FUNNEL_ID', inv.positionals[0]!);
        const steps = parseSteps(inv);
        const updated = await inv.client().request<FunnelSummary>('PUT', `/sites/${seg(siteId)}/funnels/${funnelId}/steps`, { steps });
        inv.out.result(updated, () => summary(updated));
      },
    },
    {
      verb: 'list',
      usage: 'svc funnel list --site ID',
      summary: "list a site's funnels with their current steps",
      options: { site: { type: 'string' } },
      example: 'svc funnel list --site k3f9a1b2c4d5',
      async run(inv) {
        const answer = await inv.client().request<{ funnels: FunnelDefinition[] }>('GET', `/sites/${seg(required(inv, 'site'))}/funnels`);
        inv.out.result(answer, () =>
          formatTable(
            ['ID', 'NAME', 'WINDOW', 'VERSION', 'STEPS'],
            answer.funnels.map((f) => [f.id, f.name, `${f.windowMinutes} min`, f.version, stepsText(f.steps)]),
          ),
        );
      },
    },
    {
      verb: 'show',
      usage: 'svc funnel show --site ID FUNNEL_ID',
      summary: 'show a funnel and the steps of every version',
      options: { site: { type: 'string' } },
      args: ['FUNNEL_ID'],
      example: 'svc funnel show --site k3f9a1b2c4d5 2',
      async run(inv) {
        const f = await inv.client().request<FunnelHistory>('GET', oneFunnel(inv).path);
        inv.out.result(f, () => {
          const fields = formatFields([['id', f.id], ['name', f.name], ['window', `${f.windowMinutes} min`], ['version', f.version], ['created', time(f.createdAt)]]);
          const versions = formatTable(['VERSION', 'CREATED', 'STEPS'], f.versions.map((v) => [v.version, time(v.createdAt), stepsText(v.steps)]));
          return `${fields}\n${versions}`;
        });
      },
    },
    {
      verb: 'rm',
      usage: 'svc funnel rm --site ID FUNNEL_ID',
      summary: 'delete a funnel and every version of it (the read API no longer lists or reads it)',
      options: { site: { type: 'string' } },
      args: ['FUNNEL_ID'],
      example: 'svc funnel rm --site k3f9a1b2c4d5 2',
      async run(inv) {
        const { funnelId, path } = oneFunnel(inv);
        await inv.client().request('DELETE', path);
        inv.out.result({ funnelId, deleted: true }, () => `funnel ${funnelId} deleted\n`);
      },
    },
  ],
};
