// GET /js/t.js: the browser tracker, loaded once at startup and served from memory with a strong
// ETag and gzip / brotli variants compressed ahead of time (the script is the hottest asset we serve).
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';

interface TrackerAsset {
  identity: Buffer;
  gzip: Buffer;
  brotli: Buffer;
  etag: string;
}

// Compiled, this module is dist/http/tracker.js and the build wrote dist/tracker/t.js next door.
// Run from src through tsx (tests, development), the source sits next door instead: build it in
// memory with the same bundler settings as the build, so the served script never lags the source.
async function loadTrackerCode(): Promise<string> {
  const source = new URL('../tracker/script.ts', import.meta.url);
  if (!existsSync(source)) return readFileSync(new URL('../tracker/t.js', import.meta.url), 'utf8');
  const buildScript = new URL('../../scripts/build-tracker.mjs', import.meta.url).href;
  const { bundleTracker } = (await import(buildScript)) as { bundleTracker: () => Promise<string> };
  return bundleTracker();
}

let assetOnce: Promise<TrackerAsset> | undefined;

function loadTrackerAsset(): Promise<TrackerAsset> {
  assetOnce ??= loadTrackerCode().then((code) => {
    const identity = Buffer.from(code);
    return {
      identity,
      gzip: gzipSync(identity, { level: 9 }),
      brotli: brotliCompressSync(identity, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
      etag: `"${createHash('sha256').update(identity).digest('base64url').slice(0, 27)}"`,
    };
  });
  return assetOnce;
}

/** Encodings the client accepts, ignoring those it refuses with q=0. */
function acceptedEncodings(header: string | undefined): Set<string> {
  const accepted = new Set<string>();
  for (const part of (header ?? '').split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    const refused = params.some((param) => /^\s*q\s*=\s*0(\.0*)?\s*$/.test(param));
    if (name && !refused) accepted.add(name);
  }
  return accepted;
}

/** If-None-Match matches when it lists our ETag (weak or strong form) or is `*`. */
function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((tag) => {
    const trimmed = tag.trim();
    return trimmed === '*' || trimmed === etag || trimmed === `W/${etag}`;
  });
}

export async function trackerRoutes(app: FastifyInstance): Promise<void> {
  const asset = await loadTrackerAsset();

  app.get('/js/t.js', async (request, reply) => {
    reply
      .header('content-type', 'text/javascript; charset=utf-8')
      .header('cache-control', 'public, max-age=86400, stale-while-revalidate=604800')
      .header('etag', asset.etag)
      .header('vary', 'accept-encoding');
    if (matchesEtag(request.headers['if-none-match'], asset.etag)) return reply.code(304).send();
    const accepted = acceptedEncodings(request.headers['accept-encoding']);
    if (accepted.has('br')) return reply.header('content-encoding', 'br').send(asset.brotli);
    if (accepted.has('gzip')) return reply.header('content-encoding', 'gzip').send(asset.gzip);
    return reply.send(asset.identity);
  });
}
