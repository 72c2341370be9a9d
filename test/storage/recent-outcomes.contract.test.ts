// The RecentOutcomeLog contract, written once and run against every implementation: in process and
// Redis (each test on a key prefix of its own). Records are not awaited: a list may follow them at once.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Counters } from '../../src/storage/counters/open.js';
import { RECENT_OUTCOMES_PER_SITE } from '../../src/storage/counters/recent-outcomes.js';
import { COUNTER_KINDS, testWithCounters } from '../../support/counters.js';

const UA = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';

for (const kind of COUNTER_KINDS) {
  describe(`RecentOutcomeLog contract: ${kind.name}`, () => {
    const withCounters = (name: string, processes: number, body: (counters: Counters[]) => Promise<void>) => testWithCounters(kind, name, processes, body);

    withCounters('a site\'s outcomes, oldest first, numbered; after a number, only the later ones', 1, async ([counters]) => {
      const log = counters!.recentOutcomes;
      assert.deepEqual(await log.list(1, 0), { outcomes: [], lastSeq: 0 });
      log.record(1, { ts: 1000, outcome: 'accepted', path: '/a', name: 'pageview', ua: UA });
      log.record(2, { ts: 1001, outcome: 'gpc', path: null, name: null, ua: '' });
      log.record(1, { ts: 1002, outcome: 'bot_ua', path: '/b', name: 'signup', ua: 'curl/8' });
      const { outcomes, lastSeq } = await log.list(1, 0);
      assert.deepEqual(outcomes.map((o) => [o.ts, o.outcome, o.path, o.name, o.ua]), [[1000, 'accepted', '/a', 'pageview', UA], [1002, 'bot_ua', '/b', 'signup', 'curl/8']]);
      assert.equal(lastSeq, 3);
      assert.ok(outcomes[0]!.seq < outcomes[1]!.seq);
      assert.deepEqual((await log.list(1, outcomes[0]!.seq)).outcomes.map((o) => o.path), ['/b']);
      assert.deepEqual((await log.list(1, lastSeq)).outcomes, []);
      // A number past the last one (from before a restart) lists everything kept.
      assert.equal((await log.list(1, lastSeq + 100)).outcomes.length, 2);
      assert.deepEqual((await log.list(2, 0)).outcomes.map((o) => o.outcome), ['gpc']);
    });

    withCounters(`a site keeps its last ${RECENT_OUTCOMES_PER_SITE}`, 1, async ([counters]) => {
      const log = counters!.recentOutcomes;
      for (let i = 0; i < RECENT_OUTCOMES_PER_SITE + 5; i++) log.record(7, { ts: i, outcome: 'accepted', path: `/p${i}`, name: 'pageview', ua: UA });
      const { outcomes, lastSeq } = await log.list(7, 0);
      assert.equal(outcomes.length, RECENT_OUTCOMES_PER_SITE);
      // Every record is numbered, the forgotten ones too.
      assert.deepEqual([lastSeq, outcomes[0]!.seq, outcomes.at(-1)!.seq], [RECENT_OUTCOMES_PER_SITE + 5, 6, RECENT_OUTCOMES_PER_SITE + 5]);
      assert.deepEqual([outcomes[0]!.path, outcomes.at(-1)!.path], ['/p5', `/p${RECENT_OUTCOMES_PER_SITE + 4}`]);
    });

    withCounters('what one process records, another lists', 2, async ([collect, api]) => {
      collect!.recentOutcomes.record(3, { ts: 1, outcome: 'accepted', path: '/from-collect', name: 'pageview', ua: UA });
      // Once the collect process's record is answered (its own list waits for it).
      await collect!.recentOutcomes.list(3, 0);
      api!.recentOutcomes.record(3, { ts: 2, outcome: 'rate_limited', path: '/from-api', name: 'pageview', ua: UA });
      const listed = await api!.recentOutcomes.list(3, 0);
      assert.deepEqual(listed.outcomes.map((o) => o.path), ['/from-collect', '/from-api']);
    });
  });
}

test('Redis: each outcome is kept as its number and its entry\'s JSON, whatever its texts', async () => {
  const redis = COUNTER_KINDS.find((k) => k.name === 'redis')!;
  const { counters, redis: client, prefix, dispose } = await redis.open();
  try {
    const log = counters[0]!.recentOutcomes;
    const entries = [
      { ts: 1_760_000_000_001, outcome: 'accepted', path: '/a"b\\c\u0001/Łódź/😀', name: 'Sign "up" ✓', ua: UA },
      { ts: 1_760_000_000_002, outcome: 'gpc', path: null, name: null, ua: 'curl/8 "x" \\ é' },
      { ts: 1_760_000_000_003, outcome: 'bot_ua', path: '/c', name: 'pageview', ua: UA },
    ];
    for (const e of entries) log.record(4, e);
    assert.deepEqual((await log.list(4, 0)).outcomes.map(({ seq: _, ...e }) => e), entries);
    assert.deepEqual(await client!.lrange(`${prefix}ro:4`, 0, -1), entries.map((e, i) => `${i + 1} ${JSON.stringify(e)}`).reverse());
  } finally {
    await dispose();
  }
});
