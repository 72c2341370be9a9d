// The accounts' HTTP plumbing: the session cookie, the client address, the service's own origin, and
// `sessionUser(request)` for any route that needs the signed-in user (the dashboard's pages, /app/v1).
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../config.js';
import { apiError } from '../../core/errors.js';
import { normalizeIp } from '../../ingest/ip.js';
import type { AccountService, SignedIn } from '../../accounts/service.js';
import { SESSION_LIFETIME_MS } from '../../accounts/sessions.js';

export const SESSION_COOKIE = 'svc_session';

declare module 'fastify' {
  interface FastifyInstance {
    /** Set once on the root instance by buildApp. */
    accounts: AccountService;
  }
}

/** One cookie's value from a Cookie header, or undefined. */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq !== -1 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/** Whether the connecting peer is a reverse proxy declared in SVC_TRUSTED_PROXIES. */
function fromTrustedProxy(request: FastifyRequest, config: Config): boolean {
  const peer = normalizeIp(request.socket.remoteAddress);
  return peer !== null && config.trustedProxies.some((proxy) => normalizeIp(proxy) === peer);
}

/** The last value of a header a trusted proxy appends to (its own is the last). */
function lastForwarded(value: string | string[] | undefined): string | undefined {
  return (Array.isArray(value) ? value.join(',') : value ?? '').split(',').pop()?.trim();
}

/**
 * The scheme the browser used: https over TLS, or when a proxy declared in SVC_TRUSTED_PROXIES says
 * so in X-Forwarded-Proto. From any other peer the header is ignored: a client could send anything.
 */
function browserScheme(request: FastifyRequest, config: Config): 'http' | 'https' {
  if (request.protocol === 'https') return 'https';
  return fromTrustedProxy(request, config) && lastForwarded(request.headers['x-forwarded-proto'])?.toLowerCase() === 'https' ? 'https' : 'http';
}

/** Whether cookies must be Secure: the browser reached the service over HTTPS, or the public URL is https. */
function secureCookies(request: FastifyRequest, config: Config): boolean {
  return browserScheme(request, config) === 'https' || (config.publicUrl?.startsWith('https:') ?? false);
}

/** Sets an HttpOnly, SameSite=Lax cookie of the service (Secure where secureCookies says). */
export function setCookie(reply: FastifyReply, config: Config, cookie: { name: string; value: string; path: string; maxAgeS: number }): void {
  const secure = secureCookies(reply.request, config) ? '; Secure' : '';
  reply.header('set-cookie', `${cookie.name}=${cookie.value}; Path=${cookie.path}; HttpOnly; SameSite=Lax; Max-Age=${cookie.maxAgeS}${secure}`);
}

/** The cookie lives as long as the session may (its absolute lifetime); the server ends an idle one sooner. */
export function setSessionCookie(reply: FastifyReply, config: Config, secret: string): void {
  setCookie(reply, config, { name: SESSION_COOKIE, value: secret, path: '/', maxAgeS: SESSION_LIFETIME_MS / 1000 });
}

export function clearSessionCookie(reply: FastifyReply, config: Config): void {
  setCookie(reply, config, { name: SESSION_COOKIE, value: '', path: '/', maxAgeS: 0 });
}

/** The value of the request's cookie `name`, or undefined. */
export function requestCookie(request: FastifyRequest, name: string): string | undefined {
  const cookie = request.headers.cookie;
  return cookieValue(Array.isArray(cookie) ? cookie.join('; ') : cookie, name);
}

/**
 * The connecting client's address: the socket peer, or, when the peer is a proxy declared in
 * SVC_TRUSTED_PROXIES, the address that proxy appended last to X-Forwarded-For.
 */
export function clientAddress(request: FastifyRequest, config: Config): string {
  const peer = normalizeIp(request.socket.remoteAddress) ?? 'unknown';
  if (!fromTrustedProxy(request, config)) return peer;
  return normalizeIp(lastForwarded(request.headers['x-forwarded-for'])) ?? peer;
}

/** The origin browsers use for the service: the public URL's, else the request's own (scheme as the browser used it, and Host). */
export function ownOrigin(request: FastifyRequest, config: Config): string {
  return config.publicUrl ? new URL(config.publicUrl).origin : requestBase(request, config);
}

/** The address this request reached, as the browser sees it (scheme from a trusted proxy). */
const requestBase = (request: FastifyRequest, config: Config) => `${browserScheme(request, config)}://${request.host}`;

/** Where every link svc hands out starts: SVC_PUBLIC_URL (path included), else the address this request reached. */
export function publicBase(request: FastifyRequest, config: Config): string {
  return config.publicUrl ?? requestBase(request, config);
}

/** The signed-in user and session of a request (looked up once per request), or undefined. */
export function sessionUser(request: FastifyRequest): Promise<SignedIn | undefined> {
  request.signedIn ??= request.server.accounts.resume(requestCookie(request, SESSION_COOKIE));
  return request.signedIn;
}

/** The signed-in user and session, or 401. */
export async function requireSession(request: FastifyRequest): Promise<SignedIn> {
  const signedIn = await sessionUser(request);
  if (!signedIn) throw apiError('UNAUTHORIZED', 'credentials');
  return signedIn;
}
