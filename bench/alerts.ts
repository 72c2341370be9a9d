// Alert benchmark: (1) evaluation of 10 000 rules over 1 000 sites with a day of traffic, which must
// take well under 10 s of each minute; (2) webhook delivery throughput to a local HTTPS receiver.
// Run: npm run bench:alerts   (ALERT_BENCH_EVENTS_PER_SITE to change the traffic, default 300)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { RULE_TYPES } from '../src/core/vocabulary.js';
import type { Resolver } from '../src/alerts/url-safety.js';
import { ManualClock } from '../src/core/clock.js';
import { DuckDbEventStore } from '../src/storage/events/duckdb.js';
import type { StoredEvent } from '../src/storage/events/schema.js';
import { openMetaStores } from '../src/storage/meta/open.js';
import { event as storedEvent } from '../support/events.js';
import { startReceiver } from '../support/alert-receiver.js';
import { loopbackAlertService } from '../support/alert-service.js';

const SITES = 1_000;
const RULES = 10_000;
const EVENTS_PER_SITE = Number(process.env.ALERT_BENCH_EVENTS_PER_SITE ?? 300);
const DELIVERIES = 2_000;
const ZONES = ['UTC', 'Europe/Paris', 'America/New_York', 'Asia/Kolkata', 'Australia/Sydney'];
const PAGES = ['/', '/pricing', '/docs/start', '/blog/one', '/thanks/order', '/signup'];

function event(siteId: string, zone: string, ts: number, visitor: number, i: number): StoredEvent {
  const page = PAGES[i % PAGES.length]!;
  return storedEvent(
    { siteId, ts, visitorId: BigInt(visitor), sessionId: BigInt(visitor), sessionStart: i % 3 === 0, name: i % 7 === 0 ? 'signup' : 'pageview', page, entryPage: page, country: 'FR', browser: 'Chrome', os: 'Linux', device: 'desktop', screenWidth: 1280, language: 'fr' },
    zone,
  );
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-bench-alerts-'));
  const now = Date.now();
  const clock = new ManualClock(now);
  const { meta, alerts: store } = await openMetaStores({ sqlitePath: join(dir, 'meta.sqlite') });
  const events = await DuckDbEventStore.open({ path: join(dir, 'events.duckdb') });
  const receiver = await startReceiver();
  // Every receiver host of the bench resolves to the local receiver.
  const toLocalReceiver: Resolver = async () => [{ address: '127.0.0.1', family: 4 }];
  const alerts = loopbackAlertService({ meta, store, events, clock }, { resolve: toLocalReceiver });

  try {
    let started = Date.now();
    const org = await meta.createOrg('bench', now);
    const sites = [];
    const goals = [];
    for (let s = 0; s < SITES; s++) {
      const zone = ZONES[s % ZONES.length]!;
      const site = await meta.createSite(org.id, { domain: `site${s}.example`, name: `Site ${s}`, timezone: zone, retentionMonths: null, rawDays: 30, honorGpc: true }, `bench${String(s).padStart(7, '0')}`, now);
      sites.push(site);
      goals.push(await meta.createGoal(site.internalId, { name: 'Thanks', kind: 'page', pattern: '/thanks/*' }, now));
      const batch: StoredEvent[] = [];
      // A day of traffic, denser in the last hour so spikes exist.
      for (let i = 0; i < EVENTS_PER_SITE; i++) {
        const age = i % 4 === 0 ? (i * 7_919) % 3_600_000 : (i * 104_729) % 86_400_000;
        batch.push(event(site.id, zone, now - age, s * 100_000 + (i % 150), i));
      }
      await events.append(batch);
    }
    for (let r = 0; r < RULES; r++) {
      const site = sites[r % SITES]!;
      const type = RULE_TYPES[r % RULE_TYPES.length]!;
      const threshold = type === 'silence' ? 1 : type === 'drop' ? 20 : 10 + (r % 50);
      await store.createRule(
        { siteId: site.internalId, type, threshold, goalId: type === 'goal' ? goals[r % SITES]!.goalId : null, url: receiver.url('/bench'), secret: 'bench', emails: [] },
        now,
      );
    }
    console.log(`setup: ${SITES} sites, ${RULES} rules, ${SITES * EVENTS_PER_SITE} events in ${seconds(Date.now() - started)}`);

    const timings: number[] = [];
    for (let minute = 0; minute < 3; minute++) {
      clock.set(now + minute * 60_000);
      started = Date.now();
      const result = await alerts.evaluate(clock.now());
      timings.push(Date.now() - started);
      console.log(`evaluation ${minute + 1}: ${result.evaluated} rules, ${result.fired.length} fired, ${seconds(timings.at(-1)!)}`);
    }
    const worst = Math.max(...timings);
    console.log(`evaluation of ${RULES} rules: worst ${seconds(worst)} of each minute (budget 10 s) -> ${worst < 10_000 ? 'OK' : 'TOO SLOW'}`);

    // Throughput: queued deliveries to one receiver host (per-host cap 4), then spread over the
    // overall cap by lifting the per-host limit.
    const [rule] = await store.listRules(sites[0]!.internalId);
    for (const [label, service] of [
      ['one receiver host, default caps (32 total, 4 per host)', alerts],
      ['per-host cap lifted to 32', loopbackAlertService({ meta, store, events, clock }, { resolve: toLocalReceiver, maxPerHost: 32 })],
    ] as const) {
      await service.engine.runDue(); // leftovers of the evaluation above
      for (let i = 0; i < DELIVERIES; i++) await store.createDelivery({ id: randomUUID(), ruleId: rule!.id, test: true, body: '{"bench":true}' }, clock.now());
      started = Date.now();
      await service.engine.runDue();
      const elapsed = Date.now() - started;
      console.log(`delivery throughput, ${label}: ${DELIVERIES} in ${seconds(elapsed)} = ${Math.round((DELIVERIES * 1000) / elapsed)} deliveries/s`);
    }
  } finally {
    await alerts.drain();
    await receiver.close();
    await events.close();
    await meta.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
