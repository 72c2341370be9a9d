// The /app/v1 paths (after the prefix) that the dashboard's pages read first, named once for the
// pages that read them and for the server, whose page shells preload them, and the path of a
// site's read. A module of its own: every page's script imports it, so it imports nothing.

/** The signed-in session: every signed-in page waits for it. */
export const SESSION_PATH = '/session';

/** The sites the user sees: a site's page finds its site (name, zone, role) there. */
export const SITES_PATH = '/sites';

/** A read of one site: its path under /app/v1/sites/:siteId and its parameters. */
export interface SiteRead {
  path: string;
  params?: URLSearchParams;
}

/** The path under /app/v1 of a site's read. */
export function sitePath(siteId: string, read: SiteRead): string {
  const query = read.params && read.params.toString() !== '' ? `?${read.params}` : '';
  return `/sites/${encodeURIComponent(siteId)}${read.path}${query}`;
}
