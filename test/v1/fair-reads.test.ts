// The event store's read connections are shared fairly between organisations: one organisation's
// burst of slow reads (8 journeys at once over 30 days of a busy site, as 8 shared-link viewers ask
// them) does not make another organisation's read wait behind it. Asserted on order (the other
// organisation's read is answered before the burst's queued reads), which holds on a loaded machine,
// and on latency against the same read beside a plain CPU load of the burst's size.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { StoredEvent } from '../../src/storage/events/schema.js';
import { createApiKey, createSite, startTestServer, type SiteFixture, type TestServer } from '../helpers/server.js';
import { storedEvent } from '../helpers/stored-event.js';
import { freshDatabaseUrl } from '../../support/clickhouse.js';

const DAY_MS = 86_400_000;
const BURST = 8;

/** Each engine with the busy site's events: as many as make one of its journeys outlast the quiet read. */
const ENGINES: ReadonlyArray<{ name: string; busyEvents: number; env(): Promise<Record<string, string>> }> = [
  { name: 'duckdb', busyEvents: 60_000, env: async () => ({}) },
  { name: 'clickhouse', busyEvents: 200_000, env: async () => ({ SVC_CLICKHOUSE_URL: await freshDatabaseUrl() }) },
];
/** The threads the burst keeps busy: its two statements at once, each run on a thread per core. */
const BUSY_THREADS = 2 * availableParallelism();

for (const engine of ENGINES) describe(`read slots shared between organisations (${engine.name})`, () => {
  let server: TestServer;
  let busy: SiteFixture;
  let quiet: SiteFixture;
  let busyKey: string;
  let quietKey: string;

  before(async () => {
    server = await startTestServer({ env: { SVC_API_RATE_LIMIT: '100000/60s', ...(await engine.env()) } });
    busy = await createSite(server);
    quiet = await createSite(server);
    busyKey = await createApiKey(server, busy.orgId);
    quietKey = await createApiKey(server, quiet.orgId);
    const start = Date.now() - 29 * DAY_MS;
    // The busy site's events: sessions of 5 pageviews over 400 pages, in the last 30 days.
    const event = (siteId: string, i: number): StoredEvent => {
      const ts = start + Math.floor((i / engine.busyEvents) * 28 * DAY_MS);
      return {
        ...storedEvent(i),
        siteId,
        ts,
        day: new Date(ts).toISOString().slice(0, 10),
        visitorId: BigInt(Math.floor(i / 5)),
        sessionId: BigInt(Math.floor(i / 5)),
        sessionStart: i % 5 === 0,
        page: `/p/${(i * 7919) % 400}`,
      };
    };
    for (let from = 0; from < engine.busyEvents; from += 20_000) {
      await server.ctx.events.append(Array.from({ length: 20_000 }, (_, i) => event(busy.siteId, from + i)));
    }
    await server.ctx.events.append(Array.from({ length: 2_000 }, (_, i) => event(quiet.siteId, i * 150)));
  });
  after(() => server?.stop());

  const read = (site: SiteFixture, key: string, path: string) =>
    fetch(`${server.url}/v1/sites/${site.siteId}${path}`, { headers: { authorization: `Bearer ${key}` } }).then(async (r) => {
      assert.equal(r.status, 200, await r.clone().text());
      await r.arrayBuffer();
    });

  /** The quiet organisation's dashboard read, filtered so that it reads raw events: its milliseconds. */
  async function quietRead(): Promise<number> {
    const started = performance.now();
    await read(quiet, quietKey, '/stats?period=30d&filter=browser:Chrome');
    return performance.now() - started;
  }

  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

  /** As many threads spinning as the burst keeps busy: how far the cores alone slow a read. */
  async function withCpuLoad<T>(work: () => Promise<T>): Promise<T> {
    const workers = Array.from({ length: BUSY_THREADS }, () => new Worker('const end = Date.now() + 60_000; while (Date.now() < end);', { eval: true }));
    try {
      return await work();
    } finally {
      await Promise.all(workers.map((w) => w.terminate()));
    }
  }

  test("one organisation's burst of slow reads: another's read is answered before the burst's queued reads", async () => {
    await quietRead();
    const alone = median([await quietRead(), await quietRead(), await quietRead()]);
    const cpuBound = await withCpuLoad(async () => median([await quietRead(), await quietRead(), await quietRead()]));

    const samples: number[] = [];
    const burstsBefore: number[] = [];
    for (let round = 0; round < 3; round++) {
      let burstDone = 0;
      const burst = Array.from({ length: BURST }, (_, i) => read(busy, busyKey, `/journeys?period=30d&steps=5&limit=${round * BURST + i + 1}`).then(() => burstDone++));
      // The burst's statements are asked and queued first.
      await new Promise((resolve) => setTimeout(resolve, 30));
      samples.push(await quietRead());
      burstsBefore.push(burstDone);
      await Promise.all(burst);
    }
    const loaded = median(samples);
    console.log(`quiet read alone ${alone.toFixed(0)} ms, beside a CPU load ${cpuBound.toFixed(0)} ms, beside the burst ${loaded.toFixed(0)} ms (${samples.map((s) => s.toFixed(0)).join(', ')}); burst reads done before it: ${burstsBefore.join(', ')}`);
    // The burst holds at most all connections but one: the other organisation's read takes that one
    // and is answered before the burst's reads that wait.
    assert.ok(median(burstsBefore) <= 2, `burst reads answered before the other organisation's: ${burstsBefore.join(', ')}`);
    assert.ok(loaded <= 2 * Math.max(alone, cpuBound), `beside the burst ${loaded.toFixed(0)} ms, alone ${alone.toFixed(0)} ms, beside a CPU load ${cpuBound.toFixed(0)} ms`);
  });
});
