import { apiError } from '../../core/errors.js';
import { storedDomain } from '../../entities/sites.js';

/** A site's declared domain: a lowercase host name (no scheme, port or path). */
export function parseDomain(input: string): string {
  const domain = storedDomain(input);
  const label = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?';
  if (!new RegExp(`^(?:${label}\\.)*${label}$`).test(domain) || domain.length > 253) {
    throw apiError('INVALID_PARAMS', 'domain');
  }
  return domain;
}
