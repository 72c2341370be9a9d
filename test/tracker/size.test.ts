// The build writes dist/tracker/t.js, reports its sizes and holds it to the 3 KB gzip budget.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const root = fileURLToPath(new URL('../../', import.meta.url));

describe('tracker build', () => {
  it('builds dist/tracker/t.js within 3072 bytes gzipped and prints raw, gzip and brotli sizes', () => {
    const build = spawnSync(process.execPath, ['scripts/build-tracker.mjs'], { cwd: root, encoding: 'utf8' });
    assert.equal(build.status, 0, build.stderr);
    const printed = /raw (\d+) B, gzip (\d+) B, brotli (\d+) B/.exec(build.stdout);
    assert.ok(printed, build.stdout);
    const [raw, gzip, brotli] = printed.slice(1).map(Number) as [number, number, number];
    console.log(`tracker size: raw ${raw} B, gzip ${gzip} B, brotli ${brotli} B (budget 3072 B gzip)`);

    const built = readFileSync(`${root}dist/tracker/t.js`);
    assert.equal(built.length, raw);
    assert.equal(gzipSync(built, { level: 9 }).length, gzip);
    assert.ok(gzip <= 3072, `gzip ${gzip} B is over the 3072 B budget`);
    assert.ok(brotli < gzip);
    // A self-contained IIFE: nothing imported, nothing leaked but window.svc.
    assert.match(built.toString(), /^"use strict";\(\(\)=>\{/);
    assert.doesNotMatch(built.toString(), /\bimport\b|\brequire\(/);

    const documented = readFileSync(`${root}docs/tracker.md`, 'utf8');
    const row = `| svc \`t.js\` | ${raw} B | ${gzip} B | ${brotli} B |`;
    assert.ok(documented.includes(row), `docs/tracker.md's size table should read: ${row}`);
  });
});
