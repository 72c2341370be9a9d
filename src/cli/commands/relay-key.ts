// svc relay-key add: keys for trusted relays (X-Svc-Relay-Key).
import { optional } from '../args.js';
import { formatFields } from '../output.js';
import type { Noun } from '../types.js';

export const relayKey: Noun = {
  name: 'relay-key',
  summary: 'keys for trusted relays that forward visitor IP and geolocation (X-Svc-Relay-Key)',
  commands: [
    {
      verb: 'add',
      usage: 'svc relay-key add [--name N]',
      summary: 'create a trusted-relay key; the secret is shown once',
      options: { name: { type: 'string' } },
      example: 'svc relay-key add --name edge-proxy',
      async run(inv) {
        const name = optional(inv, 'name');
        const created = await inv.client().request<{ id: number; key: string }>('POST', '/relay-keys', name === undefined ? {} : { name });
        inv.out.result(created, () => formatFields([['id', created.id], ['key', created.key]]));
        if (!inv.out.json) inv.out.note('Store this key now: it is not shown again.');
      },
    },
  ],
};
