import type { AppContext } from '../../context.js';
import { unauthorized } from '../../core/errors.js';
import { API_KEY_PATTERN, sha256Hex } from '../../core/ids.js';
import type { ApiKeyRecord } from '../../storage/meta/types.js';
import { bearerToken } from '../bearer.js';

/**
 * The API key of a request's Authorization header. Missing, malformed, unknown and revoked keys all
 * throw the same 401; malformed ones never reach storage; keys are looked up by fingerprint.
 */
export async function apiKeyFrom(ctx: AppContext, authorization: string | string[] | undefined): Promise<ApiKeyRecord> {
  const key = bearerToken(authorization);
  if (key === undefined || !API_KEY_PATTERN.test(key)) throw unauthorized();
  const record = await ctx.meta.findApiKeyByFingerprint(sha256Hex(key));
  if (!record || record.revokedAt !== null) throw unauthorized();
  return record;
}
