// Cross-site request protection of the dashboard's JSON endpoints, on top of the SameSite=Lax cookie:
// a state-changing request whose Origin is not the service's own is refused, and one made with a
// session must carry that session's token in `x-csrf-token` (a header no cross-site form can set).
import type { FastifyRequest } from 'fastify';
import type { Config } from '../../config.js';
import { apiError } from '../../core/errors.js';
import { ownOrigin } from './session-cookie.js';
import type { SignedIn } from '../../accounts/service.js';
import { tokensEqual } from '../../core/secrets.js';

export const CSRF_HEADER = 'x-csrf-token';

export function changesState(request: FastifyRequest): boolean {
  return request.method !== 'GET' && request.method !== 'HEAD';
}

/** 403 when a state-changing request comes from another origin (checked when the browser says). */
export function checkOrigin(request: FastifyRequest, config: Config): void {
  const origin = request.headers.origin;
  if (changesState(request) && origin !== undefined && origin !== ownOrigin(request, config)) {
    throw apiError('FORBIDDEN', 'crossOrigin', { origin: JSON.stringify(origin) });
  }
}

/** 403 when a state-changing request lacks its session's CSRF token. */
export function checkCsrfToken(request: FastifyRequest, signedIn: SignedIn): void {
  if (!changesState(request)) return;
  const token = request.headers[CSRF_HEADER];
  if (typeof token !== 'string' || !tokensEqual(token, signedIn.session.csrfToken)) {
    throw apiError('FORBIDDEN', 'csrfToken', { header: CSRF_HEADER });
  }
}
