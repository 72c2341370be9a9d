// The build writes dist/tracker/t.js, reports its sizes and each feature's and check's, and holds it to its gzip budget.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const root = fileURLToPath(new URL('../../', import.meta.url));
const { GZIP_BUDGET_BYTES } = (await import(new URL('../../scripts/build-tracker.mjs', import.meta.url).href)) as { GZIP_BUDGET_BYTES: number };

describe('tracker build', () => {
  it('builds dist/tracker/t.js within its gzip budget and prints raw, gzip and brotli sizes, and each feature\'s and check\'s bytes', () => {
    const build = spawnSync(process.execPath, ['scripts/build-tracker.mjs'], { cwd: root, encoding: 'utf8' });
    assert.equal(build.status, 0, build.stderr);
    const printed = /raw (\d+) B, gzip (\d+) B, brotli (\d+) B/.exec(build.stdout);
    assert.ok(printed, build.stdout);
    const [raw, gzip, brotli] = printed.slice(1).map(Number) as [number, number, number];
    console.log(`tracker size: raw ${raw} B, gzip ${gzip} B, brotli ${brotli} B (budget ${GZIP_BUDGET_BYTES} B gzip)`);

    const built = readFileSync(`${root}dist/tracker/t.js`);
    assert.equal(built.length, raw);
    assert.equal(gzipSync(built, { level: 9 }).length, gzip);
    assert.ok(gzip <= GZIP_BUDGET_BYTES, `gzip ${gzip} B is over the ${GZIP_BUDGET_BYTES} B budget`);
    assert.ok(brotli < gzip);
    // A self-contained IIFE: nothing imported, nothing leaked but window.svc.
    assert.match(built.toString(), /^\(\(\)=>\{/);
    assert.doesNotMatch(built.toString(), /\bimport\b|\brequire\(/);

    const documented = readFileSync(`${root}docs/tracker.md`, 'utf8');
    assert.ok(documented.includes(`fails above ${GZIP_BUDGET_BYTES} bytes`), `docs/tracker.md should state the ${GZIP_BUDGET_BYTES} B budget`);
    const row = `| svc \`t.js\` | ${raw} B | ${gzip} B | ${brotli} B |`;
    assert.ok(documented.includes(row), `docs/tracker.md's size table should read: ${row}`);
    // Each feature's and each check's bytes, printed and documented; each costs something and less than the whole.
    const parts = [...build.stdout.matchAll(/(?:feature|check) (.+) adds raw (\d+) B, gzip (-?\d+) B/g)];
    assert.deepEqual(parts.map((f) => f[1]), [
      'revenue',
      'scroll depth',
      'single-page navigation',
      'outbound links and downloads',
      'web vitals (loading v.js)',
      'name rule',
      'props rules',
      'size limits',
    ]);
    for (const [, name, partRaw, partGzip] of parts) {
      assert.ok(Number(partRaw) > 0 && Number(partRaw) < raw, `${name}: ${partRaw} B`);
      assert.ok(documented.includes(`| ${name}`) && documented.includes(`| ${partRaw} B | ${partGzip} B |`), `docs/tracker.md should list ${name}: ${partRaw} B, ${partGzip} B`);
    }
  });
});
