// What the request log says of a request. Links that carry a secret in their path (an invitation's
// `/invitations/<token>`, and the read side's of it) must not leave it in the log, where anyone who
// reads the log could use it: the path segment after `/invitations/` (also URL-encoded) is logged as `[secret]`.
import type { FastifyRequest } from 'fastify';

/**
 * The routes whose next path segment is a secret: the invitation page and its /app/v1 endpoints, and
 * the same path encoded in a query (the sign-in link's `next=%2Finvitations%2F<token>`).
 */
const SECRET_SEGMENT = /((?:\/|%2F)invitations(?:\/|%2F))[^/?#&%]+/gi;

export function redactSecrets(url: string): string {
  return url.replace(SECRET_SEGMENT, '$1[secret]');
}

/** pino serializers for the process logger: Fastify's request fields, with secrets taken out of the URL. */
export const requestLogSerializers = {
  req: (req: FastifyRequest) => ({
    method: req.method,
    url: redactSecrets(req.url),
    host: req.host,
    remoteAddress: req.ip,
    remotePort: req.socket?.remotePort,
  }),
};
