// svc key add|list|revoke: read-API keys of an organisation.
import { numericId, optional, required } from '../args.js';
import { seg } from '../client.js';
import { formatFields, formatTable, time } from '../output.js';
import type { Noun } from '../types.js';
import type { CreatedKey, ManagedKey } from '../../core/management.js';

export const key: Noun = {
  name: 'key',
  summary: 'read-API keys of an organisation',
  commands: [
    {
      verb: 'add',
      usage: 'svc key add --org ID [--name N]',
      summary: 'create an API key; the secret is shown once',
      options: { org: { type: 'string' }, name: { type: 'string' } },
      example: 'svc key add --org 1 --name dashboard',
      async run(inv) {
        const orgId = required(inv, 'org');
        const name = optional(inv, 'name');
        const created = await inv.client().request<CreatedKey>('POST', `/orgs/${seg(orgId)}/keys`, name === undefined ? {} : { name });
        inv.out.result(created, () =>
          formatFields([['id', created.id], ['name', created.name], ['key', created.key], ['created', time(created.createdAt)]]),
        );
        if (!inv.out.json) inv.out.note('Store this key now: it is not shown again.');
      },
    },
    {
      verb: 'list',
      usage: 'svc key list --org ID',
      summary: "list an organisation's API keys (never the secrets)",
      options: { org: { type: 'string' } },
      example: 'svc key list --org 1',
      async run(inv) {
        const answer = await inv.client().request<{ keys: ManagedKey[] }>('GET', `/orgs/${seg(required(inv, 'org'))}/keys`);
        inv.out.result(answer, () =>
          formatTable(['ID', 'NAME', 'CREATED', 'REVOKED'], answer.keys.map((k) => [k.id, k.name, time(k.createdAt), time(k.revokedAt)])),
        );
      },
    },
    {
      verb: 'revoke',
      usage: 'svc key revoke KEY_ID',
      summary: 'revoke an API key; requests with it are refused from now on',
      args: ['KEY_ID'],
      example: 'svc key revoke 3',
      async run(inv) {
        const id = numericId(inv, 'KEY_ID', inv.positionals[0]!);
        const answer = await inv.client().request<Pick<ManagedKey, 'id' | 'revokedAt'>>('POST', `/keys/${id}/revoke`);
        inv.out.result(answer, () => `key ${answer.id} revoked at ${time(answer.revokedAt)}\n`);
      },
    },
  ],
};
