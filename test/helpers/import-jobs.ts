// Import jobs through a real server's HTTP API: an upload queued, and its job waited for.
import type { TestServer } from './server.js';

/** Where uploads go: a test server, or the scale-out proxy with the deployment's admin token. */
export type UploadTarget = Pick<TestServer, 'url' | 'adminToken'>;

/** POST an upload to a site's imports (`query`: its source and name; the admin API by default). */
export async function uploadImport(server: UploadTarget, siteId: string, body: Uint8Array | string, query = 'source=plausible&name=export.zip', headers: Record<string, string> = { authorization: `Bearer ${server.adminToken}` }, prefix = '/admin/v1') {
  const res = await fetch(`${server.url}${prefix}/sites/${siteId}/imports?${query}`, { method: 'POST', headers: { 'content-type': 'application/zip', ...headers }, body: typeof body === 'string' ? body : new Uint8Array(body) });
  return { status: res.status, body: (await res.json()) as any };
}

/**
 * The import job once it is done or failed, as the site's list of imports (read through `list`) shows
 * it, within 60 s: on a ClickHouse whose statements run one at a time (the chdb stand-in) on busy
 * cores, an import's statements take seconds.
 */
export async function finishedImport(server: TestServer, siteId: string, importId: string, list = (path: string) => server.admin('GET', path)) {
  for (const deadline = Date.now() + 60_000; Date.now() < deadline; ) {
    const imports = await list(`/sites/${siteId}/imports`);
    const job = imports.body.imports.find((j: { importId: string }) => j.importId === importId);
    if (job.status === 'done' || job.status === 'failed') return job;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('the import did not finish');
}
