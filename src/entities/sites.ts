// Organisations, their sites and their API keys, as the rest of the code sees them (the MetaStore
// stores them: src/storage/meta/types.ts).
import type { ManagedSite } from '../core/management.js';
import { LOCAL_SITE_DOMAIN, type KeyScope } from '../core/vocabulary.js';

/**
 * A site: what the management API answers of it (`id` is the public id: the tracker's data-site and
 * every API path), with its organisation, creation time and internal id.
 */
export interface Site extends ManagedSite {
  internalId: number; // never leaves the service
  orgId: number;
  createdAt: number;
}

/** What creating a site sets: the management API's fields but its generated id and its status. */
export type NewSite = Omit<ManagedSite, 'id' | 'status'>;

/** A host name as a site's domain is stored: trimmed, in lower case, without a trailing dot. */
export function storedDomain(host: string): string {
  return host.trim().toLowerCase().replace(/\.$/, '');
}

/**
 * The domain to declare a site with, from what a person types or pastes in the dashboard's `Add
 * site` form: the host of a URL (`https://www.Example.com/path` → `example.com`) or a host name,
 * stored as `storedDomain` stores it, without port or a leading `www.` (a site's events come from
 * its domain and every subdomain of it, `www.` included); a loopback address (`http://127.0.0.1:5173`)
 * makes the local site, `localhost`. The admin API takes host names only and
 * refuses the rest; the form shows what it sends before sending, so no Node API here.
 */
export function siteDomainOf(input: string): string {
  const rest = input.trim().replace(/^(?:[a-z][a-z0-9+.-]*:)?\/\//i, '');
  const authority = rest.split(/[/?#]/, 1)[0]!;
  const host = storedDomain(authority.slice(authority.lastIndexOf('@') + 1).replace(/:\d*$/, ''));
  if (isLoopbackHost(host)) return LOCAL_SITE_DOMAIN;
  return host.startsWith('www.') && host.indexOf('.', 4) > 0 ? host.slice(4) : host;
}

export { LOCAL_SITE_DOMAIN };

/** A host name as URL parses it (lower case, IPv4 in dotted decimal) that names this machine. */
export function isLoopbackHost(host: string): boolean {
  return host === LOCAL_SITE_DOMAIN || host.endsWith(`.${LOCAL_SITE_DOMAIN}`) || host === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

export type SitePatch = Partial<Pick<Site, 'name' | 'timezone' | 'retentionMonths' | 'rawDays' | 'honorGpc' | 'status'>>;

export interface ApiKeyRecord {
  id: number;
  orgId: number;
  name: string;
  scope: KeyScope;
  createdAt: number;
  revokedAt: number | null;
}
