// A page of a few sentences the server writes itself, without the dashboard's scripts: the unsubscribe
// link's pages, and /setup once set-up is done. Nothing in it loads anything.
import type { FastifyReply } from 'fastify';
import { escapeHtml } from '../core/html.js';

const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'content-security-policy': "default-src 'none'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
} as const;

/** Sends a page titled `title` whose main content is `body` (HTML the caller wrote, never a client's text). */
export function plainPage(reply: FastifyReply, status: number, title: string, body: string): FastifyReply {
  const heading = escapeHtml(title);
  return reply
    .code(status)
    .headers(PAGE_HEADERS)
    .send(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="color-scheme" content="light dark"><title>${heading} · svc</title></head><body><main><h1>${heading}</h1>${body}</main></body></html>`,
    );
}
