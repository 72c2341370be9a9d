// bench/counters: events/s through the Counters, side by side in one run: in process, and Redis with
// each call its own EVALSHA or with the calls of one event-loop turn in one EVALSHA. Two levels:
// the stores alone (live-session touches, rate-limit hits), and whole events through the
// collection steps (Ingestor.collect: rate limit, sessions, enrichment, write buffer).
// Events are issued a number at a time (the mode's in-flight count), and awaited together.
//
//   node --import tsx bench/counters.ts      (BENCH_REDIS_URL: redis://127.0.0.1:6379, BENCH_EVENTS: 100000)
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { ManualClock } from '../src/core/clock.js';
import { PrometheusRegistry } from '../src/core/prometheus.js';
import { GeoDatabases } from '../src/ingest/geo.js';
import { Ingestor } from '../src/ingest/ingestor.js';
import { loadConfig } from '../src/config.js';
import { DuckDbEventStore } from '../src/storage/events/duckdb.js';
import { openSqliteMetaStore } from '../src/storage/meta/sqlite.js';
import { openCounters, type Counters } from '../src/storage/counters/open.js';
import { deleteKeys } from '../support/counters.js';
import { sessionAttributes } from '../support/events.js';
import { visitEvent } from './traffic.js';

const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const EVENTS = Number(process.env.BENCH_EVENTS ?? 100_000);
const VISITORS = Math.ceil(EVENTS / 4);
const sessionCacheBytes = loadConfig({}).sessionCacheBytes;
const T0 = Date.now();

const attrs = sessionAttributes({ referrer: 'news.example', utmCampaign: 'spring', country: 'DE', region: 'Berlin', city: 'Berlin', browser: 'Chrome', os: 'Windows', device: 'desktop' });

interface Mode {
  name: string;
  open(prefix: string): Promise<Counters>;
  inFlight: number;
}

const failOnFallback = (what: string, err: unknown) => {
  throw new Error(`Redis did not answer (${what}): ${String(err)}`);
};
const MODES: Mode[] = [
  { name: 'in process', open: () => openCounters(undefined, { sessionCacheBytes }), inFlight: 64 },
  { name: 'Redis, one call at a time (a round trip per event)', open: (keyPrefix) => openCounters(REDIS_URL, { sessionCacheBytes, keyPrefix, maxBatch: 1, onUnavailable: failOnFallback }), inFlight: 1 },
  { name: 'Redis, 64 in flight, an EVALSHA per call', open: (keyPrefix) => openCounters(REDIS_URL, { sessionCacheBytes, keyPrefix, maxBatch: 1, onUnavailable: failOnFallback }), inFlight: 64 },
  { name: 'Redis, 64 in flight, an EVALSHA per turn', open: (keyPrefix) => openCounters(REDIS_URL, { sessionCacheBytes, keyPrefix, onUnavailable: failOnFallback }), inFlight: 64 },
  // svc answers 202 before the steps run, so a server's events in flight are its rate times their latency, not its connections.
  { name: 'Redis, 1024 in flight, an EVALSHA per turn', open: (keyPrefix) => openCounters(REDIS_URL, { sessionCacheBytes, keyPrefix, onUnavailable: failOnFallback }), inFlight: 1024 },
];

/** Runs `count` calls of `one`, `inFlight` issued together then awaited; answers calls/s. */
async function rate(count: number, inFlight: number, one: (i: number) => unknown): Promise<number> {
  const start = performance.now();
  for (let i = 0; i < count; i += inFlight) {
    const wave: unknown[] = [];
    for (let j = i; j < Math.min(count, i + inFlight); j++) wave.push(one(j));
    await Promise.all(wave);
  }
  return count / ((performance.now() - start) / 1000);
}

/** Redis's CPU seconds so far (user and system). */
async function redisCpuSeconds(): Promise<number> {
  const info = await redis.info('cpu');
  return Number(/used_cpu_user:([\d.]+)/.exec(info)![1]) + Number(/used_cpu_sys:([\d.]+)/.exec(info)![1]);
}

async function storeRates(mode: Mode, prefix: string): Promise<{ touches: number; hits: number; benchCpu: number; redisCpuPerTouch: number }> {
  const counters = await mode.open(prefix);
  try {
    // Each visitor's four events a few seconds apart, visitors interleaved as in live traffic.
    const cpu = process.cpuUsage();
    const redisCpu = await redisCpuSeconds();
    const start = performance.now();
    const touches = await rate(EVENTS, mode.inFlight, (i) => counters.liveSessions.touch({ visitorId: BigInt(i % VISITORS), previousVisitorId: undefined, ts: T0 + i, page: `/p${i % 7}`, isPageview: true, start: () => attrs }));
    const elapsedMs = performance.now() - start;
    const used = process.cpuUsage(cpu);
    const redisCpuPerTouch = ((await redisCpuSeconds()) - redisCpu) / EVENTS;
    const limiter = counters.rateLimiter('bench', 100, 10_000);
    const hits = await rate(EVENTS, mode.inFlight, (i) => limiter.hit(`site|198.51.${i % 250}.0`, T0 + i));
    return { touches, hits, benchCpu: (used.user + used.system) / 1000 / elapsedMs, redisCpuPerTouch };
  } finally {
    await counters.close();
  }
}

/** Events/s through the collection steps, and the CPU an event costs, stored: the bench's process (user + system) and Redis. */
async function collectRate(mode: Mode, prefix: string): Promise<{ rate: number; cpuPerEvent: number; redisCpuPerEvent: number }> {
  const counters = await mode.open(prefix);
  const meta = await openSqliteMetaStore(':memory:');
  const events = await DuckDbEventStore.open({ path: ':memory:' });
  const clock = new ManualClock(T0);
  try {
    const org = await meta.createOrg('Bench', 0);
    const domain = 'bench.example';
    const site = await meta.createSite(org.id, { domain, name: 'Bench', timezone: 'UTC', retentionMonths: null, rawDays: 30, honorGpc: true }, 'BenchSite', 0);
    const ingest = new Ingestor({ clock, meta, events, geo: GeoDatabases.fromConfig(undefined).warm(), metrics: new PrometheusRegistry(), counters, collectRateLimit: { count: 1_000_000, windowMs: 10_000 } });
    const bodies = Array.from({ length: EVENTS }, (_, i) => {
      // bench/ingest's visitors, each one's four events a quarter of the run apart.
      const { ip, ua, event } = visitEvent((i % VISITORS) * 4 + Math.floor(i / VISITORS));
      return { body: Buffer.from(JSON.stringify({ s: site.id, ...event })), origin: `https://${domain}`, userAgent: ua, socketIp: ip, relay: {} };
    });
    await ingest.collect(bodies[0]!);
    const cpu = process.cpuUsage();
    const redisCpu = await redisCpuSeconds();
    const result = await rate(EVENTS, mode.inFlight, (i) => {
      if (i % 10_000 === 0) clock.advance(1000);
      return ingest.collect(bodies[i]!);
    });
    // Every event stored before the CPU is read: in process the steps never yield, so the write
    // buffer's flushes would otherwise run after the measure there and within it on Redis.
    await ingest.flush();
    const used = process.cpuUsage(cpu);
    const redisCpuPerEvent = ((await redisCpuSeconds()) - redisCpu) / EVENTS;
    await ingest.drain();
    return { rate: result, cpuPerEvent: (used.user + used.system) / 1e6 / EVENTS, redisCpuPerEvent };
  } finally {
    await events.close();
    await meta.close();
    await counters.close();
  }
}

const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 0 });
const prefix = `svc-bench:${randomBytes(4).toString('hex')}:`;
const fmt = (n: number) => Math.round(n).toLocaleString('en-US').replace(/,/g, ' ');
try {
  console.log(`${EVENTS} events, ${VISITORS} visitors; Redis ${(await redis.info('server')).match(/redis_version:(\S+)/)?.[1]} at ${REDIS_URL}`);
  console.log('| Counters | session touches/s | rate-limit hits/s | events/s through the collection steps | touches: the bench\'s CPU (cores), Redis CPU µs a touch | CPU µs an event through the steps: the bench; Redis; the bench against in process |');
  console.log('|---|---|---|---|---|---|');
  let inProcessCpu = 0;
  for (const [i, mode] of MODES.entries()) {
    const stores = await storeRates(mode, `${prefix}${i}s:`);
    const collected = await collectRate(mode, `${prefix}${i}c:`);
    if (i === 0) inProcessCpu = collected.cpuPerEvent;
    const cpu = `${stores.benchCpu.toFixed(2)}, ${(stores.redisCpuPerTouch * 1e6).toFixed(1)}`;
    const perEvent = `${(collected.cpuPerEvent * 1e6).toFixed(1)}; ${(collected.redisCpuPerEvent * 1e6).toFixed(1)}; ${(collected.cpuPerEvent / inProcessCpu).toFixed(2)}×`;
    console.log(`| ${mode.name} | ${fmt(stores.touches)} | ${fmt(stores.hits)} | ${fmt(collected.rate)} | ${cpu} | ${perEvent} |`);
  }
  // What Redis holds: the session hashes the last store run left, and a network's full window.
  const sessionKeys = (await redis.scan('0', 'MATCH', `${prefix}${MODES.length - 1}s:ls:*`, 'COUNT', 1000))[1].slice(0, 100);
  const sessionBytes = await Promise.all(sessionKeys.map((key) => redis.memory('USAGE', key)));
  const windowBytes = await redis.memory('USAGE', `${prefix}${MODES.length - 1}s:rl:bench:site|198.51.0.0`);
  console.log(`Redis memory: ${fmt(sessionBytes.reduce((a, b) => a! + b!, 0)! / sessionBytes.length)} bytes a session (mean of ${sessionBytes.length}), ${fmt(windowBytes!)} bytes a network's window of 100 hits`);
} finally {
  await deleteKeys(redis, prefix);
  redis.disconnect();
}
