// SIGTERM to one collect process under load: it drains and exits 0, the proxy sends the rest of the
// traffic to the other one, and every event answered 202 is stored. A request nginx sends on a
// kept-alive connection at the instant the stopping process closes it is answered 502, never 202,
// and is not resent (nginx resends no POST): a few such requests are allowed, none is lost.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startCollectLoad } from '../helpers/collect-load.js';
import { startDeployment, type Deployment } from '../helpers/deployment.js';
import { ACCEPTED_BY_COLLECTION, createSite, readStats, storedAtLeast } from './fixtures.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('deploy/compose.yml: SIGTERM to a collect process under load', () => {
  let deployment: Deployment;

  before(async () => {
    deployment = await startDeployment();
  });
  after(async () => {
    await deployment?.stop();
  });

  it('loses nothing that was answered', async (t) => {
    const site = await createSite(deployment);
    const load = startCollectLoad({ port: Number(new URL(deployment.url).port), siteId: site.siteId, domain: site.domain, networks: 8, perSecond: 5 });
    await sleep(5_000);
    const stopped = deployment.instance('collect-1');
    const acceptedBefore = await deployment.metric(stopped, ACCEPTED_BY_COLLECTION);
    assert.ok(acceptedBefore > 0, 'collect-1 took part of the load');
    const atSignal = load.tally().answered;
    const exit = await stopped.stop('SIGTERM');
    assert.equal(exit.code, 0, stopped.process.logs().slice(-2000));
    assert.match(stopped.process.logs(), /drained; every buffered event is stored/);
    await sleep(5_000);
    const tally = await load.stop();
    assert.ok(tally.answered - atSignal > 100, `collection went on through collect-2 (${tally.answered - atSignal} events)`);

    t.diagnostic(`answered 202: ${tally.answered}; other answers: ${JSON.stringify(tally.failed)}`);
    const failed = Object.values(tally.failed).reduce((a, b) => a + b, 0);
    assert.ok(failed <= tally.answered / 100, `at most 1 % of requests failed while collect-1 stopped: ${JSON.stringify(tally.failed)}`);

    await storedAtLeast(deployment, tally.answered);
    await sleep(2_000);
    assert.equal((await deployment.storedEvents()).events, tally.answered);
    assert.equal((await readStats(deployment, site)).pageviews, tally.answered);
  });
});
