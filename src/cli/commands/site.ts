// svc site add|list|archive|activate
import { flag, integer, optional, required } from '../args.js';
import { seg } from '../client.js';
import { formatFields, formatTable } from '../output.js';
import type { Command, Invocation, Noun } from '../types.js';
import { RAW_DAYS, SUGGESTED_RAW_DAYS } from '../../core/vocabulary.js';
import type { ManagedSite } from '../../core/management.js';

const retention = (months: number | null) => (months === null ? 'forever' : `${months} months`);

function siteFields(s: ManagedSite): string {
  return formatFields([
    ['id', s.id],
    ['domain', s.domain],
    ['name', s.name],
    ['timezone', s.timezone],
    ['retention', retention(s.retentionMonths)],
    ['raw events', `${s.rawDays} days`],
    ['honor GPC', s.honorGpc],
    ['status', s.status],
  ]);
}

function setStatus(verb: 'archive' | 'activate', status: 'archived' | 'active'): Command {
  return {
    verb,
    usage: `svc site ${verb} SITE_ID`,
    summary: verb === 'archive' ? 'archive a site: collection stops, its data stays readable' : 'make an archived site active again',
    args: ['SITE_ID'],
    example: `svc site ${verb} k3f9a1b2c4d5`,
    async run(inv: Invocation) {
      const site = await inv.client().request<ManagedSite>('PATCH', `/sites/${seg(inv.positionals[0]!)}`, { status });
      inv.out.result(site, () => siteFields(site));
    },
  };
}

export const site: Noun = {
  name: 'site',
  summary: 'sites: one tracked domain each, with a public id for the snippet',
  commands: [
    {
      verb: 'add',
      usage: 'svc site add --org ID --domain D --name N --timezone TZ [--retention-months N] [--raw-days N] [--no-gpc]',
      summary: `create a site (GPC is honoured unless --no-gpc; data is kept forever unless --retention-months; raw events ${RAW_DAYS.default} days unless --raw-days, ${RAW_DAYS.min} to ${RAW_DAYS.max})`,
      options: {
        org: { type: 'string' },
        domain: { type: 'string' },
        name: { type: 'string' },
        timezone: { type: 'string' },
        'retention-months': { type: 'string' },
        'raw-days': { type: 'string' },
        'no-gpc': { type: 'boolean' },
      },
      example: 'svc site add --org 1 --domain example.com --name "Example" --timezone Europe/Paris --retention-months 24',
      async run(inv) {
        const orgId = required(inv, 'org');
        const body: Record<string, unknown> = {
          domain: required(inv, 'domain'),
          name: required(inv, 'name'),
          timezone: required(inv, 'timezone'),
        };
        const months = optional(inv, 'retention-months');
        if (months !== undefined) body.retentionMonths = integer(inv, 'retention-months', months, 1, 1200);
        // The dashboard's `Add site` form preselects the same span: a site added either way answers
        // filtered views over 13 months (the admin API alone keeps the read API contract's 30 days by default).
        const rawDays = optional(inv, 'raw-days');
        body.rawDays = rawDays === undefined ? SUGGESTED_RAW_DAYS : integer(inv, 'raw-days', rawDays, RAW_DAYS.min, RAW_DAYS.max);
        if (flag(inv, 'no-gpc')) body.honorGpc = false;
        const created = await inv.client().request<ManagedSite>('POST', `/orgs/${seg(orgId)}/sites`, body);
        inv.out.result(created, () => siteFields(created));
      },
    },
    {
      verb: 'list',
      usage: 'svc site list --org ID',
      summary: "list an organisation's sites, archived ones included",
      options: { org: { type: 'string' } },
      example: 'svc site list --org 1',
      async run(inv) {
        const answer = await inv.client().request<{ sites: ManagedSite[] }>('GET', `/orgs/${seg(required(inv, 'org'))}/sites`);
        inv.out.result(answer, () =>
          formatTable(
            ['ID', 'DOMAIN', 'NAME', 'TIMEZONE', 'RETENTION', 'RAW DAYS', 'GPC', 'STATUS'],
            answer.sites.map((s) => [s.id, s.domain, s.name, s.timezone, retention(s.retentionMonths), s.rawDays, s.honorGpc ? 'honored' : 'ignored', s.status]),
          ),
        );
      },
    },
    setStatus('archive', 'archived'),
    setStatus('activate', 'active'),
  ],
};
