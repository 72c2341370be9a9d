// ClickHouse unreachable for 30 s under collection load (the gate between svc and the server shut:
// new connections refused, open ones reset, as when the server stops): the collect processes keep
// answering 202, hold the events on local disk, and once ClickHouse answers again store each of
// them exactly once.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startCollectLoad } from '../helpers/collect-load.js';
import { startDeployment, type Deployment } from '../helpers/deployment.js';
import { DROPPED, createSite, readStats, storedAtLeast } from './fixtures.js';

const OUTAGE_MS = 30_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('deploy/compose.yml: ClickHouse stopped for 30 s under load', () => {
  let deployment: Deployment;

  before(async () => {
    deployment = await startDeployment();
  });
  after(async () => {
    await deployment?.stop();
  });

  it('loses nothing and duplicates nothing', async (t) => {
    const site = await createSite(deployment);
    const load = startCollectLoad({ port: Number(new URL(deployment.url).port), siteId: site.siteId, domain: site.domain, networks: 8, perSecond: 4 });
    await sleep(5_000);
    await deployment.clickhouseGate.shut();
    const atShut = load.tally().answered;
    await sleep(OUTAGE_MS);
    const duringOutage = load.tally().answered - atShut;
    await deployment.clickhouseGate.open();
    await sleep(5_000);
    const tally = await load.stop();

    t.diagnostic(`answered 202: ${tally.answered}; other answers: ${JSON.stringify(tally.failed)}`);
    assert.deepEqual(tally.failed, {}, 'every request answered 202, during the outage too');
    assert.ok(duringOutage > 100, `collection went on during the outage (${duringOutage} events)`);
    const collect = deployment.instances.filter((i) => i.env.SVC_ROLE === 'collect');
    for (const instance of collect) assert.equal(await deployment.metric(instance, DROPPED), 0, `${instance.name} dropped nothing`);

    const stored = await storedAtLeast(deployment, tally.answered, 120_000);
    await sleep(3_000); // a replay that repeats itself would show meanwhile
    assert.equal((await deployment.storedEvents()).events, tally.answered, `stored ${stored.events}, answered ${tally.answered}`);
    assert.equal((await readStats(deployment, site)).pageviews, tally.answered);
  });
});
