import { timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { unauthorized } from '../../core/errors.js';
import type { AppContext } from '../../context.js';

/** Bearer token from the Authorization header, or undefined. */
export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (typeof header !== 'string') return undefined;
  const m = /^Bearer ([^\s]+)$/.exec(header.trim());
  return m?.[1];
}

/** onRequest hook: the operator's admin token, compared in constant time. */
export function requireAdmin(ctx: AppContext) {
  const expected = Buffer.from(ctx.adminToken);
  return async (request: FastifyRequest, _reply: FastifyReply) => {
    const given = Buffer.from(bearerToken(request) ?? '');
    if (given.length === 0 || given.length !== expected.length || !timingSafeEqual(given, expected)) throw unauthorized();
  };
}
