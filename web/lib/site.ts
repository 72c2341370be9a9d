// The site a page is about (name, zone, the user's role in its organisation) and its read endpoints
// under /app/v1/sites/:siteId.
import { api, ApiError } from './api.js';
import { readableError } from './read-errors.js';
import type { SiteRow } from './sites.js';

/** The site among those the user can see; NOT_FOUND (as the server says it) when it is not one of them. */
export async function loadSite(siteId: string): Promise<SiteRow> {
  const { sites } = await api<{ sites: SiteRow[] }>('GET', '/sites');
  const site = sites.find((s) => s.id === siteId);
  if (!site) throw new ApiError(404, 'NOT_FOUND', 'site not found');
  return site;
}

/**
 * GET /app/v1/sites/:siteId<path>?<params>: the read API's answer for the signed-in member; a
 * refusal keeps its code and carries a sentence the page shows in place of the figures.
 */
export async function readSite<T>(siteId: string, path: string, params?: URLSearchParams): Promise<T> {
  const query = params && params.toString() !== '' ? `?${params}` : '';
  try {
    return await api<T>('GET', `/sites/${encodeURIComponent(siteId)}${path}${query}`);
  } catch (error) {
    throw error instanceof ApiError ? new ApiError(error.status, error.code, readableError(error)) : error;
  }
}
