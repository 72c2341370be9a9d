import type { FastifyReply, FastifyRequest } from 'fastify';
import { apiError } from '../../core/errors.js';
import { tokensEqual } from '../../core/secrets.js';
import type { AppContext } from '../../context.js';
import { bearerToken } from './bearer.js';

/** onRequest hook: the operator's admin token, compared in constant time whatever the length given. */
export function requireAdmin(ctx: AppContext) {
  return async (request: FastifyRequest, _reply: FastifyReply) => {
    if (!tokensEqual(bearerToken(request.headers.authorization) ?? '', ctx.adminToken)) throw apiError('UNAUTHORIZED', 'credentials');
  };
}
