// The site a page is about (name, zone, the user's role in its organisation) and its read endpoints
// under /app/v1/sites/:siteId.
import { ApiError, type Answer } from './api.js';
import { askEarly, readPath } from './early.js';
import { readableError } from './read-errors.js';
import type { ErrorReason } from '../../src/core/errors.js';
import { SESSION_PATH, SITES_PATH, sitePath, type SiteRead } from '../../src/core/app-paths.js';
import { COUNTED_SINCE_HEADER, IMPORTED_HEADER, isImportedAnswer, RAW_WINDOW_HEADER, parseCountedSince, type ImportedAnswer } from '../../src/core/answer-headers.js';
import type { SiteRow } from '../../src/core/management.js';

/** The site among those the user can see; SITE_NOT_FOUND (as the server says it) when it is not one of them. */
export async function loadSite(siteId: string): Promise<SiteRow> {
  const { sites } = (await readPath<{ sites: SiteRow[] }>(SITES_PATH)).body;
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
  return (await readSiteAnswer<T>(siteId, read)).body;
}

async function readSiteAnswer<T>(siteId: string, read: SiteRead): Promise<Answer<T>> {
  try {
    return await readPath<T>(sitePath(siteId, read));
  } catch (error) {
    throw error instanceof ApiError ? error.withMessage(readableError(error)) : error;
  }
}

/** What a site read's headers say of its figures, beside its body. */
export interface FigureNotes {
  /** What the figures did with imported days (`Svc-Imported`); undefined for reads that say nothing of them. */
  imported: ImportedAnswer | undefined;
  /** The first complete day of each goal and funnel version the read names, by `goalKey`, `funnelKey` (`Svc-Counted-Since`); none for those counted every day. */
  countedSince: ReadonlyMap<string, string>;
  /** Whether a filtered read was clipped to the site's raw window (`Svc-Raw-Window`). */
  clippedToRawWindow: boolean;
}

/** A site read's answer with what its own headers say of its figures. */
export async function readNoted<T>(siteId: string, read: SiteRead): Promise<T & FigureNotes> {
  const { body, figures } = await readSiteAnswer<T>(siteId, read);
  const imported = figures[IMPORTED_HEADER] ?? null;
  return {
    ...body,
    imported: isImportedAnswer(imported) ? imported : undefined,
    countedSince: parseCountedSince(figures[COUNTED_SINCE_HEADER]),
    clippedToRawWindow: figures[RAW_WINDOW_HEADER] !== undefined,
  };
}
