// svc funnel add|steps: ordered funnels of a site.
import { integer, many, numericId, required } from '../args.js';
import { seg } from '../client.js';
import { formatFields } from '../output.js';
import type { Invocation, Noun } from '../types.js';

interface FunnelSummary {
  id: number;
  name: string;
  stepCount: number;
  windowMinutes: number;
  version: number;
  createdAt: number;
}

/** `--step page:/pricing` and `--step event:signup` as API steps. */
function parseSteps(inv: Invocation): Array<{ kind: 'page' | 'event'; pattern: string }> {
  const raw = many(inv, 'step');
  if (raw.length < 2 || raw.length > 8) inv.usage(`a funnel has 2 to 8 --step options, got ${raw.length}`);
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

export const funnel: Noun = {
  name: 'funnel',
  summary: 'funnels: 2 to 8 ordered steps completed within a time window',
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
  ],
};
