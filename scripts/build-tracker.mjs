// Bundles and minifies the browser tracker (src/tracker/script.ts) into dist/tracker/t.js, prints its
// raw, gzip and brotli sizes and the bytes each optional feature and each client-side check of the
// collection contract adds (a build without it, compared), and fails the build when the gzipped
// script exceeds its budget. The served script always has every feature and every check. The web
// vitals measurer (src/tracker/vitals.ts), which t.js loads only for data-vitals, goes to
// dist/tracker/v.js, its size printed too.
// Also imported by src/http/tracker.ts to build the script in memory when the server runs from src.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { minify } from 'terser';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
export const GZIP_BUDGET_BYTES = 1536;

/** The features the script can be built without (its FEATURE_* constants), with their names in the size report. */
export const FEATURES = { FEATURE_REVENUE: 'revenue', FEATURE_SCROLL_DEPTH: 'scroll depth', FEATURE_SPA: 'single-page navigation', FEATURE_OUTBOUND: 'outbound links and downloads', FEATURE_VITALS: 'web vitals (loading v.js)' };

/** The contract's checks the script can be built without, only to measure them (its CHECK_* constants). */
export const CHECKS = { CHECK_NAME_RULE: 'name rule', CHECK_PROPS_RULES: 'props rules', CHECK_SIZE_LIMITS: 'size limits' };

/** Bundles one browser script (`entry` under src/tracker) and minifies it; `define` sets its build-time constants. */
async function bundleScript(entry, define = {}) {
  const result = await build({
    entryPoints: [join(root, 'src/tracker', entry)],
    bundle: true,
    minify: true,
    format: 'iife',
    // Chrome 58+, Firefox 53+, Safari 11+: every browser that still has a measurable share.
    target: 'es2017',
    legalComments: 'none',
    // Not strict mode: the script relies on none of it, and the directive costs bytes.
    tsconfigRaw: { compilerOptions: { alwaysStrict: false } },
    define,
    write: false,
    logLevel: 'silent',
  });
  // A second pass through Terser: its names follow the characters the script uses most, which gzip
  // stores in fewer bits. booleans_as_integers writes `true` as 1: the script's only boolean
  // literals are options (addEventListener's capture, fetch's keepalive) that read 1 as true.
  const second = await minify(result.outputFiles[0].text, {
    ecma: 2017,
    toplevel: true,
    compress: { booleans_as_integers: true },
    mangle: true,
  });
  return second.code;
}

/** Returns the minified tracker as text: with every feature and check, or without those of `without`. */
export function bundleTracker(without = []) {
  const parts = [...Object.keys(FEATURES), ...Object.keys(CHECKS)];
  return bundleScript('script.ts', Object.fromEntries(parts.map((name) => [name, String(!without.includes(name))])));
}

/** Returns the minified web vitals measurer (/js/v.js) as text. */
export function bundleVitals() {
  return bundleScript('vitals.ts');
}

/** Sizes in bytes of the script raw, gzipped (level 9) and brotli-compressed (quality 11). */
export function measure(code) {
  const raw = Buffer.from(code);
  return {
    raw: raw.length,
    gzip: gzipSync(raw, { level: 9 }).length,
    brotli: brotliCompressSync(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
  };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const code = await bundleTracker();
  const out = join(root, 'dist/tracker/t.js');
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, code);
  const sizes = measure(code);
  console.log(`tracker: dist/tracker/t.js raw ${sizes.raw} B, gzip ${sizes.gzip} B, brotli ${sizes.brotli} B`);
  const vitals = await bundleVitals();
  writeFileSync(join(root, 'dist/tracker/v.js'), vitals);
  const vitalsSizes = measure(vitals);
  console.log(`tracker: dist/tracker/v.js (loaded only with data-vitals) raw ${vitalsSizes.raw} B, gzip ${vitalsSizes.gzip} B`);
  for (const [kind, parts] of [['feature', FEATURES], ['check', CHECKS]]) {
    for (const [name, words] of Object.entries(parts)) {
      const without = measure(await bundleTracker([name]));
      console.log(`tracker: ${kind} ${words} adds raw ${sizes.raw - without.raw} B, gzip ${sizes.gzip - without.gzip} B`);
    }
  }
  if (sizes.gzip > GZIP_BUDGET_BYTES) {
    console.error(`tracker: gzip size ${sizes.gzip} B exceeds the budget of ${GZIP_BUDGET_BYTES} B`);
    process.exit(1);
  }
}
