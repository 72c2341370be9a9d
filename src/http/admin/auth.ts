import { timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { unauthorized } from '../../core/errors.js';
import type { AppContext } from '../../context.js';
import { bearerToken } from '../bearer.js';

/** onRequest hook: the operator's admin token, compared in constant time. */
export function requireAdmin(ctx: AppContext) {
  const expected = Buffer.from(ctx.adminToken);
  return async (request: FastifyRequest, _reply: FastifyReply) => {
    const given = Buffer.from(bearerToken(request.headers.authorization) ?? '');
    if (given.length === 0 || given.length !== expected.length || !timingSafeEqual(given, expected)) throw unauthorized();
  };
}
