// The two Google endpoints the GA4 import calls (docs/imports.md, "Google Analytics 4"): the OAuth
// 2.0 token endpoint, given an assertion signed with the service account's key (the JWT bearer grant
// of RFC 7523), and the Data API's runReport. Node's own https module, a bounded answer, a timeout;
// quota, rate and availability refusals (429, RESOURCE_EXHAUSTED, 5xx, UNAVAILABLE) are tried again
// after waits that double, and reported with Google's words when they persist; any other refusal
// ends the job at once with Google's reason.
import { sign } from 'node:crypto';
import { request } from 'node:https';
import { setTimeout as sleep } from 'node:timers/promises';
import { ImportRefused } from '../plausible-import.js';
import type { ServiceAccountKey } from './key.js';

export const ANALYTICS_READONLY_SCOPE = 'https://www.googleapis.com/auth/analytics.readonly';
export const JWT_BEARER_GRANT = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

export interface GoogleClientOptions {
  tokenUrl: string;
  dataUrl: string;
  /** A CA to trust besides Node's store (the tests' stand-in); otherwise Node's store and NODE_EXTRA_CA_CERTS. */
  ca?: string;
  /** The wait before the first retry of a call, doubled before each next one (1 s). */
  retryBaseMs?: number;
  /** Ends the calls under way and the waits between them, with the signal's reason. */
  signal: AbortSignal;
  /** Called before each try of a call: the job's sign of life while Google keeps it waiting (it may throw to stop). */
  beat?: () => void;
  now?: () => number;
}

/** Tries of one call: with the default base, waits of 1, 2, 4, 8, 16 and 32 s between them (about a minute). */
export const GOOGLE_ATTEMPTS = 7;
const DEFAULT_RETRY_BASE_MS = 1_000;
/** The longest wait before a retry, whatever Google's Retry-After asks. */
const MAX_WAIT_MS = 60_000;
/** A call that sends nothing back for this long is given up (and tried again). */
const IDLE_TIMEOUT_MS = 120_000;
/** The largest answer read: a page of 10 000 report rows is a few megabytes. */
const MAX_ANSWER_BYTES = 64 * 1024 * 1024;
/** The longest lifetime Google takes for an assertion. */
const ASSERTION_LIFETIME_S = 3600;
/** A token is renewed this long before Google says it expires. */
const TOKEN_MARGIN_MS = 5 * 60_000;
/** The most of Google's message an error repeats. */
const MESSAGE_CHARS = 300;

const RETRIED_STATUSES = new Set([429, 500, 502, 503, 504]);
const RETRIED_WORDS = new Set(['RESOURCE_EXHAUSTED', 'UNAVAILABLE']);

interface Answer {
  status: number;
  /** The parsed JSON; the text when it is not JSON. */
  body: unknown;
  retryAfterMs: number | null;
}

/** The assertion of the JWT bearer grant: the key's account asks for read access to Analytics, for `audience` (the token URL). */
export function signedAssertion(key: ServiceAccountKey, audience: string, nowMs: number): string {
  const iat = Math.floor(nowMs / 1000);
  const header = { alg: 'RS256', typ: 'JWT', ...(key.keyId === null ? {} : { kid: key.keyId }) };
  const claims = { iss: key.clientEmail, scope: ANALYTICS_READONLY_SCOPE, aud: audience, iat, exp: iat + ASSERTION_LIFETIME_S };
  const input = `${Buffer.from(JSON.stringify(header)).toString('base64url')}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}`;
  return `${input}.${sign('sha256', Buffer.from(input), key.privateKey).toString('base64url')}`;
}

/** Google's word and message in a refusal: `{error: {status, message}}` of its APIs, `{error, error_description}` of its token endpoint. */
function refusalOf(answer: Answer): { word: string; message: string } {
  const body = answer.body;
  if (typeof body === 'object' && body !== null && 'error' in body) {
    const error = (body as { error: unknown; error_description?: unknown }).error;
    if (typeof error === 'object' && error !== null) {
      const { status, message } = error as { status?: unknown; message?: unknown };
      return { word: typeof status === 'string' ? status : '', message: typeof message === 'string' ? message.slice(0, MESSAGE_CHARS) : '' };
    }
    const description = (body as { error_description?: unknown }).error_description;
    return { word: typeof error === 'string' ? error : '', message: typeof description === 'string' ? description.slice(0, MESSAGE_CHARS) : '' };
  }
  return { word: '', message: typeof body === 'string' ? body.replace(/\s+/g, ' ').trim().slice(0, MESSAGE_CHARS) : '' };
}

/** `429 RESOURCE_EXHAUSTED: Exhausted property tokens per hour` */
function said(answer: Answer): string {
  const { word, message } = refusalOf(answer);
  return [`${answer.status}${word ? ` ${word}` : ''}`, message].filter((part) => part !== '').join(': ');
}

function retried(answer: Answer): boolean {
  return RETRIED_STATUSES.has(answer.status) || RETRIED_WORDS.has(refusalOf(answer).word);
}

/** One POST and its whole answer (bounded); rejects on a network error, a timeout, or the signal. */
function post(url: string, contentType: string, body: string, bearer: string | null, ca: string | undefined, signal: AbortSignal): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { 'content-type': contentType, 'content-length': String(Buffer.byteLength(body)), accept: 'application/json', 'user-agent': 'svc-ga4-import/1' };
    if (bearer !== null) headers.authorization = `Bearer ${bearer}`;
    const outgoing = request(url, { method: 'POST', headers, ca, signal, timeout: IDLE_TIMEOUT_MS }, (answer) => {
      const chunks: Buffer[] = [];
      let size = 0;
      answer.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_ANSWER_BYTES) outgoing.destroy(new Error(`an answer over ${MAX_ANSWER_BYTES} bytes`));
        else chunks.push(chunk);
      });
      answer.on('error', (err) => reject(signal.aborted ? signal.reason : err));
      answer.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let parsed: unknown = text;
        try {
          parsed = JSON.parse(text);
        } catch {
          // Not JSON (a proxy's page): its text is Google's message.
        }
        const retryAfter = /^\d{1,6}$/.exec(String(answer.headers['retry-after'] ?? ''));
        resolve({ status: answer.statusCode ?? 502, body: parsed, retryAfterMs: retryAfter ? Number(retryAfter[0]) * 1000 : null });
      });
    });
    outgoing.on('timeout', () => outgoing.destroy(new Error(`no answer for ${IDLE_TIMEOUT_MS / 1000} s`)));
    outgoing.on('error', (err) => reject(signal.aborted ? signal.reason : err));
    outgoing.end(body);
  });
}

/** A client of one service account's key: its access token, renewed before it expires, and its reports. */
export class GoogleClient {
  private token: { value: string; until: number } | null = null;
  private readonly now: () => number;

  constructor(
    private readonly key: ServiceAccountKey,
    private readonly options: GoogleClientOptions,
  ) {
    this.now = options.now ?? Date.now;
  }

  /** One page of a report of GA4 property `property` (its answer as JSON). */
  async runReport(property: string, body: object): Promise<unknown> {
    const url = `${this.options.dataUrl}/v1beta/properties/${property}:runReport`;
    for (let renewed = false; ; renewed = true) {
      const answer = await this.call(url, 'application/json', JSON.stringify(body), await this.accessToken(), "Google's Data API");
      if (answer.status >= 200 && answer.status < 300) return answer.body;
      // A token that expired early (or was revoked) is renewed once.
      if (answer.status === 401 && !renewed) {
        this.token = null;
        continue;
      }
      if (answer.status === 403) {
        throw new ImportRefused(
          `Google denied access to GA4 property ${property} (${said(answer)}): add ${this.key.clientEmail} as a Viewer of the property (Admin, Property access management) and check the property id`,
        );
      }
      throw new ImportRefused(`Google's Data API refused a report of GA4 property ${property} (${said(answer)})`);
    }
  }

  private async accessToken(): Promise<string> {
    const now = this.now();
    if (this.token !== null && now < this.token.until) return this.token.value;
    const form = new URLSearchParams({ grant_type: JWT_BEARER_GRANT, assertion: signedAssertion(this.key, this.options.tokenUrl, now) });
    const answer = await this.call(this.options.tokenUrl, 'application/x-www-form-urlencoded', form.toString(), null, "Google's token endpoint");
    if (answer.status !== 200) {
      throw new ImportRefused(`Google's token endpoint refused the service account key of ${this.key.clientEmail} (${said(answer)}): the key may be deleted or disabled, or the clock of this server wrong`);
    }
    const { access_token: value, expires_in: lifetimeS } = (answer.body ?? {}) as { access_token?: unknown; expires_in?: unknown };
    if (typeof value !== 'string' || value === '' || value.length > 4096) throw new ImportRefused("Google's token endpoint answered without an access token");
    const lifetimeMs = (typeof lifetimeS === 'number' && lifetimeS > 0 ? lifetimeS : ASSERTION_LIFETIME_S) * 1000;
    this.token = { value, until: now + lifetimeMs - TOKEN_MARGIN_MS };
    return value;
  }

  /** A POST, tried again after a quota, rate or availability refusal or a network error, up to GOOGLE_ATTEMPTS times. */
  private async call(url: string, contentType: string, body: string, bearer: string | null, what: string): Promise<Answer> {
    const { signal, ca } = this.options;
    const base = this.options.retryBaseMs ?? DEFAULT_RETRY_BASE_MS;
    const started = this.now();
    let last = '';
    let reached = true;
    for (let attempt = 0; attempt < GOOGLE_ATTEMPTS; attempt++) {
      this.options.beat?.();
      let retryAfterMs: number | null = null;
      try {
        const answer = await post(url, contentType, body, bearer, ca, signal);
        if (!retried(answer)) return answer;
        last = said(answer);
        reached = true;
        retryAfterMs = answer.retryAfterMs;
      } catch (err) {
        if (signal.aborted) throw signal.reason;
        last = `${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`;
        reached = false;
      }
      if (attempt === GOOGLE_ATTEMPTS - 1) break;
      const wait = Math.min(retryAfterMs ?? base * 2 ** attempt, MAX_WAIT_MS);
      try {
        await sleep(wait, undefined, { signal });
      } catch (err) {
        throw signal.aborted ? signal.reason : err;
      }
    }
    const tries = `after ${GOOGLE_ATTEMPTS} tries over ${Math.round((this.now() - started) / 1000)} s`;
    throw new ImportRefused(
      reached
        ? `${what} kept refusing for quota, rate or availability (${last}) ${tries}: start the import again later (a GA4 property's quota renews every hour and every day)`
        : `${what} could not be reached at ${new URL(url).origin} (${last}) ${tries}`,
    );
  }
}
