// deploy/compose.yml under hostile imports sent through the proxy (docs/security.md#imports): the
// api checks each upload and the worker imports it while both collect processes, the api and the
// worker keep answering /healthz promptly; ZIP bombs of one compressed stream are refused at upload.
import { after, before, describe, it } from 'node:test';
import { startDeployment, type Deployment } from '../helpers/deployment.js';
import { assertPrompt, hostileUploads } from '../helpers/hostile-uploads.js';
import { createSite } from './fixtures.js';

describe('deploy/compose.yml: hostile imports through the proxy', () => {
  let deployment: Deployment;

  before(async () => {
    deployment = await startDeployment();
  });
  after(async () => {
    await deployment?.stop();
  });

  it('keep every process answering /healthz, and ZIP bombs of one stream are refused', async () => {
    const site = await createSite(deployment);
    // The worker takes queued jobs every 15 s.
    const waits = await hostileUploads(deployment.url, site.siteId, deployment.instances.map((i) => i.url), 90_000);
    assertPrompt(waits);
  });
});
