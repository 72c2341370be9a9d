// Imports through /admin/v1 of a server or of the scale-out proxy, as an operator sends them: an
// upload, and its job waited for until it ends.
import assert from 'node:assert/strict';
import { until } from '../alerts/helpers/process.js';
import { uploadImport as uploadTo } from './import-jobs.js';
import { ADMIN_TOKEN } from './server.js';

/** Sends a Plausible export (a ZIP, or one CSV) under `name`: the answer and its body. */
export function uploadImport(baseUrl: string, siteId: string, body: Uint8Array | string, name: string): Promise<{ status: number; body: any }> {
  const headers = { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': name.endsWith('.zip') ? 'application/zip' : 'text/csv' };
  return uploadTo({ url: baseUrl, adminToken: ADMIN_TOKEN }, siteId, body, `source=plausible&name=${encodeURIComponent(name)}`, headers);
}

/** Uploads a file and waits for its job (`jobTimeoutMs`: a scale-out worker takes queued jobs every 15 s): its listing once done. */
export async function imported(baseUrl: string, siteId: string, body: Uint8Array | string, name: string, jobTimeoutMs: number): Promise<any> {
  const created = await uploadImport(baseUrl, siteId, body, name);
  assert.equal(created.status, 202, JSON.stringify(created.body));
  const job = await until(
    `the import of ${name} to end`,
    async () => {
      const res = await fetch(`${baseUrl}/admin/v1/sites/${siteId}/imports`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
      const found = ((await res.json()) as { imports: any[] }).imports.find((j) => j.importId === created.body.importId);
      return found?.status === 'done' || found?.status === 'failed' ? found : undefined;
    },
    jobTimeoutMs,
  );
  assert.equal(job.status, 'done', job.error);
  return job;
}
