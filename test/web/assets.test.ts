// The dashboard's build and how its pages and files are served: hashed names, precompressed
// variants, immutable caching, the page shell's CSP and the sign-in redirect.
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { apiError } from '../../src/core/errors.js';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { transform } from 'esbuild';
import Fastify, { type FastifyInstance } from 'fastify';
import { installErrorHandler } from '../../src/http/errors.js';
import { dashboardRoutes } from '../../src/http/dashboard/index.js';
import { loadWebBuild, type WebBuild } from '../../src/http/dashboard/assets.js';
import { sitePath } from '../../src/core/app-paths.js';
import { dashboardReads } from '../../src/core/dashboard-reads.js';
import { escapeHtml } from '../../src/core/html.js';

interface Sizes {
  page: string;
  files: number;
  raw: number;
  gzip: number;
  brotli: number;
}
const buildScript = new URL('../../scripts/build-web.mjs', import.meta.url).href;

describe('dashboard build and serving', () => {
  let build: WebBuild;
  let app: FastifyInstance;
  let signedIn = false;
  let setupNeeded = true;

  before(async () => {
    build = await loadWebBuild();
    app = Fastify();
    installErrorHandler(app);
    await app.register(async (scoped) =>
      dashboardRoutes(scoped, {
        signedIn: async () => signedIn,
        setupNeeded: async () => setupNeeded,
        ownOrigin: () => 'http://svc.test',
        sharedLinkEmbedDomains: async () => {
          throw apiError('NOT_FOUND', 'sharedLink');
        },
      }),
    );
  });

  it('names every file by its content hash and lists each page with its chunks, stylesheet and icon', () => {
    for (const name of build.files.keys()) assert.match(name, /^[a-z-]+-[A-Z0-9]{8}\.(js|css|svg)$/, name);
    for (const page of ['login', 'setup', 'home', 'org-settings', 'site-settings']) {
      const entry = build.manifest.pages[page];
      assert.ok(entry, `page ${page} is built`);
      for (const name of [entry.script, ...entry.preload, ...entry.styles, entry.icon]) assert.ok(build.files.has(name), name);
    }
  });

  it('counts the icon among what every page loads, and serves it as SVG', async () => {
    const { pageSizes } = (await import(buildScript)) as { pageSizes: (built: WebBuild) => Sizes[] };
    const entry = build.manifest.pages.login!;
    const files = 1 + entry.preload.length + entry.styles.length + 1;
    assert.equal(pageSizes(build).find((row) => row.page === 'login')!.files, files);
    const icon = await app.inject({ url: `/assets/${entry.icon}` });
    assert.equal(icon.statusCode, 200);
    assert.equal(icon.headers['content-type'], 'image/svg+xml');
    assert.match(icon.body, /^<svg /);
    assert.ok(icon.rawPayload.length < 512, `the icon is ${icon.rawPayload.length} B`);
  });

  it('keeps everything a page loads under 44 KB gzip', async () => {
    const { pageSizes, PAGE_GZIP_BUDGET_BYTES } = (await import(buildScript)) as { pageSizes: (built: WebBuild) => Sizes[]; PAGE_GZIP_BUDGET_BYTES: number };
    assert.equal(PAGE_GZIP_BUDGET_BYTES, 44 * 1024);
    for (const row of pageSizes(build)) assert.ok(row.gzip < PAGE_GZIP_BUDGET_BYTES, `${row.page}: ${row.gzip} B gzip`);
    // The error catalogue (src/core/errors.ts, 10 KB minified) stays out of every page.
    for (const [name, file] of build.files) if (name.endsWith('.js')) assert.ok(!file.body.toString().includes('missing or invalid credentials'), name);
  });

  it("loads a language's catalogue only for that language, and adds at most 2 KB gzip to any page for an English reader", async () => {
    const { pageSizes, overBudget, LANGUAGES_GZIP_GROWTH_BYTES } = (await import(buildScript)) as {
      pageSizes: (built: WebBuild) => Sizes[];
      overBudget: (sizes: Sizes[]) => string[];
      LANGUAGES_GZIP_GROWTH_BYTES: number;
    };
    assert.equal(LANGUAGES_GZIP_GROWTH_BYTES, 2 * 1024);
    const sizes = pageSizes(build);
    assert.deepEqual(overBudget(sizes), []);
    const before = JSON.parse(readFileSync(new URL('../../scripts/page-sizes-before-languages.json', import.meta.url), 'utf8')) as Record<string, number>;
    // overBudget holds a page to 2 KB over its size before the catalogue: every page has one.
    assert.deepEqual(Object.keys(before).sort(), sizes.map((row) => row.page).sort(), 'every page has its size before the catalogue');
    const loaded = new Set(Object.values(build.manifest.pages).flatMap((page) => [page.script, ...page.preload]));
    for (const word of ['Absprungrate', 'Taux de rebond', 'Tasa de rebote']) {
      const holders = [...build.files].filter(([name, file]) => name.endsWith('.js') && file.body.toString().includes(word)).map(([name]) => name);
      assert.equal(holders.length, 1, `${word} is in one file: ${holders.join(', ')}`);
      assert.ok(!loaded.has(holders[0]!), `${word}'s catalogue is no page's script or preload`);
    }
  });

  it("leaves what a page loads on demand out of its first load: a shared link's views besides the dashboard, a site's imports", () => {
    const firstLoad = (page: string) => {
      const entry = build.manifest.pages[page]!;
      return [entry.script, ...entry.preload].map((name) => build.files.get(name)!.body.toString()).join('\n');
    };
    const inSomeScript = (text: string) => [...build.files].some(([name, file]) => name.endsWith('.js') && file.body.toString().includes(text));
    const cases = [
      { page: 'share', text: 'Pageviews per minute, last {minutes} minutes', ownPage: 'realtime' },
      { page: 'share', text: 'GET /sites/:siteId/funnels/:funnelId/versions', ownPage: 'funnel' },
      { page: 'site-settings', text: 'GET /manage/sites/:siteId/imports', ownPage: undefined },
    ];
    for (const { page, text, ownPage } of cases) {
      assert.ok(inSomeScript(text), `${text} is built`);
      assert.ok(!firstLoad(page).includes(text), `${page} loads ${text} first`);
      if (ownPage) assert.ok(firstLoad(ownPage).includes(text), `${ownPage} carries ${text} itself`);
    }
  });

  it('serves a file for a year, immutable, in brotli, gzip or as is, by Accept-Encoding', async () => {
    const name = build.manifest.pages.login!.script;
    const file = build.files.get(name)!;
    const plain = await app.inject({ url: `/assets/${name}` });
    assert.equal(plain.statusCode, 200);
    assert.equal(plain.headers['cache-control'], 'public, max-age=31536000, immutable');
    assert.equal(plain.headers['content-type'], 'text/javascript; charset=utf-8');
    assert.equal(plain.headers.vary, 'accept-encoding');
    assert.equal(plain.headers['content-encoding'], undefined);
    assert.deepEqual(plain.rawPayload, file.body);
    const br = await app.inject({ url: `/assets/${name}`, headers: { 'accept-encoding': 'gzip, deflate, br' } });
    assert.equal(br.headers['content-encoding'], 'br');
    assert.deepEqual(brotliDecompressSync(br.rawPayload), file.body);
    const gzip = await app.inject({ url: `/assets/${name}`, headers: { 'accept-encoding': 'gzip, br;q=0' } });
    assert.equal(gzip.headers['content-encoding'], 'gzip');
    assert.deepEqual(gunzipSync(gzip.rawPayload), file.body);
    const css = await app.inject({ url: `/assets/${build.manifest.pages.login!.styles[0]}` });
    assert.equal(css.headers['content-type'], 'text/css; charset=utf-8');
  });

  it('answers 404 in the error envelope for an unknown asset', async () => {
    const response = await app.inject({ url: '/assets/nope-AAAAAAAA.js' });
    assert.equal(response.statusCode, 404);
    assert.equal(response.json().error.code, 'NOT_FOUND');
  });

  it('serves a page shell that loads only hashed assets, never cached, under a CSP without inline script', async () => {
    const response = await app.inject({ url: '/login' });
    assert.equal(response.statusCode, 200);
    assert.equal(response.headers['cache-control'], 'no-store');
    const csp = String(response.headers['content-security-policy']);
    assert.match(csp, /script-src 'self'(;|$)/);
    assert.doesNotMatch(csp, /unsafe-inline/);
    const entry = build.manifest.pages.login!;
    assert.ok(response.body.includes(`<script type="module" src="/assets/${entry.script}">`));
    assert.ok(response.body.includes(`<link rel="icon" type="image/svg+xml" href="/assets/${entry.icon}">`));
    assert.doesNotMatch(response.body, /<script>|<script [^>]*>[^<]/);
  });

  it('names what a signed-in page reads first as preloads after its scripts: the session, and a site dashboard\'s sites and view', async () => {
    signedIn = true;
    const preloads = (body: string) => Array.from(body.matchAll(/<link rel="preload" as="fetch" crossorigin href="([^"]*)">/g), (m) => m[1]!);
    assert.deepEqual(preloads((await app.inject({ url: '/account' })).body), ['/app/v1/session']);
    assert.deepEqual(preloads((await app.inject({ url: '/sites/abc/realtime' })).body), ['/app/v1/session', '/app/v1/sites']);
    const search = '?period=year&filter=page:/a"<b>&metric=pageviews';
    const body = (await app.inject({ url: `/sites/abc${encodeURI(search)}` })).body;
    const paths = dashboardReads(new URLSearchParams(encodeURI(search))).map((read) => `/app/v1${sitePath('abc', read)}`);
    assert.deepEqual(preloads(body), ['/app/v1/session', '/app/v1/sites', ...paths].map(escapeHtml));
    assert.ok(paths.some((path) => path.includes('/stats?period=year&filter=page%3A%2Fa%22%3Cb%3E')), paths.join());
    assert.ok(body.indexOf('rel="preload"') > body.indexOf('<script type="module"'), 'the scripts come first');
    signedIn = false;
    assert.deepEqual(preloads((await app.inject({ url: '/login' })).body), []);
  });

  it('sends an anonymous browser to /login with the page as next, and serves a signed-in one', async () => {
    signedIn = false;
    const anonymous = await app.inject({ url: '/?tab=keys&x=1' });
    assert.equal(anonymous.statusCode, 302);
    assert.equal(anonymous.headers.location, '/login?next=%2F%3Ftab%3Dkeys%26x%3D1');
    // next is the request's address as a browser normalises it (the same rule as the sign-in page's).
    for (const [url, location] of [
      ['/sites/%2e%2e/', '/login'],
      ['/sites/abc?a=/../', '/login?next=%2Fsites%2Fabc%3Fa%3D%2F..%2F'],
      ['/sites/%2F%2Fevil.example', '/login?next=%2Fsites%2F%252F%252Fevil.example'],
    ]) {
      assert.equal((await app.inject({ url })).headers.location, location, url);
    }
    assert.equal((await app.inject({ url: '/login' })).statusCode, 200);
    signedIn = true;
    assert.equal((await app.inject({ url: '/?tab=keys&x=1' })).statusCode, 200);
  });

  it('answers 404 for /setup once a user exists: an HTML page that links to /login, never JSON', async () => {
    setupNeeded = true;
    assert.equal((await app.inject({ url: '/setup' })).statusCode, 200);
    setupNeeded = false;
    const done = await app.inject({ url: '/setup' });
    assert.equal(done.statusCode, 404);
    assert.equal(done.headers['content-type'], 'text/html; charset=utf-8');
    assert.match(done.body, /^<!doctype html>/);
    assert.match(done.body, /<a href="\/login">Sign in<\/a>/);
    assert.doesNotMatch(done.body, /"error"/);
  });

  it('compiled (dist/http/dashboard/assets.js), reads the built dist/web/ next door', async () => {
    // The layout tsc and the web build produce, with one marker page instead of the real ones.
    const dist = mkdtempSync(join(tmpdir(), 'svc-dist-'));
    try {
      mkdirSync(join(dist, 'http/dashboard'), { recursive: true });
      mkdirSync(join(dist, 'web/assets'), { recursive: true });
      const source = readFileSync(new URL('../../src/http/dashboard/assets.ts', import.meta.url), 'utf8');
      writeFileSync(join(dist, 'http/dashboard/assets.js'), (await transform(source, { loader: 'ts', format: 'esm' })).code);
      const body = Buffer.from('console.log("built")');
      writeFileSync(join(dist, 'web/assets/marker-AAAAAAAA.js'), body);
      writeFileSync(join(dist, 'web/assets/marker-AAAAAAAA.js.gz'), gzipSync(body));
      writeFileSync(join(dist, 'web/assets/marker-AAAAAAAA.js.br'), brotliCompressSync(body));
      const manifest = { pages: { marker: { script: 'marker-AAAAAAAA.js', preload: [], styles: [], icon: 'marker-AAAAAAAA.js' } } };
      writeFileSync(join(dist, 'web/manifest.json'), JSON.stringify(manifest));
      const module = (await import(pathToFileURL(join(dist, 'http/dashboard/assets.js')).href)) as { loadWebBuild: typeof loadWebBuild };
      const built = await module.loadWebBuild();
      assert.deepEqual(built.manifest, manifest);
      assert.deepEqual([...built.files.keys()], ['marker-AAAAAAAA.js']);
      assert.deepEqual(gunzipSync(built.files.get('marker-AAAAAAAA.js')!.gzip), body);
    } finally {
      rmSync(dist, { recursive: true, force: true });
    }
  });
});
