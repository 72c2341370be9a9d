// Hostile uploads through a server that runs every role (docs/security.md#imports): a CSV header
// holding a quoted field of 21 000 lines is imported while /healthz stays prompt, and ZIP bombs of
// one compressed stream listed many times are refused at upload with their reason.
import { test } from 'node:test';
import { assertPrompt, hostileUploads } from '../helpers/hostile-uploads.js';
import { createSite, startTestServer } from '../helpers/server.js';

test('hostile uploads keep /healthz prompt and ZIP bombs of one stream are refused', async () => {
  const server = await startTestServer();
  try {
    const site = await createSite(server);
    assertPrompt(await hostileUploads(server.url, site.siteId, [server.url]));
  } finally {
    await server.stop();
  }
});
