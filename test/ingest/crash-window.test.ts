// What `kill -9` loses: the events answered 202 since the write buffer's last flush. Events are
// sent steadily to a real process with a short flush interval, the process is killed, and a
// restart on its data finds every event answered more than one interval (plus a margin for the
// flush itself and a loaded machine's delays) before the kill.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnService } from '../helpers/child.js';
import { ADMIN_TOKEN, BROWSER_UA, createRelayKey, createSite, startTestServer } from '../helpers/server.js';

const FLUSH_INTERVAL_MS = 200;
/** A flush's own time (a few ms) and the delays of a loaded machine's event loops (seen: up to 800 ms). */
const MARGIN_MS = 1_000;

test('kill -9 loses only the events answered within the last flush interval', { timeout: 60_000 }, async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-crash-'));
  try {
    const setup = await startTestServer({ dataDir });
    const site = await createSite(setup, { domain: 'crash.example' });
    const relayKey = await createRelayKey(setup);
    await setup.stop();

    const service = await spawnService(dataDir, { SVC_FLUSH_INTERVAL_MS: String(FLUSH_INTERVAL_MS) });
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
    const flushes = async () => {
      const res = await fetch(`${service.url}/metrics`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
      return Number(/^svc_buffer_flushes_total (\d+)/m.exec(await res.text())?.[1]);
    };
    const flushesBefore = await flushes();
    const started = Date.now();
    // Ten events and a pause of 20 ms, for at least 25 rounds and 3 s: every flush interval has events in it.
    for (let round = 0; round < 25 || Date.now() - started < 3_000; round++) {
      await Promise.all(Array.from({ length: 10 }, send));
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    // The buffer flushed on its interval (at least at half its rate, on a loaded machine), not on the default second's.
    const flushed = (await flushes()) - flushesBefore;
    const sendingMs = Date.now() - started;
    assert.ok(flushed >= sendingMs / (2 * FLUSH_INTERVAL_MS), `${flushed} flushes in ${sendingMs} ms`);
    const killedAt = Date.now();
    service.child.kill('SIGKILL');
    assert.equal((await service.exited).signal, 'SIGKILL');

    const restarted = await startTestServer({ dataDir });
    let stored: Set<string>;
    try {
      stored = new Set((await restarted.storedEvents(site.siteId)).map((r) => r.page as string));
    } finally {
      await restarted.stop();
    }
    const lost = [...answeredAt].filter(([page]) => !stored.has(page));
    const lostBeforeWindow = lost.filter(([, at]) => at < killedAt - FLUSH_INTERVAL_MS - MARGIN_MS);
    const oldestLostMs = Math.max(0, ...lost.map(([, at]) => killedAt - at));
    console.log(`# ${answeredAt.size} events answered 202, ${stored.size} stored, ${lost.length} lost (answered at most ${oldestLostMs} ms before the kill)`);
    assert.equal(answeredAt.size, sent);
    assert.deepEqual(lostBeforeWindow, [], 'events answered before the last interval are stored');
    for (const page of stored) assert.ok(answeredAt.has(page), `${page} is stored but was never answered`);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});
