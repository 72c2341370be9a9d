// What `kill -9` loses. Events are sent steadily to a real process, the process is killed, and a
// restart on its data finds every event answered before the window (plus a margin for a loaded
// machine's delays) stored, and each stored event stored once. Without the event log the window is
// the write buffer's flush interval; with it, the log's sync period, however long the interval.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnService, type ServiceProcess } from '../helpers/child.js';
import { ADMIN_TOKEN, BROWSER_UA, createRelayKey, createSite, startTestServer } from '../helpers/server.js';

/** The delays of a loaded machine's event loops (seen: up to 800 ms), and a flush's or a sync's own time. */
const MARGIN_MS = 1_000;

interface CrashRun {
  /** Page → when its 202 came back. */
  answeredAt: Map<string, number>;
  sent: number;
  killedAt: number;
  /** The pages the restart finds stored, once per stored row. */
  stored: string[];
  service: ServiceProcess;
}

/** Ten events and a pause of 20 ms, for at least 25 rounds and 3 s, then `kill -9` and a restart on the same data. */
async function crashUnderLoad(env: Record<string, string>, whileSending: (service: ServiceProcess) => Promise<() => Promise<void>>): Promise<CrashRun> {
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-crash-'));
  try {
    const setup = await startTestServer({ dataDir });
    const site = await createSite(setup, { domain: 'crash.example' });
    const relayKey = await createRelayKey(setup);
    await setup.stop();

    const service = await spawnService(dataDir, env);
    // A failed check while sending leaves no service running (its process would hold this file's open).
    try {
      const answeredAt = new Map<string, number>();
      let sent = 0;
      const send = async () => {
        const page = `/p/${sent}`;
        const i = sent++;
        const res = await fetch(`${service.url}/api/e`, {
          method: 'POST',
          headers: {
            'content-type': 'text/plain',
            origin: `https://${site.domain}`,
            'user-agent': BROWSER_UA,
            'x-svc-relay-key': relayKey,
            'x-svc-client-ip': `198.18.${i % 256}.${1 + (i >> 8)}`,
          },
          body: JSON.stringify({ s: site.siteId, u: page }),
        });
        await res.arrayBuffer();
        if (res.status === 202) answeredAt.set(page, Date.now());
      };
      const afterSending = await whileSending(service);
      const started = Date.now();
      for (let round = 0; round < 25 || Date.now() - started < 3_000; round++) {
        await Promise.all(Array.from({ length: 10 }, send));
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      await afterSending();
      const killedAt = Date.now();
      service.child.kill('SIGKILL');
      assert.equal((await service.exited).signal, 'SIGKILL');

      const restarted = await startTestServer({ dataDir });
      try {
        const stored = (await restarted.storedEvents(site.siteId)).map((r) => r.page as string);
        return { answeredAt, sent, killedAt, stored, service };
      } finally {
        await restarted.stop();
      }
    } finally {
      if (service.child.exitCode === null && service.child.signalCode === null) service.child.kill('SIGKILL');
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Every event answered more than `windowMs` (and the margin) before the kill is stored, once; nothing unanswered is stored. */
function assertLostWithin(run: CrashRun, windowMs: number): void {
  const { answeredAt, sent, killedAt, stored } = run;
  const storedPages = new Set(stored);
  const lost = [...answeredAt].filter(([page]) => !storedPages.has(page));
  const lostBeforeWindow = lost.filter(([, at]) => at < killedAt - windowMs - MARGIN_MS);
  const oldestLostMs = Math.max(0, ...lost.map(([, at]) => killedAt - at));
  console.log(`# ${answeredAt.size} events answered 202, ${storedPages.size} stored, ${lost.length} lost (answered at most ${oldestLostMs} ms before the kill)`);
  assert.equal(answeredAt.size, sent);
  assert.deepEqual(lostBeforeWindow, [], `events answered before the last ${windowMs} ms are stored`);
  assert.equal(stored.length, storedPages.size, 'no event is stored twice');
  for (const page of storedPages) assert.ok(answeredAt.has(page), `${page} is stored but was never answered`);
}

/** svc_buffer_flushes_total of a running process. */
async function flushes(service: ServiceProcess): Promise<number> {
  const res = await fetch(`${service.url}/metrics`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
  return Number(/^svc_buffer_flushes_total (\d+)/m.exec(await res.text())?.[1]);
}

test('without the event log, kill -9 loses only the events answered within the last flush interval', { timeout: 60_000 }, async () => {
  const flushIntervalMs = 200;
  const run = await crashUnderLoad({ SVC_FLUSH_INTERVAL_MS: String(flushIntervalMs), SVC_EVENT_LOG_SYNC_MS: '0' }, async (service) => {
    const before = await flushes(service);
    const started = Date.now();
    return async () => {
      // The buffer flushed on its interval (at least at a third of its rate, on a loaded machine: still
      // nearly twice the default second's), not on the default second's.
      const flushed = (await flushes(service)) - before;
      const sendingMs = Date.now() - started;
      assert.ok(flushed >= sendingMs / (3 * flushIntervalMs), `${flushed} flushes in ${sendingMs} ms`);
    };
  });
  assertLostWithin(run, flushIntervalMs);
});

test('with the event log, kill -9 loses only the events answered within its last sync period, though the buffer flushes once a minute', { timeout: 60_000 }, async () => {
  const syncMs = 100;
  const run = await crashUnderLoad({ SVC_FLUSH_INTERVAL_MS: '60000', SVC_EVENT_LOG_SYNC_MS: String(syncMs) }, async (service) => {
    const before = await flushes(service);
    return async () => assert.equal(await flushes(service), before, 'no flush while sending: every stored event came from the log');
  });
  assertLostWithin(run, syncMs);
});
