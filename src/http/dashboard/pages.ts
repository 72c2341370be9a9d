// The dashboard's HTML pages: one small shell per page that loads the page's hashed script and
// stylesheet. The pages themselves read everything through /app/v1.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { loginPath } from '../../core/next-path.js';
import type { PageEntry, WebBuild } from './assets.js';
import { escapeHtml } from '../../core/html.js';
import { entryHtml, plainPage } from '../plain-page.js';
import { requestLanguage } from '../request-language.js';
import { plainPageWords } from '../../core/messages/server.js';
import { SESSION_PATH, sitePath, SITES_PATH } from '../../core/app-paths.js';
import { dashboardReads } from '../../core/dashboard-reads.js';

export interface PageRoute {
  path: string;
  /** The module under web/pages/ (without .tsx). */
  page: string;
  /** The title shown until the page sets its own. */
  title: string;
  /** An anonymous browser is sent to /login?next=<this address>. */
  signedIn: boolean;
  /** A shared link's page (`:token`): served only for a live link, framed only where the link allows. */
  sharedLink?: boolean;
  /**
   * What the page reads first from /app/v1 besides the session (paths after the prefix), from its
   * address: a signed-in page's shell names them, and the session, as preloads.
   */
  reads?(params: Record<string, string>, search: string): string[];
}

/** A site's page reads the sites the user sees (which one it is, its name and zone). */
const siteReads = () => [SITES_PATH];

/** Every page of the dashboard; a page whose module is not in the build is not served. */
export const PAGE_ROUTES: PageRoute[] = [
  { path: '/', page: 'home', title: 'Sites', signedIn: true },
  { path: '/login', page: 'login', title: 'Sign in', signedIn: false },
  { path: '/setup', page: 'setup', title: 'Set up svc', signedIn: false },
  // Signed out, the page offers to sign in or to create the invited email's account.
  { path: '/invitations/:token', page: 'invitation', title: 'Invitation', signedIn: false },
  { path: '/account', page: 'account', title: 'Account', signedIn: true },
  { path: '/account/security', page: 'account-security', title: 'Security', signedIn: true },
  { path: '/orgs/:orgId/settings', page: 'org-settings', title: 'Organisation settings', signedIn: true },
  // The token is a secret in the address: no Referer leaves the page, the log shows `[secret]`.
  { path: '/share/:token', page: 'share', title: 'Shared dashboard', signedIn: false, sharedLink: true },
  {
    path: '/sites/:siteId',
    page: 'site',
    title: 'Site',
    signedIn: true,
    // Every figure of the view in the address: the answers start while the browser loads the script.
    reads: (params, search) => [...siteReads(), ...dashboardReads(search).map((read) => sitePath(params.siteId!, read))],
  },
  { path: '/sites/:siteId/realtime', page: 'realtime', title: 'Realtime', signedIn: true, reads: siteReads },
  { path: '/sites/:siteId/journeys', page: 'journeys', title: 'Journeys', signedIn: true, reads: siteReads },
  { path: '/sites/:siteId/goals', page: 'goals', title: 'Goals', signedIn: true, reads: siteReads },
  { path: '/sites/:siteId/funnels/:funnelId', page: 'funnel', title: 'Funnel', signedIn: true, reads: siteReads },
  { path: '/sites/:siteId/settings', page: 'site-settings', title: 'Site settings', signedIn: true },
];

// No inline script or style anywhere: scripts and stylesheets come from /assets only. Framing is
// refused but for a shared link's embed, on the domains its admin listed.
const contentSecurityPolicy = (frameAncestors: readonly string[] = []) =>
  [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "form-action 'self'",
    "base-uri 'none'",
    `frame-ancestors ${frameAncestors.length > 0 ? frameAncestors.join(' ') : "'none'"}`,
  ].join('; ');

export interface PageOptions {
  /** Whether the request carries a valid session. */
  signedIn(request: FastifyRequest): Promise<boolean>;
  /** Whether no user exists yet (`/setup` answers 404 otherwise). */
  setupNeeded(): Promise<boolean>;
  /** The service's own origin, as browsers reach it (what `next` may point into). */
  ownOrigin(request: FastifyRequest): string;
  /** The domains that may frame a shared link's page; throws 404 for a revoked, expired or unknown link. */
  sharedLinkEmbedDomains(token: string): Promise<string[]>;
}

/**
 * The shell of a page: its stylesheet, scripts and icon, and `reads` (paths under /app/v1) as
 * preloads after them. A preload with `crossorigin` is the request the page's own `fetch` makes
 * (same address, credentials of the same origin): the browser hands the page that answer.
 */
export function pageShell(title: string, entry: PageEntry, reads: readonly string[] = []): string {
  const asset = (name: string) => `/assets/${encodeURIComponent(name)}`;
  return [
    '<!doctype html><html lang="en"><head><meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="color-scheme" content="light dark">',
    `<title>${escapeHtml(title)} · svc</title>`,
    `<link rel="icon" type="image/svg+xml" href="${asset(entry.icon)}">`,
    ...entry.styles.map((name) => `<link rel="stylesheet" href="${asset(name)}">`),
    ...entry.preload.map((name) => `<link rel="modulepreload" href="${asset(name)}">`),
    `<script type="module" src="${asset(entry.script)}"></script>`,
    ...reads.map((path) => `<link rel="preload" as="fetch" crossorigin href="${escapeHtml(`/app/v1${path}`)}">`),
    '</head><body><div id="app"><p class="loading" role="status"><span class="spinner" aria-hidden="true"></span>Loading…</p></div>',
    '<noscript><p>The dashboard needs JavaScript.</p></noscript></body></html>',
  ].join('');
}

function sendHtml(reply: FastifyReply, html: string, options: { frameAncestors?: readonly string[]; referrerPolicy?: string } = {}): FastifyReply {
  return reply
    .header('content-type', 'text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .header('content-security-policy', contentSecurityPolicy(options.frameAncestors))
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', options.referrerPolicy ?? 'same-origin')
    .send(html);
}

export function pageRoutes(app: FastifyInstance, build: WebBuild, options: PageOptions): void {
  for (const route of PAGE_ROUTES) {
    const entry = build.manifest.pages[route.page];
    if (!entry) continue;
    const html = pageShell(route.title, entry);
    app.get(route.path, async (request, reply) => {
      // A browser that follows an old set-up link gets a page that leads on, not an API's error.
      if (route.page === 'setup' && !(await options.setupNeeded())) {
        const language = requestLanguage(request);
        const words = plainPageWords(language).setupDone;
        return plainPage(reply, 404, language, words.title, `<p>${entryHtml(words.body, { signIn: `<a href="/login">${entryHtml(words.signIn)}</a>` })}</p>`);
      }
      if (route.sharedLink) {
        const { token } = request.params as { token: string };
        const domains = await options.sharedLinkEmbedDomains(token);
        const embed = (request.query as Record<string, unknown>).embed === '1';
        // A shared page (its address holds the token) sends no Referer, not even to the service.
        return sendHtml(reply, html, { referrerPolicy: 'no-referrer', frameAncestors: embed ? domains.map((domain) => `https://${domain}`) : [] });
      }
      if (!route.signedIn) return sendHtml(reply, html);
      if (!(await options.signedIn(request))) {
        return reply.code(302).header('cache-control', 'no-store').header('location', loginPath(request.url, options.ownOrigin(request))).send();
      }
      const query = request.url.indexOf('?');
      const reads = route.reads?.(request.params as Record<string, string>, query === -1 ? '' : request.url.slice(query + 1)) ?? [];
      return sendHtml(reply, pageShell(route.title, entry, [SESSION_PATH, ...reads]));
    });
  }
}
