// Imports through the proxy of deploy/compose.yml, each process on a data folder of its own: the
// api receives an upload and stores it in PostgreSQL, the worker runs the job from its own copy,
// neither folder keeps the upload afterwards, and the read API answers the export's figures. Under hostile imports (docs/security.md#imports) both collect processes, the api
// and the worker keep answering /healthz promptly; ZIP bombs of one compressed stream are refused at upload.
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { IMPORTS_FOLDER } from '../../src/core/data-files.js';
import { imported } from '../helpers/admin-imports.js';
import { startDeployment, type Deployment } from '../helpers/deployment.js';
import { assertPrompt, hostileUploads } from '../helpers/hostile-uploads.js';
import { plausibleExport, zipOf } from '../helpers/plausible-export.js';
import { createSite, readStats } from './fixtures.js';

const DAYS = ['2026-05-04', '2026-05-05', '2026-05-06'];
/** The worker takes queued jobs every 15 s; the api runs none. */
const JOB_TIMEOUT_MS = 60_000;

describe('deploy/compose.yml: imports through the proxy', () => {
  let deployment: Deployment;

  before(async () => {
    deployment = await startDeployment();
  });
  after(async () => {
    await deployment?.stop();
  });

  it('are received by the api, run by the worker, and read back', async () => {
    const site = await createSite(deployment);
    const job = await imported(deployment.url, site.siteId, await zipOf(plausibleExport(DAYS)), 'export.zip', JOB_TIMEOUT_MS);
    assert.deepEqual([job.from, job.to, job.rows, job.skippedRows], [DAYS[0], DAYS.at(-1), DAYS.length * 21, 0]);
    // Each day of the export has 10 visitors, 30 pageviews and 12 visits.
    assert.deepEqual(await readStats(deployment, site, { from: DAYS[0]!, to: DAYS.at(-1)! }), { visitors: 30, pageviews: 90, sessions: 36 });
    const [api, worker] = [deployment.instance('api'), deployment.instance('worker')];
    assert.notEqual(api.env.SVC_DATA_DIR, worker.env.SVC_DATA_DIR);
    assert.deepEqual(readdirSync(join(api.env.SVC_DATA_DIR!, IMPORTS_FOLDER)), [], 'the api removed its file once the upload was stored');
    assert.deepEqual(readdirSync(join(worker.env.SVC_DATA_DIR!, IMPORTS_FOLDER)), [], 'the worker removed its copy when the job ended');
  });

  it('keep every process answering /healthz when hostile, and ZIP bombs of one stream are refused', async () => {
    const site = await createSite(deployment);
    const waits = await hostileUploads(deployment.url, site.siteId, deployment.instances.map((i) => i.url), 1.5 * JOB_TIMEOUT_MS);
    assertPrompt(waits);
  });
});
