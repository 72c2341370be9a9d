// svc org add|list
import { formatFields, formatTable } from '../output.js';
import type { Noun } from '../types.js';
import type { Org } from '../../core/management.js';

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
  ],
};
