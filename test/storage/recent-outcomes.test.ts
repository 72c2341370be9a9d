// The process's recent collection outcomes hold bounded memory however many sites record them: at
// most RECENT_OUTCOMES_KEPT entries over all sites, the sites recorded to longest ago let go whole,
// and at most RECENT_OUTCOME_TEXT_LENGTH characters of a path and a User-Agent (the attack of a
// tenant that makes a thousand sites and fills each one's outcomes with 2 KB paths).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MemoryRecentOutcomes, RECENT_OUTCOME_TEXT_LENGTH, RECENT_OUTCOMES_KEPT, RECENT_OUTCOMES_PER_SITE } from '../../src/storage/counters/recent-outcomes.js';

const entry = (i: number) => ({ ts: i, outcome: 'origin_mismatch', path: `/${'p'.repeat(2_047)}`, name: 'pageview', ua: 'u'.repeat(4_000) });
const keptOf = (log: MemoryRecentOutcomes, site: number) => (log.list(site, 0) as { outcomes: unknown[] }).outcomes.length;

test(`at most ${RECENT_OUTCOMES_KEPT} outcomes over all sites; the sites recorded to longest ago go whole, a recent one stays`, () => {
  const log = new MemoryRecentOutcomes();
  const sites = (RECENT_OUTCOMES_KEPT / RECENT_OUTCOMES_PER_SITE) * 3;
  for (let site = 1; site <= sites; site++) {
    for (let i = 0; i < RECENT_OUTCOMES_PER_SITE; i++) log.record(site, entry(i));
    // Site 1 records again now and then: it stays among the recent ones.
    if (site % 50 === 0) log.record(1, entry(site));
  }
  let kept = 0;
  for (let site = 1; site <= sites; site++) kept += keptOf(log, site);
  assert.ok(kept <= RECENT_OUTCOMES_KEPT, `${kept} kept`);
  assert.ok(kept > RECENT_OUTCOMES_KEPT - 2 * RECENT_OUTCOMES_PER_SITE, `${kept} kept`);
  assert.equal(keptOf(log, sites), RECENT_OUTCOMES_PER_SITE, 'the last site keeps its hundred');
  assert.equal(keptOf(log, 2), 0, 'an early site is let go');
  assert.equal(keptOf(log, 1), RECENT_OUTCOMES_PER_SITE, 'a site recorded to lately stays');
});

test('an outcome keeps at most 512 characters of its path and User-Agent', () => {
  const log = new MemoryRecentOutcomes();
  log.record(7, entry(1));
  const [kept] = (log.list(7, 0) as { outcomes: Array<{ path: string; ua: string }> }).outcomes;
  assert.equal(kept!.path.length, RECENT_OUTCOME_TEXT_LENGTH);
  assert.equal(kept!.ua.length, RECENT_OUTCOME_TEXT_LENGTH);
  assert.ok(kept!.path.startsWith('/ppp'));
});
