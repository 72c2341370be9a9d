// Builds the dashboard front end (web/: Preact + TSX) with esbuild into dist/web/: one entry per page
// under web/pages/ plus the shared stylesheet web/styles.css, code shared between pages split into
// chunks, every file named by its content hash with .gz and .br beside it, and manifest.json naming,
// per page, its script, the chunks it imports, the stylesheet and the icon (web/favicon.svg, hashed
// like the rest). Prints what each page loads (raw,
// gzip, brotli) and fails when a page loads more than the gzip budget.
// Also imported by src/http/dashboard/assets.ts to build in memory when the server runs from src.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { shortenable } from './catalogue-keys.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const webDir = join(root, 'web');
/** Everything one page loads (script, chunks, stylesheet, icon), gzipped, stays under this. */
export const PAGE_GZIP_BUDGET_BYTES = 44 * 1024;
/**
 * What the message catalogue may add to a page for an English reader, gzipped, over the page's size
 * before it (page-sizes-before-languages.json: main's build at the catalogue's merge; a change that
 * grows a page for another reason raises that page's figure in the same commit).
 */
export const LANGUAGES_GZIP_GROWTH_BYTES = 2 * 1024;
const SIZES_BEFORE_LANGUAGES = JSON.parse(readFileSync(join(root, 'scripts/page-sizes-before-languages.json'), 'utf8'));

/** The pages over either budget, each with a sentence that says by how much. */
export function overBudget(sizes) {
  const over = [];
  for (const row of sizes) {
    if (row.gzip > PAGE_GZIP_BUDGET_BYTES) over.push(`page ${row.page} loads ${row.gzip} B gzip, over the budget of ${PAGE_GZIP_BUDGET_BYTES} B`);
    const before = SIZES_BEFORE_LANGUAGES[row.page];
    if (before !== undefined && row.gzip - before > LANGUAGES_GZIP_GROWTH_BYTES) {
      over.push(`page ${row.page} loads ${row.gzip - before} B gzip more than before the message catalogue (${before} B), over the ${LANGUAGES_GZIP_GROWTH_BYTES} B it may add`);
    }
  }
  return over;
}

function compress(body) {
  return {
    gzip: gzipSync(body, { level: 9 }),
    brotli: brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
  };
}

/**
 * Builds the front end in memory. Returns `{ files, manifest }`: `files` maps each asset name to
 * `{ body, gzip, brotli }` (Buffers); `manifest.pages[page]` is `{ script, preload, styles }` (asset
 * names, preload being every chunk the script imports, transitively) and its `icon`.
 */
export async function buildWeb() {
  const pages = readdirSync(join(webDir, 'pages'))
    .filter((name) => name.endsWith('.tsx'))
    .sort();
  const options = {
    absWorkingDir: root,
    entryPoints: [...pages.map((name) => join(webDir, 'pages', name)), join(webDir, 'styles.css')],
    outdir: join(root, 'dist/web/assets'),
    bundle: true,
    splitting: true,
    format: 'esm',
    minify: true,
    // Browsers with native ES modules, optional chaining and nullish coalescing.
    target: 'es2020',
    jsx: 'automatic',
    jsxImportSource: 'preact',
    tsconfig: join(webDir, 'tsconfig.json'),
    entryNames: '[name]-[hash]',
    chunkNames: 'chunk-[hash]',
    legalComments: 'none',
    metafile: true,
    write: false,
    logLevel: 'silent',
  };
  // Built twice: the first build names the inputs, whose words keep the catalogue's names they spell.
  const first = await build(options);
  const mangleProps = shortenable(root, Object.keys(first.metafile.inputs));
  const result = mangleProps ? await build({ ...options, mangleProps }) : first;
  const files = new Map();
  for (const output of result.outputFiles) {
    const body = Buffer.from(output.contents);
    files.set(basename(output.path), { body, ...compress(body) });
  }
  // The icon is named by its content hash as esbuild names the rest, so it is cached for good too.
  const iconBody = readFileSync(join(webDir, 'favicon.svg'));
  const icon = `favicon-${createHash('sha256').update(iconBody).digest('hex').slice(0, 8).toUpperCase()}.svg`;
  files.set(icon, { body: iconBody, ...compress(iconBody) });
  const outputs = result.metafile.outputs;
  const nameOf = (outputPath) => basename(outputPath);
  const stylesOutput = Object.keys(outputs).find((path) => outputs[path].entryPoint === 'web/styles.css');
  const manifest = { pages: {} };
  for (const [path, output] of Object.entries(outputs)) {
    if (!output.entryPoint?.startsWith('web/pages/')) continue;
    const preload = new Set();
    const visit = (outputPath) => {
      for (const imported of outputs[outputPath].imports) {
        // A dynamic import (a language's catalogue) loads only when asked for: never preloaded, never counted.
        if (imported.external || imported.kind === 'dynamic-import' || preload.has(nameOf(imported.path))) continue;
        preload.add(nameOf(imported.path));
        visit(imported.path);
      }
    };
    visit(path);
    const page = basename(output.entryPoint, '.tsx');
    manifest.pages[page] = { script: nameOf(path), preload: [...preload].sort(), styles: [nameOf(stylesOutput)], icon };
  }
  return { files, manifest };
}

/** Per page: the bytes it loads, summed over its files, raw, gzip and brotli. */
export function pageSizes({ files, manifest }) {
  return Object.entries(manifest.pages).map(([page, entry]) => {
    const names = [entry.script, ...entry.preload, ...entry.styles, entry.icon];
    const sum = (pick) => names.reduce((total, name) => total + pick(files.get(name)), 0);
    return { page, files: names.length, raw: sum((f) => f.body.length), gzip: sum((f) => f.gzip.length), brotli: sum((f) => f.brotli.length) };
  });
}

export function sizeTable(sizes) {
  const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`.padStart(9);
  const lines = [`${'page'.padEnd(16)} files       raw      gzip    brotli`];
  for (const row of sizes) lines.push(`${row.page.padEnd(16)} ${String(row.files).padStart(5)} ${kb(row.raw)} ${kb(row.gzip)} ${kb(row.brotli)}`);
  return lines.join('\n');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const built = await buildWeb();
  const outDir = join(root, 'dist/web');
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(join(outDir, 'assets'), { recursive: true });
  for (const [name, file] of built.files) {
    writeFileSync(join(outDir, 'assets', name), file.body);
    writeFileSync(join(outDir, 'assets', `${name}.gz`), file.gzip);
    writeFileSync(join(outDir, 'assets', `${name}.br`), file.brotli);
  }
  writeFileSync(join(outDir, 'manifest.json'), JSON.stringify(built.manifest, null, 2) + '\n');
  const sizes = pageSizes(built);
  console.log(`dashboard: ${relative(root, outDir)}/ (${built.files.size} assets), what each page loads:`);
  console.log(sizeTable(sizes));
  const over = overBudget(sizes);
  for (const line of over) console.error(`dashboard: ${line}`);
  if (over.length > 0) process.exit(1);
}
