import { invalidParams } from '../../core/errors.js';

/** A site's declared domain: a lowercase host name (no scheme, port or path). */
export function parseDomain(input: string): string {
  const domain = input.trim().toLowerCase().replace(/\.$/, '');
  const label = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?';
  if (!new RegExp(`^(?:${label}\\.)*${label}$`).test(domain) || domain.length > 253) {
    throw invalidParams('domain must be a host name such as example.com (no scheme, port or path)');
  }
  return domain;
}
