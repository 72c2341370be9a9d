// A page of a few sentences the server writes itself, without the dashboard's scripts: the unsubscribe
// link's pages, the confirm-email link's, and /setup once set-up is done. Nothing in it loads
// anything. Its words are the request's language's (plainPageWords), so `<html lang>` says which.
import { createHash } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import { escapeHtml } from '../core/html.js';
import { fill, type Language } from '../core/messages/language.js';

/** The page's own few rules (the dashboard's font, width and colours, light and dark), allowed by their hash alone. */
const STYLE =
  'body{margin:0;font:16px/1.5 system-ui,sans-serif;background:#f6f6f7;color:#1b1b1f}main{max-width:34rem;margin:4rem auto;padding:1.5rem;background:#fff;border:1px solid #dcdce0;border-radius:8px}h1{font-size:1.4rem;margin:0 0 .75rem}a{color:#2d5bd3}@media (prefers-color-scheme:dark){body{background:#141417;color:#e8e8ec}main{background:#1d1d22;border-color:#34343c}a{color:#8fb0ff}}';
const STYLE_HASH = createHash('sha256').update(STYLE).digest('base64');

const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'content-security-policy': `default-src 'none'; style-src 'sha256-${STYLE_HASH}'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'`,
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
} as const;

/**
 * A catalogue entry as HTML: its text escaped, then its `{name}` placeholders filled with `markup`,
 * HTML the caller wrote (a link, or a value it escaped itself).
 */
export function entryHtml(template: string, markup: Readonly<Record<string, string>> = {}): string {
  return fill(escapeHtml(template), markup);
}

/** Sends a page in `language` titled `title` whose main content is `body` (HTML the caller wrote, never a client's text). */
export function plainPage(reply: FastifyReply, status: number, language: Language, title: string, body: string): FastifyReply {
  const heading = escapeHtml(title);
  return reply
    .code(status)
    .headers(PAGE_HEADERS)
    .send(
      `<!doctype html><html lang="${language}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="color-scheme" content="light dark"><title>${heading} · svc</title><style>${STYLE}</style></head><body><main><h1>${heading}</h1>${body}</main></body></html>`,
    );
}
