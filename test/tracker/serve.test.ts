// GET /js/t.js through Fastify: cache headers, strong ETag and 304, pre-compressed variants.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { transform } from 'esbuild';
import Fastify, { type FastifyInstance } from 'fastify';
import { trackerRoutes } from '../../src/http/tracker.js';
import { trackerCode } from './harness.js';

describe('GET /js/t.js', () => {
  let app: FastifyInstance;
  let code: string;

  before(async () => {
    app = Fastify();
    await app.register(trackerRoutes);
    code = await trackerCode();
  });
  after(() => app.close());

  it('serves the built tracker with its content type, cache policy, strong ETag and vary', async () => {
    const response = await app.inject({ url: '/js/t.js' });
    assert.equal(response.statusCode, 200);
    assert.equal(response.body, code);
    assert.equal(response.headers['content-type'], 'text/javascript; charset=utf-8');
    assert.equal(response.headers['cache-control'], 'public, max-age=86400, stale-while-revalidate=604800');
    assert.match(String(response.headers.etag), /^"[A-Za-z0-9_-]{16,}"$/);
    assert.equal(response.headers.vary, 'accept-encoding');
    assert.equal(response.headers['content-encoding'], undefined);
    assert.equal(Number(response.headers['content-length']), Buffer.byteLength(code));
  });

  it('serves the web vitals measurer at /js/v.js, which the tracker loads beside itself for data-vitals', async () => {
    const response = await app.inject({ url: '/js/v.js', headers: { 'accept-encoding': 'gzip' } });
    assert.equal(response.statusCode, 200);
    assert.equal(response.headers['content-type'], 'text/javascript; charset=utf-8');
    assert.equal(response.headers['content-encoding'], 'gzip');
    assert.match(gunzipSync(response.rawPayload).toString(), /PerformanceObserver/);
    assert.notEqual(response.headers.etag, (await app.inject({ url: '/js/t.js', headers: { 'accept-encoding': 'gzip' } })).headers.etag);
  });

  it('answers 304 without a body when If-None-Match holds an ETag of the script (alone, weak, in a list, or *)', async () => {
    const { etag } = (await app.inject({ url: '/js/t.js' })).headers;
    const gzipEtag = (await app.inject({ url: '/js/t.js', headers: { 'accept-encoding': 'gzip' } })).headers.etag;
    for (const ifNoneMatch of [String(etag), `W/${etag}`, `"other", ${etag}`, '*', String(gzipEtag)]) {
      const response = await app.inject({ url: '/js/t.js', headers: { 'if-none-match': ifNoneMatch } });
      assert.equal(response.statusCode, 304, ifNoneMatch);
      assert.equal(response.body, '');
      assert.equal(response.headers.etag, etag);
      assert.equal(response.headers['cache-control'], 'public, max-age=86400, stale-while-revalidate=604800');
    }
    const stale = await app.inject({ url: '/js/t.js', headers: { 'if-none-match': '"an-older-version"' } });
    assert.equal(stale.statusCode, 200);
    assert.equal(stale.body, code);
  });

  it('sends brotli when accepted, else gzip, else identity, each with its own strong ETag', async () => {
    const plain = await app.inject({ url: '/js/t.js' });
    const br = await app.inject({ url: '/js/t.js', headers: { 'accept-encoding': 'gzip, deflate, br, zstd' } });
    assert.equal(br.headers['content-encoding'], 'br');
    assert.equal(brotliDecompressSync(br.rawPayload).toString(), code);
    assert.ok(br.rawPayload.length < Buffer.byteLength(code) / 1.5);

    const gzip = await app.inject({ url: '/js/t.js', headers: { 'accept-encoding': 'gzip, deflate' } });
    assert.equal(gzip.headers['content-encoding'], 'gzip');
    assert.equal(gunzipSync(gzip.rawPayload).toString(), code);

    const refused = await app.inject({ url: '/js/t.js', headers: { 'accept-encoding': 'br;q=0, gzip;q=0.5' } });
    assert.equal(refused.headers['content-encoding'], 'gzip');
    const identity = await app.inject({ url: '/js/t.js', headers: { 'accept-encoding': 'identity' } });
    assert.equal(identity.headers['content-encoding'], undefined);
    assert.equal(identity.body, code);

    assert.equal(identity.headers.etag, plain.headers.etag);
    assert.equal(br.headers.etag, String(plain.headers.etag).replace(/"$/, '-br"'));
    assert.equal(gzip.headers.etag, String(plain.headers.etag).replace(/"$/, '-gzip"'));
  });

  it('answers HEAD with the headers and no body', async () => {
    const response = await app.inject({ method: 'HEAD', url: '/js/t.js' });
    assert.equal(response.statusCode, 200);
    assert.equal(response.body, '');
    assert.equal(response.headers['content-type'], 'text/javascript; charset=utf-8');
  });

  it('compiled (dist/http/tracker.js), reads the built dist/tracker/t.js and v.js next door', async () => {
    // The layout tsc and the tracker build produce, with a marker script instead of the real one.
    const dist = mkdtempSync(join(tmpdir(), 'svc-dist-'));
    try {
      mkdirSync(join(dist, 'http'));
      mkdirSync(join(dist, 'tracker'));
      for (const name of ['tracker', 'encodings']) {
        const source = readFileSync(new URL(`../../src/http/${name}.ts`, import.meta.url), 'utf8');
        const compiled = await transform(source, { loader: 'ts', format: 'esm' });
        writeFileSync(join(dist, `http/${name}.js`), compiled.code);
      }
      writeFileSync(join(dist, 'tracker/t.js'), 'console.log("built")');
      writeFileSync(join(dist, 'tracker/v.js'), 'console.log("vitals")');
      const module = (await import(pathToFileURL(join(dist, 'http/tracker.js')).href)) as { trackerRoutes: typeof trackerRoutes };
      const distApp = Fastify();
      await distApp.register(module.trackerRoutes);
      const response = await distApp.inject({ url: '/js/t.js' });
      const vitals = await distApp.inject({ url: '/js/v.js' });
      await distApp.close();
      assert.equal(response.body, 'console.log("built")');
      assert.equal(vitals.body, 'console.log("vitals")');
    } finally {
      rmSync(dist, { recursive: true, force: true });
    }
  });
});
