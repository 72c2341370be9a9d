// svc org add|list|sign-in-domains
import { formatFields, formatTable } from '../output.js';
import type { Noun } from '../types.js';
import type { Org, OrgSignInView } from '../../core/management.js';
import { flag, numericId, optional } from '../args.js';
import { seg } from '../client.js';

export const org: Noun = {
  name: 'org',
  summary: 'organisations: the owners of sites and API keys',
  commands: [
    {
      verb: 'add',
      usage: 'svc org add NAME',
      summary: 'create an organisation',
      args: ['NAME'],
      example: 'svc org add "Acme Inc"',
      async run(inv) {
        const created = await inv.client().request<Org>('POST', '/orgs', { name: inv.positionals[0] });
        inv.out.result(created, () => formatFields([['id', created.id], ['name', created.name]]));
      },
    },
    {
      verb: 'list',
      usage: 'svc org list',
      summary: 'list organisations',
      example: 'svc org list',
      async run(inv) {
        const answer = await inv.client().request<{ orgs: Org[] }>('GET', '/orgs');
        inv.out.result(answer, () => formatTable(['ID', 'NAME'], answer.orgs.map((o) => [o.id, o.name])));
      },
    },
    {
      verb: 'sign-in-domains',
      usage: 'svc org sign-in-domains ORG_ID [--set DOMAINS | --clear]',
      summary:
        "show an organisation's sign-in domains, grant exactly the comma-separated --set list, or --clear them: through single sign-on, unknown users of these email domains join it as viewers",
      args: ['ORG_ID'],
      options: { set: { type: 'string' }, clear: { type: 'boolean' } },
      example: 'svc org sign-in-domains 1 --set acme.com,acme.de',
      async run(inv) {
        const id = numericId(inv, 'ORG_ID', inv.positionals[0]!);
        const list = flag(inv, 'clear') ? '' : optional(inv, 'set');
        const path = `/orgs/${seg(id)}/sign-in`;
        const domains = list?.split(',').map((domain) => domain.trim()).filter((domain) => domain !== '');
        const answer = await inv.client().request<OrgSignInView>(domains === undefined ? 'GET' : 'PUT', path, domains === undefined ? undefined : { domains });
        inv.out.result(answer, () => (answer.domains.length > 0 ? `${answer.domains.join('\n')}\n` : `organisation ${id} has no sign-in domains\n`));
      },
    },
  ],
};
