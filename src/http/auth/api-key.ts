import type { AppContext } from '../../context.js';
import { apiError } from '../../core/errors.js';
import { API_KEY_PATTERN, sha256Hex } from '../../core/ids.js';
import type { ApiKeyRecord } from '../../entities/sites.js';
import { bearerToken } from './bearer.js';

/**
 * The API key of a request's Authorization header. Missing, malformed, unknown and revoked keys all
 * throw the same 401; malformed ones never reach storage; keys are looked up by fingerprint.
 */
export async function apiKeyFrom(ctx: AppContext, authorization: string | string[] | undefined): Promise<ApiKeyRecord> {
  const key = bearerToken(authorization);
  if (key === undefined || !API_KEY_PATTERN.test(key)) throw apiError('UNAUTHORIZED', 'credentials');
  const record = await ctx.meta.findApiKeyByFingerprint(sha256Hex(key));
  if (!record || record.revokedAt !== null) throw apiError('UNAUTHORIZED', 'credentials');
  return record;
}
