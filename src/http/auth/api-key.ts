import type { AppContext } from '../../context.js';
import { apiError } from '../../core/errors.js';
import { API_KEY_PATTERN, sha256Hex } from '../../core/ids.js';
import type { ApiKeyRecord } from '../../entities/sites.js';
import { bearerToken } from './bearer.js';

/**
 * The API key of a request's Authorization header. Missing, malformed, unknown and revoked keys all
 * throw the same 401; malformed ones never reach storage; keys are looked up by fingerprint.
 */
/**
 * The per-key limit of SVC_API_RATE_LIMIT, counting a key's /v1 reads and, for a manage key, its
 * /app/v1/manage requests alike (one window, whatever the scope).
 */
export function keyRateLimit(ctx: AppContext): (key: ApiKeyRecord) => Promise<void> {
  const limit = ctx.config.apiRateLimit;
  const limiter = ctx.counters.rateLimiter('api', limit.count, limit.windowMs);
  const perHour = Math.round((limit.count * 3_600_000) / limit.windowMs);
  return async (key) => {
    if (!(await limiter.hit(String(key.id), ctx.clock.now()))) throw apiError('RATE_LIMITED', 'readApi', { perHour }, { 'retry-after': '60' });
  };
}

export async function apiKeyFrom(ctx: AppContext, authorization: string | string[] | undefined): Promise<ApiKeyRecord> {
  const key = bearerToken(authorization);
  if (key === undefined || !API_KEY_PATTERN.test(key)) throw apiError('UNAUTHORIZED', 'credentials');
  const record = await ctx.meta.findApiKeyByFingerprint(sha256Hex(key));
  if (!record || record.revokedAt !== null) throw apiError('UNAUTHORIZED', 'credentials');
  return record;
}
