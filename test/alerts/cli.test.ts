import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { main } from '../../src/cli/main.js';
import { createSite, startTestServer, type SiteFixture, type TestServer } from '../helpers/server.js';
import { startReceiver, type Receiver } from '../../support/alert-receiver.js';
import { loopbackResolver } from '../../support/alert-service.js';
import { testCertificates } from '../../support/test-certificates.js';

describe('svc alert add|list|rm|test|history', () => {
  let server: TestServer;
  let receiver: Receiver;
  let site: SiteFixture;

  /** Runs the CLI in-process against the test server; returns exit code and output. */
  const svc = async (...args: string[]) => {
    let stdout = '';
    let stderr = '';
    const code = await main(args, {
      stdout: { write: (s: string) => (stdout += s) },
      stderr: { write: (s: string) => (stderr += s) },
      env: { SVC_URL: server.url, SVC_ADMIN_TOKEN: server.adminToken },
    });
    return { code, stdout, stderr };
  };

  before(async () => {
    receiver = await startReceiver();
    server = await startTestServer({ env: { SVC_WEBHOOK_ALLOW_PRIVATE: '1' }, alerts: { resolve: loopbackResolver, ca: testCertificates().ca } });
    site = await createSite(server);
  });
  after(async () => {
    await server.stop();
    await receiver.close();
  });

  it('manages a rule and shows its deliveries', async () => {
    const added = await svc('alert', 'add', '--site', site.siteId, '--type', 'spike', '--threshold', '50', '--webhook', receiver.url('/cli'), '--secret', 'cli-secret', '--json');
    assert.equal(added.code, 0, added.stderr);
    const rule = JSON.parse(added.stdout);
    assert.equal(rule.type, 'spike');

    const listed = await svc('alert', 'list', '--site', site.siteId);
    assert.match(listed.stdout, new RegExp(`${rule.id}\\s+spike\\s+50`));

    const tested = await svc('alert', 'test', String(rule.id), '--json');
    const { deliveryId } = JSON.parse(tested.stdout);
    await server.ctx.alerts.engine.runDue();
    const history = await svc('alert', 'history', String(rule.id));
    assert.match(history.stdout, new RegExp(`${deliveryId}.*succeeded`));

    assert.equal((await svc('alert', 'rm', String(rule.id))).stdout, `alert rule ${rule.id} deleted\n`);
    const gone = await svc('alert', 'history', String(rule.id));
    assert.notEqual(gone.code, 0);
    assert.match(gone.stderr, /NOT_FOUND/);
  });

  it('reports a refused URL and usage errors in one line', async () => {
    const refused = await svc('alert', 'add', '--site', site.siteId, '--type', 'drop', '--threshold', '1', '--webhook', 'http://x.example/', '--secret', 's');
    assert.notEqual(refused.code, 0);
    assert.match(refused.stderr, /INVALID_WEBHOOK_URL: rejected:scheme/);
    const usage = await svc('alert', 'add', '--site', site.siteId, '--type', 'flood', '--threshold', '1', '--webhook', receiver.url(), '--secret', 's');
    assert.notEqual(usage.code, 0);
    assert.match(usage.stderr, /--type must be one of/);
  });
});
