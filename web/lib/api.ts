// The dashboard's client of /app/v1: JSON in and out, the session's CSRF token on every change, and
// every failure (error envelope, non-JSON answer, no network) turned into an ApiError whose message
// a page can show as it is (the server writes it in the page's language, sent as Accept-Language),
// and whose reason (the catalogue's name of the refusal) a page branches on.
import type { ErrorCode, ErrorReason } from '../../src/core/errors.js';
import { loginPath } from '../../src/core/next-path.js';
import { COUNTED_SINCE_HEADER, IMPORTED_HEADER, RAW_WINDOW_HEADER, REASON_HEADER } from '../../src/core/answer-headers.js';
import { fill, pageLocale } from './i18n.js';
import { frameText } from './text/frame.js';

/** A code of the server's catalogue, or the dashboard's own for no answer or one without the envelope. */
export type FailureCode = ErrorCode | 'NETWORK' | `HTTP_${number}`;

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: FailureCode,
    message: string,
    /** The refusal's reason in the server's catalogue; undefined for the dashboard's own failures (no answer, no envelope). */
    readonly reason?: ErrorReason,
  ) {
    super(message);
  }

  /** The same failure, said in other words. */
  withMessage(message: string): ApiError {
    return new ApiError(this.status, this.code, message, this.reason);
  }
}

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RequestOptions {
  /**
   * Set on the requests made before a session or a shared link's access exists (sign-in, setup,
   * opening the link): a 401 is then the answer to show, not a sign that the session ended (which
   * sends the browser to sign in again), and no `x-share-access` goes with it.
   */
  anonymous?: boolean;
}

let csrfToken = '';
/** A shared link's access token: the page's reads go with it instead of a session. */
let shareAccess: string | undefined;
/**
 * Opens the shared link again when `failure` says its access ended (after 12 hours): true when
 * `shareAccess` is new, false when the failure is another one (or the page asks the password).
 */
let renewShareAccess: ((failure: ApiError) => Promise<boolean>) | undefined;
/** The renewal under way: reads that fail together open the link once. */
let renewing: Promise<boolean> | undefined;

/**
 * The headers that say more of a read's figures than its body (src/core/answers.ts): whether
 * they include imported days (what the dashboard's note says), from which day goals and funnel
 * versions are counted (their `Counted since` label), and whether a filtered read was clipped to
 * the raw window (the dashboard's notice).
 */
const FIGURE_HEADERS = [IMPORTED_HEADER, COUNTED_SINCE_HEADER, RAW_WINDOW_HEADER] as const;
export type FigureHeader = (typeof FIGURE_HEADERS)[number];
export type FigureHeaders = Readonly<Partial<Record<FigureHeader, string>>>;

/** A read's body with the figure headers of the same answer: reads of one path side by side keep their own. */
export interface Answer<T> {
  body: T;
  figures: FigureHeaders;
}

const figureHeadersOf = (headers: Headers): FigureHeaders =>
  Object.fromEntries(FIGURE_HEADERS.flatMap((name) => {
    const value = headers.get(name);
    return value === null ? [] : [[name, value] as const];
  }));

/** Remembers the session's token, sent as `x-csrf-token` on every request that changes something. */
export function setCsrfToken(token: string): void {
  csrfToken = token;
}

/**
 * Makes every read of the page a shared link's (the `x-share-access` header), never a session's;
 * a read refused by `renew`'s judgement is sent once more with the access it makes.
 */
export function setShareAccess(access: string, renew?: (failure: ApiError) => Promise<boolean>): void {
  shareAccess = access;
  renewShareAccess = renew;
}

/** Whether a read sent with `sentAccess` and refused with `failure` goes again, with a newer access. */
async function renewedShareAccess(sentAccess: string, failure: ApiError): Promise<boolean> {
  if (shareAccess !== sentAccess) return true;
  if (!renewShareAccess) return false;
  renewing ??= renewShareAccess(failure).finally(() => {
    renewing = undefined;
  });
  return renewing;
}

/** The headers of every request: JSON back, and the server's messages in the page's language. */
const baseHeaders = (): Record<string, string> => ({ accept: 'application/json', 'accept-language': pageLocale() });

async function errorOf(response: Response): Promise<ApiError> {
  try {
    const body = (await response.json()) as { error?: { code?: unknown; message?: unknown } };
    const { code, message } = body.error ?? {};
    // The reason comes in a header, also on the read routes whose envelope is /v1's (no reason in
    // it); the code and the reason are the catalogue's: the server builds every refusal from it.
    const reason = response.headers.get(REASON_HEADER);
    if (typeof code === 'string' && reason !== null && typeof message === 'string') {
      return new ApiError(response.status, code as ErrorCode, message, reason as ErrorReason);
    }
  } catch {
    // Not the error envelope (a proxy's page, a cut answer): described by its status below.
  }
  return new ApiError(response.status, `HTTP_${response.status}`, fill(frameText.httpError, { status: `${response.status} ${response.statusText}` }));
}

export async function api<T = unknown>(method: Method, path: string, body?: unknown, options: RequestOptions = {}): Promise<T> {
  const response = await exchange(method, path, body, options);
  return response.status === 204 ? (undefined as T) : ((await response.json()) as T);
}

/** GET /app/v1<path>: its body with its figure headers. */
export async function read<T>(path: string): Promise<Answer<T>> {
  const response = await exchange('GET', path, undefined, {});
  return { body: (await response.json()) as T, figures: figureHeadersOf(response.headers) };
}

/** The successful answer to a request; a failure as an ApiError. */
async function exchange(method: Method, path: string, body: unknown, options: RequestOptions): Promise<Response> {
  const access = options.anonymous ? undefined : shareAccess;
  try {
    return await send(method, path, body, options, access);
  } catch (failure) {
    // A shared link's access ends after 12 hours while its page stays open: the read goes once more
    // with a new one when the page could open the link again.
    if (access === undefined || !(failure instanceof ApiError) || failure.status !== 404 || !(await renewedShareAccess(access, failure))) throw failure;
    return send(method, path, body, options, shareAccess);
  }
}

async function send(method: Method, path: string, body: unknown, options: RequestOptions, access: string | undefined): Promise<Response> {
  const headers = baseHeaders();
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (method !== 'GET') headers['x-csrf-token'] = csrfToken;
  if (access !== undefined) headers['x-share-access'] = access;
  let response: Response;
  try {
    response = await fetch(`/app/v1${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: 'same-origin',
    });
  } catch {
    throw new ApiError(0, 'NETWORK', frameText.networkError);
  }
  if (response.status === 401 && !options.anonymous && access === undefined) {
    window.location.assign(loginPath(window.location.pathname + window.location.search, window.location.origin));
  }
  if (!response.ok) throw await errorOf(response);
  return response;
}

/** Sends a file as the raw body of a POST (an import), with the session's CSRF token; JSON back. */
export async function upload<T = unknown>(path: string, file: Blob): Promise<T> {
  let response: Response;
  try {
    response = await fetch(`/app/v1${path}`, {
      method: 'POST',
      headers: { ...baseHeaders(), 'content-type': file.type || 'application/octet-stream', 'x-csrf-token': csrfToken },
      body: file,
      credentials: 'same-origin',
    });
  } catch {
    throw new ApiError(0, 'NETWORK', frameText.networkError);
  }
  if (!response.ok) throw await errorOf(response);
  return (await response.json()) as T;
}

/** A message for any failure: the server's own words for an ApiError. */
export function messageOf(error: unknown): string {
  // No answer: said when shown, in the page's language then (a read started before the page's
  // catalogue loaded fails in English otherwise).
  if (error instanceof ApiError) return error.code === 'NETWORK' ? frameText.networkError : error.message;
  return error instanceof Error ? error.message : String(error);
}
