// One visitor's events, sent through the proxy, reach the two collect processes in turn and form one
// session: the live session is shared through Redis, not kept in either process.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { until } from '../alerts/helpers/process.js';
import { startDeployment, type Deployment } from '../helpers/deployment.js';
import { postFrom } from '../helpers/post-from.js';
import { browserHeaders } from '../helpers/server.js';
import { ACCEPTED_BY_COLLECTION, createSite, readStats, storedAtLeast } from './fixtures.js';

const PAGEVIEWS = 10;

describe('deploy/compose.yml: one visitor across the two collect processes', () => {
  let deployment: Deployment;

  before(async () => {
    deployment = await startDeployment();
  });
  after(async () => {
    await deployment?.stop();
  });

  it('forms one session, one visitor, one visit', async () => {
    const site = await createSite(deployment);
    const port = Number(new URL(deployment.url).port);
    for (let i = 0; i < PAGEVIEWS; i++) {
      const status = await postFrom('127.0.9.1', port, '/api/e', JSON.stringify({ s: site.siteId, u: `/page-${i}` }), browserHeaders(site.domain));
      assert.equal(status, 202, `pageview ${i}`);
    }
    // 202 comes before the steps run: the counts follow once every event went through them.
    const byProcess = await until('every pageview through the steps', async () => {
      const counts = await Promise.all(['collect-1', 'collect-2'].map((name) => deployment.metric(deployment.instance(name), ACCEPTED_BY_COLLECTION)));
      return counts[0]! + counts[1]! >= PAGEVIEWS ? counts : undefined;
    });
    assert.deepEqual(byProcess, [PAGEVIEWS / 2, PAGEVIEWS / 2], 'the proxy alternated between the two collect processes');

    const stored = await storedAtLeast(deployment, PAGEVIEWS);
    assert.deepEqual(stored, { events: PAGEVIEWS, sessions: 1, visitors: 1 });
    assert.deepEqual(await readStats(deployment, site), { visitors: 1, pageviews: PAGEVIEWS, sessions: 1 });
  });
});
