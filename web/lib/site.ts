// The site a page is about (name, zone, the user's role in its organisation) and its read endpoints
// under /app/v1/sites/:siteId.
import { ApiError, figureHeaderOf } from './api.js';
import { askEarly, readPath } from './early.js';
import { readableError } from './read-errors.js';
import type { ErrorReason } from '../../src/core/errors.js';
import { SESSION_PATH, SITES_PATH, sitePath, type SiteRead } from '../../src/core/app-paths.js';
import { COUNTED_SINCE_HEADER, IMPORTED_HEADER, isImportedAnswer, RAW_WINDOW_HEADER, parseCountedSince, type ImportedAnswer } from '../../src/core/answer-headers.js';
import type { SiteRow } from '../../src/core/management.js';

/** The site among those the user can see; SITE_NOT_FOUND (as the server says it) when it is not one of them. */
export async function loadSite(siteId: string): Promise<SiteRow> {
  const { sites } = await readPath<{ sites: SiteRow[] }>(SITES_PATH);
  const site = sites.find((s) => s.id === siteId);
  if (!site) throw siteNotFound();
  return site;
}

/** The refusal of a site the user cannot see, as the server answers it (apiError('NOT_FOUND', 'site'), test/web/lib.test.ts): the catalogue itself would weigh 3 KB gzip here. */
export function siteNotFound(): ApiError {
  const reason: ErrorReason = 'SITE_NOT_FOUND';
  return new ApiError(404, 'NOT_FOUND', 'site not found', reason);
}

/** Starts the session, the site list and these reads now (see early.ts), the session first: nothing shows before it. */
export function readEarly(siteId: string, reads: readonly SiteRead[]): void {
  askEarly(SESSION_PATH);
  askEarly(SITES_PATH);
  for (const read of reads) askEarly(sitePath(siteId, read));
}

/**
 * GET /app/v1/sites/:siteId<path>?<params>: the read API's answer for the signed-in member; a
 * refusal keeps its code and carries a sentence the page shows in place of the figures.
 */
export async function readSite<T>(siteId: string, read: SiteRead): Promise<T> {
  try {
    return await readPath<T>(sitePath(siteId, read));
  } catch (error) {
    throw error instanceof ApiError ? error.withMessage(readableError(error)) : error;
  }
}

/** An answer of a site read with what it did with imported days (its `Svc-Imported` header). */
export async function withImported<T>(siteId: string, read: SiteRead, answer: Promise<T>): Promise<T & { imported: ImportedAnswer | undefined }> {
  const a = await answer;
  const said = figureHeaderOf(sitePath(siteId, read), IMPORTED_HEADER) ?? null;
  return { ...a, imported: isImportedAnswer(said) ? said : undefined };
}

/** Whether a read of the site was clipped to its raw window (its `Svc-Raw-Window` header). */
export function clippedToRawWindow(siteId: string, read: SiteRead): boolean {
  return figureHeaderOf(sitePath(siteId, read), RAW_WINDOW_HEADER) !== undefined;
}

/**
 * A site's goals or funnel read, with the first complete day of each goal and funnel version it
 * names (by `goalKey`, `funnelKey`; its `Svc-Counted-Since` header), none for those counted every day.
 */
export async function readCounted<T>(siteId: string, read: SiteRead): Promise<T & { countedSince: ReadonlyMap<string, string> }> {
  const answer = await readSite<T>(siteId, read);
  return { ...answer, countedSince: countedSinceOf(siteId, read) };
}

/** The days a site read's figures are counted since, by key (its last answer's `Svc-Counted-Since` header). */
export const countedSinceOf = (siteId: string, read: SiteRead): ReadonlyMap<string, string> => parseCountedSince(figureHeaderOf(sitePath(siteId, read), COUNTED_SINCE_HEADER));
