// Nothing answered is lost while the event store refuses writes: over real HTTP, with the real
// DuckDB store seen through a switch (test/helpers/switched-event-store.ts), collection answers 202,
// the events wait in the spool on disk, and they reach the store once it takes writes again, in
// the order they were collected. A stop, a crash (kill -9) and a torn last record leave the spool
// readable, and the next start replays it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Spool, SPOOL_FILE } from '../../src/ingest/spool.js';
import { sql } from '../../src/sql/sql.js';
import { spawnService } from '../helpers/child.js';
import { ADMIN_TOKEN, browserHeaders, createSite, startTestServer, type TestServer } from '../helpers/server.js';
import { StoreSwitch } from '../helpers/switched-event-store.js';

/** Pages of a site's stored events, in the order they were appended. */
async function storedPages(server: TestServer, siteId: string): Promise<string[]> {
  const rows = await server.ctx.events.query<{ page: string }>(sql`SELECT page FROM events WHERE site_id = ${siteId} ORDER BY rowid`);
  return rows.map((r) => r.page);
}

async function health(url: string): Promise<{ ok: boolean; roles: string[]; spool?: { events: number; batches: number; bytes: number } }> {
  return (await fetch(`${url}/healthz`)).json() as never;
}

async function metric(url: string, name: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })).text();
  const m = new RegExp(`^${name} (\\d+)$`, 'm').exec(text);
  assert.ok(m, `${name} is in /metrics`);
  return Number(m[1]);
}

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 45_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const pages = (from: number, count: number) => Array.from({ length: count }, (_, i) => `/p/${from + i}`);

test('while the event store refuses writes, collection answers 202 and spools; once it takes them, each event is stored once, in order', { timeout: 90_000 }, async () => {
  const storeSwitch = new StoreSwitch();
  const server = await startTestServer({ events: (store) => storeSwitch.wrap(store), env: { SVC_FLUSH_INTERVAL_MS: '50' } });
  try {
    const site = await createSite(server);
    storeSwitch.failing = true;
    for (const page of pages(0, 40)) {
      assert.equal(await server.collect({ s: site.siteId, u: page }, browserHeaders(site.domain)), 202);
    }
    await server.flush();
    assert.ok(storeSwitch.refused >= 1);
    assert.equal(server.ctx.ingest.buffer.size, 0, 'the events are on disk, not in memory');
    const spooled = await health(server.url);
    assert.equal(spooled.ok, true);
    assert.deepEqual(spooled.roles, ['collect', 'api', 'worker']);
    assert.equal(spooled.spool?.events, 40);
    assert.ok(spooled.spool!.bytes > 0);
    assert.equal(await metric(server.url, 'svc_spool_events'), 40);
    assert.deepEqual(await storedPages(server, site.siteId), []);

    // Events collected after the store is back go behind the spooled ones.
    storeSwitch.failing = false;
    for (const page of pages(40, 5)) {
      assert.equal(await server.collect({ s: site.siteId, u: page }, browserHeaders(site.domain)), 202);
    }
    // The buffer's own timer replays the spool (after its backoff): nobody asks it to.
    await until('the spool to empty', async () => ((await health(server.url)).spool?.events === 0 ? true : undefined));
    await server.flush();
    assert.deepEqual(await storedPages(server, site.siteId), pages(0, 45));
    // The five went through the spool too: it still held batches when they were flushed.
    assert.equal(await metric(server.url, 'svc_spool_replayed_events_total'), 45);
    assert.equal(await metric(server.url, 'svc_spool_bytes'), 0);
  } finally {
    await server.stop();
  }
});

test('a stop while the store refuses writes keeps the events in the spool; a crash with the spool non-empty and a torn last record loses none of them', { timeout: 120_000 }, async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-spool-'));
  try {
    const storeSwitch = new StoreSwitch();
    const first = await startTestServer({ dataDir, events: (store) => storeSwitch.wrap(store), env: { SVC_COLLECT_RATE_LIMIT: '10000/10s' } });
    const site = await createSite(first);
    storeSwitch.failing = true;
    // Batches of 5 events (or fewer, when the buffer's own timer flushes first): 120 or more in the spool.
    for (let batch = 0; batch < 120; batch++) {
      for (const page of pages(batch * 5, 5)) assert.equal(await first.collect({ s: site.siteId, u: page }, browserHeaders(site.domain)), 202);
      await first.flush();
    }
    for (const page of pages(600, 3)) assert.equal(await first.collect({ s: site.siteId, u: page }, browserHeaders(site.domain)), 202);
    // The graceful stop writes what is still buffered behind them, and tries the store in vain.
    await first.stop({ keepData: true });
    const spooled = Spool.open(dataDir);
    const spooledBatches = spooled.batches;
    assert.equal(spooled.events, 603);
    spooled.close();
    // A crash in the middle of writing a record (never answered as written): a header and part of its payload.
    const header = Buffer.alloc(8);
    header.writeUInt32BE(4_000, 0);
    appendFileSync(join(dataDir, SPOOL_FILE), Buffer.concat([header, Buffer.from('{"batch":"torn","rows":[{"sit')]));

    // A real process starts on the spool, replays it, and is killed once it has stored part of it
    // (or, on a machine fast enough, all of it).
    const child = await spawnService(dataDir);
    await until('the child to replay a batch', async () => {
      const spool = (await health(child.url)).spool!;
      return spool.batches < spooledBatches ? true : undefined;
    });
    child.child.kill('SIGKILL');
    assert.equal((await child.exited).signal, 'SIGKILL');
    assert.match(child.logs(), /cut short/);
    assert.match(child.logs(), /the spool holds events an earlier run could not store: replaying them/);

    const left = Spool.open(dataDir);
    const leftBatches = left.batches;
    left.close();
    const restarted = await startTestServer({ dataDir });
    try {
      await restarted.ctx.ingest.buffer.replayed();
      const stored = await storedPages(restarted, site.siteId);
      // Each event at least once, in the order collected. A batch whose append committed just
      // before the kill, and whose `replayed` record the kill prevented, is appended again: a
      // store whose append of the same batch is idempotent (ClickHouse's) stores it once; DuckDB's
      // stores it twice.
      const firstSeen = [...new Set(stored)];
      assert.deepEqual(firstSeen, pages(0, 603));
      const repeated = stored.length - firstSeen.length;
      assert.ok(repeated <= 5, `${repeated} events stored twice: at most the one batch the kill interrupted`);
      console.log(`# the kill left ${leftBatches} of ${spooledBatches} batches in the spool; ${stored.length} events stored, ${repeated} twice (the batch in flight at the kill, if any)`);
      assert.equal((await health(restarted.url)).spool?.events, 0);
    } finally {
      await restarted.stop();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});
