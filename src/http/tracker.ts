// GET /js/t.js: the browser tracker, and GET /js/v.js: the web vitals measurer it loads for
// data-vitals. Each is loaded once at startup and served from memory with a strong ETag and gzip /
// brotli variants compressed ahead of time (the tracker is the hottest asset we serve).
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { preferredEncoding } from './encodings.js';

interface Variant {
  body: Buffer;
  /** Strong ETags differ per content coding (RFC 9110 §8.8.3): `"<hash>"`, `"<hash>-gzip"`, `"<hash>-br"`. */
  etag: string;
  encoding?: 'gzip' | 'br';
}

interface TrackerAsset {
  identity: Variant;
  gzip: Variant;
  brotli: Variant;
}

/** The two scripts: their built file (dist/tracker/<file>) and the build's function that bundles the source. */
const SCRIPTS = { 't.js': 'bundleTracker', 'v.js': 'bundleVitals' } as const;
type ScriptFile = keyof typeof SCRIPTS;

// Compiled, this module is dist/http/tracker.js and the build wrote dist/tracker/<file> next door.
// Run from src through tsx (tests, development), the source sits next door instead: build it in
// memory with the same bundler settings as the build, so the served script never lags the source.
async function loadScriptCode(file: ScriptFile): Promise<string> {
  const source = new URL('../tracker/script.ts', import.meta.url);
  if (!existsSync(source)) return readFileSync(new URL(`../tracker/${file}`, import.meta.url), 'utf8');
  const buildScript = new URL('../../scripts/build-tracker.mjs', import.meta.url).href;
  const build = (await import(buildScript)) as Record<(typeof SCRIPTS)[ScriptFile], () => Promise<string>>;
  return build[SCRIPTS[file]]();
}

const assets = new Map<ScriptFile, Promise<TrackerAsset>>();

function loadScriptAsset(file: ScriptFile): Promise<TrackerAsset> {
  let asset = assets.get(file);
  if (!asset) {
    asset = loadScriptCode(file).then((code) => {
      const identity = Buffer.from(code);
      const hash = createHash('sha256').update(identity).digest('base64url').slice(0, 27);
      return {
        identity: { body: identity, etag: `"${hash}"` },
        gzip: { body: gzipSync(identity, { level: 9 }), etag: `"${hash}-gzip"`, encoding: 'gzip' },
        brotli: {
          body: brotliCompressSync(identity, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
          etag: `"${hash}-br"`,
          encoding: 'br',
        },
      };
    });
    assets.set(file, asset);
  }
  return asset;
}

/**
 * If-None-Match uses weak comparison (RFC 9110 §13.1.2): it matches when it lists the ETag of any
 * variant (they all decode to the same script), with or without W/, or is `*`.
 */
function matchesAnyVariant(header: string | undefined, asset: TrackerAsset): boolean {
  if (!header) return false;
  const etags = [asset.identity.etag, asset.gzip.etag, asset.brotli.etag];
  return header.split(',').some((tag) => {
    const trimmed = tag.trim().replace(/^W\//, '');
    return trimmed === '*' || etags.includes(trimmed);
  });
}

export async function trackerRoutes(app: FastifyInstance): Promise<void> {
  for (const file of Object.keys(SCRIPTS) as ScriptFile[]) {
    const asset = await loadScriptAsset(file);
    app.get(`/js/${file}`, async (request, reply) => {
      const encoding = preferredEncoding(request.headers['accept-encoding']);
      const variant = encoding === 'br' ? asset.brotli : encoding === 'gzip' ? asset.gzip : asset.identity;
      reply
        .header('content-type', 'text/javascript; charset=utf-8')
        .header('cache-control', 'public, max-age=86400, stale-while-revalidate=604800')
        .header('etag', variant.etag)
        .header('vary', 'accept-encoding');
      if (matchesAnyVariant(request.headers['if-none-match'], asset)) return reply.code(304).send();
      if (variant.encoding) reply.header('content-encoding', variant.encoding);
      return reply.send(variant.body);
    });
  }
}
