// svc snippet SITE_ID: the tracker tag to paste into a site's pages, as the server builds it from
// its public URL (SVC_PUBLIC_URL).
import { seg } from '../client.js';
import type { Noun } from '../types.js';
import type { TrackerSnippet } from '../../core/management.js';

export const snippet: Noun = {
  name: 'snippet',
  summary: "print the tracker's <script> tag for a site",
  commands: [
    {
      usage: 'svc snippet SITE_ID',
      summary: "print the <script> tag to place once in the <head> of every page (loading the tracker from the server's SVC_PUBLIC_URL)",
      args: ['SITE_ID'],
      example: 'svc snippet k3f9a1b2c4d5',
      async run(inv) {
        const answer = await inv.client().request<TrackerSnippet>('GET', `/sites/${seg(inv.positionals[0]!)}/snippet`);
        if (!answer.publicUrlSet) {
          inv.out.note(`svc: the server has no SVC_PUBLIC_URL, so this tag loads ${answer.scriptUrl}; set SVC_PUBLIC_URL to the address browsers reach`);
        }
        inv.out.result(answer, () => answer.snippet + '\n');
      },
    },
  ],
};
