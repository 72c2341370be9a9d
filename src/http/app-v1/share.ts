// Opening a shared link (`POST /app/v1/share`): the link's token in the body (never in an address
// that a log or a Referer could carry), its password when it has one; the answer is an access token
// the page sends in the `x-share-access` header with each statistics read, and what the page shows.
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { apiError } from '../../core/errors.js';
import { clientAddress } from '../auth/session-cookie.js';
import { SHARE_OPENING } from '../bodies.js';
import { readBody } from '../validate.js';
import { WITHOUT_SESSION } from './session.js';

export const SHARE_ACCESS_HEADER = 'x-share-access';

export async function shareRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  app.post('/share', { config: WITHOUT_SESSION }, async (request, reply) => {
    const { token, password } = readBody(SHARE_OPENING, request.body);
    const opened = await ctx.accounts.sharedLinks.open(token, password, clientAddress(request, ctx.config));
    if ('passwordRequired' in opened) return reply.code(202).send(opened);
    const site = await ctx.meta.getSite(opened.link.sitePublicId);
    if (!site || site.status !== 'active') throw apiError('NOT_FOUND', 'sharedLink');
    return {
      access: opened.access,
      expiresAt: opened.grantExpiresAt,
      site: { id: site.id, name: site.name, domain: site.domain, timezone: site.timezone, rawDays: site.rawDays },
      filters: opened.link.filters,
    };
  });
}
