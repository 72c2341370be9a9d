// svc digest send: a site's email report of the last complete week or month, mailed now to any
// address (a check of the SMTP set-up, or a report for someone not subscribed). It changes no
// subscription, and the scheduled reports still go out once each.
import { optional, required } from '../args.js';
import { seg } from '../client.js';
import { formatFields, time } from '../output.js';
import type { Noun } from '../types.js';
import type { SentReport } from '../../core/management.js';
import { DIGEST_KINDS } from '../../storage/meta/digest-types.js';

export const digest: Noun = {
  name: 'digest',
  summary: 'email reports: send one now',
  commands: [
    {
      verb: 'send',
      usage: 'svc digest send --site ID --email ADDR [--period weekly|monthly]',
      summary: "mail the report of the site's last complete week (or month) to ADDR now; subscriptions stay as they are",
      options: { site: { type: 'string' }, email: { type: 'string' }, period: { type: 'string' } },
      example: 'svc digest send --site k3f9a1b2c4d5 --email ana@example.com --period monthly',
      async run(inv) {
        const siteId = required(inv, 'site');
        const period = optional(inv, 'period');
        if (period !== undefined && !DIGEST_KINDS.includes(period as never)) inv.usage(`--period must be one of ${DIGEST_KINDS.join(', ')}, got ${JSON.stringify(period)}`);
        const body = { email: required(inv, 'email'), ...(period === undefined ? {} : { period }) };
        const sent = await inv.client().request<SentReport>('POST', `/sites/${seg(siteId)}/digests/send`, body);
        inv.out.result(sent, () =>
          formatFields([
            ['sent to', sent.email],
            ['report', `${sent.period}, ${sent.from} to ${sent.to}`],
            ['at', time(sent.sentAt)],
          ]),
        );
      },
    },
  ],
};
