// The hostile imports of docs/security.md#imports sent through /admin/v1 of a server or of the
// scale-out proxy, while every process's /healthz is sampled: a Plausible CSV whose header holds a
// quoted field of 21 000 lines, alone and three times in a ZIP, imported in full; and ZIP bombs of
// one compressed stream listed many times, refused at upload with their reason.
import assert from 'node:assert/strict';
import { imported, uploadImport } from './admin-imports.js';
import { sampleHealthz, type HealthzWaits } from './healthz.js';
import { hiddenShareZip, quotedHeaderCsv, repeatedEntryZip, storedZipOf, visitorsCsv, VISITORS_FILE } from './hostile-imports.js';

/** How long any process may take to answer /healthz meanwhile. */
export const PROMPT_MS = 1_000;

/** Every process answered each /healthz, within PROMPT_MS. */
export function assertPrompt(waits: readonly HealthzWaits[]): void {
  for (const { url, samples, failures, worstMs } of waits) {
    assert.ok(samples >= 3, `${url}: ${samples} samples`);
    assert.equal(failures, 0, `${url}: ${failures} of ${samples} requests to /healthz got no answer`);
    assert.ok(worstMs < PROMPT_MS, `${url}: /healthz answered after ${Math.round(worstMs)} ms at worst`);
  }
}

/**
 * Runs the uploads through `baseUrl` while sampling the /healthz of `processes`; asserts what each
 * upload answers and gives each process's waits (assertPrompt holds them to PROMPT_MS).
 */
export async function hostileUploads(baseUrl: string, siteId: string, processes: readonly string[], jobTimeoutMs = 60_000): Promise<HealthzWaits[]> {
  const csv = quotedHeaderCsv();
  const sampler = sampleHealthz(processes);
  let waits: HealthzWaits[];
  try {
    const alone = await imported(baseUrl, siteId, csv, VISITORS_FILE, jobTimeoutMs);
    assert.deepEqual([alone.rows, alone.skippedRows], [1, 0]);
    const thrice = await imported(baseUrl, siteId, storedZipOf(Object.fromEntries(['a', 'b', 'c'].map((folder) => [`${folder}/${VISITORS_FILE}`, csv]))), 'thrice.zip', jobTimeoutMs);
    assert.deepEqual([thrice.rows, thrice.skippedRows], [3, 0]);
  } finally {
    waits = await sampler.stop();
  }

  const rows = visitorsCsv(20_000);
  const refusals: Array<[string, Buffer, RegExp]> = [
    ['fifty.zip', await repeatedEntryZip(VISITORS_FILE, rows, 50), /the archive's entries would expand to more than \d+ bytes, 100 times the archive's \d+ bytes \(a ZIP bomb\)/],
    ['three.zip', await repeatedEntryZip(VISITORS_FILE, rows, 3), /share bytes of the file: each entry must have compressed bytes of its own/],
    ['hidden.zip', await hiddenShareZip(VISITORS_FILE, visitorsCsv(100)), /runs into the next entry: each entry must have compressed bytes of its own/],
  ];
  for (const [name, body, reason] of refusals) {
    const res = await uploadImport(baseUrl, siteId, body, name);
    assert.deepEqual([res.status, res.body.error?.code], [400, 'INVALID_IMPORT'], name);
    assert.match(res.body.error.message, reason, name);
  }
  return waits;
}
