// svc snippet SITE_ID: the tracker tag to paste into a site's pages.
import { snippetTag } from '../../tracker/snippet.js';
import type { Noun } from '../types.js';

export const snippet: Noun = {
  name: 'snippet',
  summary: "print the tracker's <script> tag for a site",
  commands: [
    {
      usage: 'svc snippet SITE_ID',
      summary: "print the <script> tag to place once in the <head> of every page (uses --url / SVC_URL, so give the server's public address)",
      args: ['SITE_ID'],
      example: 'svc snippet k3f9a1b2c4d5 --url https://stats.example.com',
      async run(inv) {
        const tag = snippetTag(inv.url, inv.positionals[0]!);
        inv.out.result({ snippet: tag }, () => tag + '\n');
      },
    },
  ],
};
