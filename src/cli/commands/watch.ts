// svc watch SITE_ID: a site's collection outcomes as they come (accepted, or why an event was
// dropped), to check an installation. Polls the admin API until interrupted.
import { setTimeout as sleep } from 'node:timers/promises';
import { integer, optional } from '../args.js';
import { seg } from '../client.js';
import { time } from '../output.js';
import type { Noun } from '../types.js';
import type { RecentEvents } from '../../core/management.js';

export const watch: Noun = {
  name: 'watch',
  summary: "a site's collection outcomes as they arrive",
  commands: [
    {
      usage: 'svc watch SITE_ID [--interval SECONDS]',
      summary: 'print each event the site receives, with its name (accepted, or the reason it was dropped), starting with the last 100 kept; Ctrl-C stops',
      args: ['SITE_ID'],
      options: { interval: { type: 'string' } },
      example: 'svc watch k3f9a1b2c4d5',
      async run(inv) {
        const intervalText = optional(inv, 'interval');
        const intervalMs = intervalText === undefined ? 1000 : integer(inv, 'interval', intervalText, 1, 3600) * 1000;
        const path = `/sites/${seg(inv.positionals[0]!)}/recent-events`;
        let after = 0;
        if (!inv.out.json) inv.out.note(`svc: watching ${inv.positionals[0]!}; visit a page of the site (Ctrl-C stops)`);
        for (;;) {
          const answer = await inv.client().request<RecentEvents>('GET', `${path}?after=${after}`);
          for (const e of answer.events) {
            inv.out.line(inv.out.json ? JSON.stringify(e) : [time(e.ts), e.outcome.padEnd(15), (e.name ?? '-').padEnd(12), e.browser ?? '-', e.path ?? '-'].join('  '));
          }
          after = answer.lastSeq;
          await sleep(intervalMs);
        }
      },
    },
  ],
};
