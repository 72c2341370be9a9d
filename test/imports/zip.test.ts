// ZIP bombs made of one compressed stream listed many times: each entry alone passes the ratio
// check, so the archive is refused for its whole (past the ratio of its file's size) or for entries
// that share bytes; an honest archive of the same files is read. A gzipped CSV is held to the ratio
// as it inflates.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { csvRecords } from '../../src/imports/csv.js';
import { openCsvFile } from '../../src/imports/raw-events.js';
import { ImportRefused } from '../../src/imports/plausible-import.js';
import { MAX_COMPRESSION_RATIO, openZipEntry, readZipDirectory, ZipRefused } from '../../src/imports/zip.js';
import { zipOf } from '../helpers/plausible-export.js';
import { hiddenShareZip, repeatedEntryZip, visitorsCsv, VISITORS_FILE } from '../helpers/hostile-imports.js';

/** The records of every entry of the archive at `path`. */
async function recordsIn(path: string): Promise<number> {
  let records = 0;
  for (const entry of await readZipDirectory(path)) for await (const _ of csvRecords(await openZipEntry(path, entry))) records++;
  return records;
}

const refused = (reason: RegExp) => (err: unknown) => err instanceof ZipRefused && reason.test(err.message);

test('one compressed stream listed many times is refused; the same files, each with bytes of its own, are read', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'svc-zip-'));
  try {
    const csv = visitorsCsv(20_000);
    const file = async (name: string, bytes: Buffer) => {
      const path = join(dir, name);
      await writeFile(path, bytes);
      return path;
    };
    // 50 listings of one 20 000-row CSV: a million rows declared by a file of 150 KB.
    const fifty = await repeatedEntryZip(VISITORS_FILE, csv, 50);
    const [entry] = await readZipDirectory(await file('one.zip', await zipOf({ [VISITORS_FILE]: csv })));
    assert.ok(entry!.uncompressedSize < entry!.compressedSize * MAX_COMPRESSION_RATIO, 'each listing alone passes the ratio check');
    assert.ok(50 * csv.length > fifty.length * MAX_COMPRESSION_RATIO);
    await assert.rejects(readZipDirectory(await file('fifty.zip', fifty)), refused(new RegExp(`would expand to more than ${fifty.length * MAX_COMPRESSION_RATIO} bytes, 100 times the archive's ${fifty.length} bytes \\(a ZIP bomb\\)`)));

    // Three listings stay under the archive's ratio: their overlap refuses them.
    await assert.rejects(
      readZipDirectory(await file('three.zip', await repeatedEntryZip(VISITORS_FILE, csv, 3))),
      refused(/^entry copy-00\/imported_visitors_20250101_20250131\.csv and entry copy-01\/imported_visitors_20250101_20250131\.csv share bytes of the file: each entry must have compressed bytes of its own/),
    );

    // Headers apart, data shared (the first header's name runs over the second): refused as it is opened.
    const hidden = await file('hidden.zip', await hiddenShareZip(VISITORS_FILE, visitorsCsv(100)));
    const entries = await readZipDirectory(hidden);
    assert.deepEqual(entries.map((e) => e.name), [`a/${VISITORS_FILE}`, `b/${VISITORS_FILE}`]);
    await assert.rejects(recordsIn(hidden), refused(/^entry a\/imported_visitors_20250101_20250131\.csv runs into the next entry/));

    // The three copies as an honest archive: read whole.
    const honest = await file('honest.zip', await zipOf(Object.fromEntries(['a', 'b', 'c'].map((folder) => [`${folder}/${VISITORS_FILE}`, csv]))));
    assert.equal(await recordsIn(honest), 3 * 20_001);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('a gzipped CSV that inflates past 100 times its size is refused as it is read', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'svc-gzip-'));
  try {
    const path = join(dir, 'export.csv.gz');
    const csv = `2,Path,Title\n${' '.repeat(20 * 1024 * 1024)}\n`;
    const gzipped = gzipSync(csv);
    await writeFile(path, gzipped);
    let inflated = 0;
    await assert.rejects(
      (async () => {
        for await (const chunk of await openCsvFile(path)) inflated += chunk.length;
      })(),
      (err: unknown) => err instanceof ImportRefused && /expands more than 100 times \(a gzip bomb\)/.test(err.message),
    );
    assert.ok(inflated <= gzipped.length * MAX_COMPRESSION_RATIO, `${inflated} bytes handed on from ${gzipped.length}`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
