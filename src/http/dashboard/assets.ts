// The dashboard's built files (scripts, chunks, stylesheet, icon) and its manifest. Compiled, this module
// is dist/http/dashboard/assets.js and reads dist/web/, which `npm run build` wrote with .gz and .br
// beside each file. Run from src through tsx (tests, development), it builds web/ in memory with the
// build script itself, so the pages served never lag their sources.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { extname } from 'node:path';

export interface WebFile {
  body: Buffer;
  gzip: Buffer;
  brotli: Buffer;
}

export interface PageEntry {
  /** Asset names: the page's module script, every chunk it imports, its stylesheets, its icon. */
  script: string;
  preload: string[];
  styles: string[];
  icon: string;
}

export interface WebBuild {
  files: Map<string, WebFile>;
  manifest: { pages: Record<string, PageEntry> };
}

const CONTENT_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.woff2': 'font/woff2',
};

export function contentTypeOf(name: string): string {
  return CONTENT_TYPES[extname(name)] ?? 'application/octet-stream';
}

function readBuiltFiles(): WebBuild {
  const dir = new URL('../../web/', import.meta.url);
  const manifestFile = new URL('manifest.json', dir);
  if (!existsSync(manifestFile)) throw new Error(`the dashboard is not built (${manifestFile.pathname} is missing): run npm run build`);
  const files = new Map<string, WebFile>();
  const assets = new URL('assets/', dir);
  for (const name of readdirSync(assets)) {
    if (name.endsWith('.gz') || name.endsWith('.br')) continue;
    files.set(name, {
      body: readFileSync(new URL(name, assets)),
      gzip: readFileSync(new URL(`${name}.gz`, assets)),
      brotli: readFileSync(new URL(`${name}.br`, assets)),
    });
  }
  return { files, manifest: JSON.parse(readFileSync(manifestFile, 'utf8')) as WebBuild['manifest'] };
}

let buildOnce: Promise<WebBuild> | undefined;

export function loadWebBuild(): Promise<WebBuild> {
  buildOnce ??= (async () => {
    if (!existsSync(new URL('./assets.ts', import.meta.url))) return readBuiltFiles();
    const buildScript = new URL('../../../scripts/build-web.mjs', import.meta.url).href;
    const { buildWeb } = (await import(buildScript)) as { buildWeb: () => Promise<WebBuild> };
    return buildWeb();
  })();
  return buildOnce;
}
