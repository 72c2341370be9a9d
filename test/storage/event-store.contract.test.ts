// The EventStore contract, written once and run against every adapter (DuckDB today).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDbEventStore } from '../../src/storage/events/duckdb.js';
import type { StoredEvent } from '../../src/storage/events/schema.js';
import type { EventStore } from '../../src/storage/events/types.js';

const adapters: Array<{ name: string; open(path: string): Promise<EventStore> }> = [
  { name: 'duckdb', open: (dir) => DuckDbEventStore.open({ path: join(dir, 'events.duckdb') }) },
];

function row(i: number, overrides: Partial<StoredEvent> = {}): StoredEvent {
  return {
    siteId: 'site', ts: Date.UTC(2026, 0, 1) + i, day: '2026-01-01', visitorId: -(2n ** 63n) + BigInt(i), sessionId: 2n ** 62n + BigInt(i),
    sessionStart: i === 0, name: 'pageview', page: `/p/${i}`, entryPage: '/p/0', referrer: i % 2 ? 'example.org' : null,
    utmSource: null, utmMedium: null, utmCampaign: null, country: 'FR', region: 'Île-de-France', city: 'Paris',
    browser: 'Firefox', os: 'Linux', device: 'desktop', screenWidth: i % 3 ? 1280 : null, language: 'fr',
    props: i % 2 ? JSON.stringify({ quote: '"\',\n', emoji: '🦆' }) : null, engagedMs: null, scrollDepth: null, ...overrides,
  };
}

for (const adapter of adapters) {
  /** A fresh store in a directory of its own, closed and removed after `body`. */
  async function withStore(body: (store: EventStore) => Promise<void>): Promise<void> {
    const dir = mkdtempSync(join(tmpdir(), 'svc-events-'));
    const store = await adapter.open(dir);
    try {
      await body(store);
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }

  describe(`EventStore contract: ${adapter.name}`, () => {
    test('append then read back every column exactly (large batches span several chunks)', async () => {
      await withStore(async (store) => {
        const rows = Array.from({ length: 5000 }, (_, i) => row(i));
        await store.append(rows);
        const back = await store.query<Record<string, any>>('SELECT *, CAST(day AS VARCHAR) AS d FROM events WHERE site_id = ? ORDER BY ts', ['site']);
        assert.equal(back.length, 5000);
        for (const i of [0, 1, 2047, 2048, 4999]) {
          const r = back[i]!;
          const e = rows[i]!;
          assert.deepEqual(
            [r.ts, r.d, r.visitor_id, r.session_id, r.session_start, r.page, r.referrer, r.screen_width, r.props, r.region],
            [BigInt(e.ts), e.day, e.visitorId, e.sessionId, e.sessionStart, e.page, e.referrer, e.screenWidth, e.props, e.region],
          );
        }
      });
    });

    test('strings of every length and alphabet, empty strings and nulls come back as written', async () => {
      await withStore(async (store) => {
        // Around 12 bytes (DuckDB inlines short strings), non-ASCII of few characters but more bytes,
        // a lone high code unit's neighbour (é), astral characters, and the empty string.
        const texts = ['', 'a', 'abcdefghijk', 'abcdefghijkl', 'abcdefghijklm', 'é', 'Île-de-Franc', 'Zürich', '🦆🦆🦆', 'x'.repeat(5000), '日本語のページ'];
        const nullable = ['entryPage', 'referrer', 'utmSource', 'utmMedium', 'utmCampaign', 'country', 'region', 'city', 'browser', 'os', 'device', 'language', 'props'] as const;
        const rows = Array.from({ length: 3000 }, (_, i) => {
          const text = texts[i % texts.length]!;
          const overrides: Partial<StoredEvent> = { page: text, name: text || 'pageview', screenWidth: i % 7 ? i : null, engagedMs: i % 5 ? null : 86_400_000, scrollDepth: i % 5 ? null : 100 };
          for (const [k, key] of nullable.entries()) (overrides as Record<string, unknown>)[key] = (i + k) % 3 === 0 ? null : text;
          return row(i, overrides);
      });
      await store.append(rows);
      const back = await store.query<Record<string, unknown>>('SELECT * FROM events ORDER BY ts');
      const columns = ['entry_page', 'referrer', 'utm_source', 'utm_medium', 'utm_campaign', 'country', 'region', 'city', 'browser', 'os', 'device', 'language', 'props'];
      rows.forEach((e, i) => {
        const r = back[i]!;
        assert.deepEqual(
          [r.page, r.name, r.screen_width, r.engaged_ms, r.scroll_depth, ...columns.map((c) => r[c])],
          [e.page, e.name, e.screenWidth, e.engagedMs, e.scrollDepth, ...nullable.map((k) => e[k])],
          `row ${i}`,
        );
      });
      });
    });

    test('a value a column cannot hold is refused, not wrapped or shifted', async () => {
      await withStore(async (store) => {
        await assert.rejects(store.append([row(0, { screenWidth: 2 ** 31 })]));
        await assert.rejects(store.append([row(0, { engagedMs: 1.5 })]));
        await assert.rejects(store.append([row(0, { day: '2026-02-30' })]));
        await assert.rejects(store.append([row(0, { ts: 2 ** 53 })]));
        await assert.rejects(store.append([row(0, { visitorId: 2n ** 63n })]));
        assert.deepEqual(await store.query('SELECT count(*) AS n FROM events'), [{ n: 0n }]);
      });
    });

    test('64-bit values come back exact on both sides of every 32-bit boundary', async () => {
      await withStore(async (store) => {
        const instants = [0, 1, 2 ** 31 - 1, 2 ** 31, 2 ** 32 - 1, 2 ** 32, 2 ** 32 + 1, 1_768_435_200_123, 2 ** 53 - 1, -1, -(2 ** 32), -(2 ** 53 - 1)];
        const ids = [0n, -1n, 2n ** 63n - 1n, -(2n ** 63n), 2n ** 32n];
        await store.append(instants.map((ts, i) => row(i, { ts, visitorId: ids[i % ids.length]!, sessionId: -ids[i % ids.length]! - 1n })));
        const back = await store.query<{ ts: bigint; visitor_id: bigint; session_id: bigint }>('SELECT ts, visitor_id, session_id FROM events ORDER BY ts');
        const expected = instants.map((ts, i) => ({ ts: BigInt(ts), visitor_id: ids[i % ids.length]!, session_id: -ids[i % ids.length]! - 1n })).sort((a, b) => (a.ts < b.ts ? -1 : 1));
        assert.deepEqual(back, expected);
      });
    });

    test('a bulk write is invisible until commit, while ordinary appends go on beside it', async () => {
      await withStore(async (store) => {
          const count = async (siteId: string) => (await store.query<{ n: bigint }>('SELECT count(*) AS n FROM events WHERE site_id = ?', [siteId]))[0]!.n;
        const bulk = await store.beginBulk();
        await bulk.append(Array.from({ length: 5000 }, (_, i) => row(i, { siteId: 'bulk' })));
        await store.append([row(0, { siteId: 'live' })]);
        await bulk.append([row(5000, { siteId: 'bulk' })]);
        assert.equal(await count('bulk'), 0n, 'nothing before commit');
        assert.equal(await count('live'), 1n, 'a live append is not held up by the bulk write');
        await bulk.commit();
        assert.equal(await count('bulk'), 5001n);
        await assert.rejects(bulk.append([row(1, { siteId: 'bulk' })]), /ended/);
        await assert.rejects(bulk.commit(), /ended/);

        const abandoned = await store.beginBulk();
        await abandoned.append(Array.from({ length: 3000 }, (_, i) => row(i, { siteId: 'gone' })));
        await abandoned.rollback();
        await abandoned.rollback(); // once over, a rollback does nothing
        assert.equal(await count('gone'), 0n);

        const failing = await store.beginBulk();
        await failing.append([row(0, { siteId: 'bad' })]);
        await assert.rejects(failing.append([row(1, { siteId: 'bad', day: 'not-a-day' })]));
        await failing.rollback();
        assert.equal(await count('bad'), 0n);
      });
    });

    test('closing the store abandons an open bulk write', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'svc-events-'));
      try {
        let store = await adapter.open(dir);
        const bulk = await store.beginBulk();
        await bulk.append([row(0)]);
        await store.close();
        store = await adapter.open(dir);
        assert.deepEqual(await store.query('SELECT count(*) AS n FROM events'), [{ n: 0n }]);
        await store.close();
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });

    test('a batch is atomic: a bad row stores nothing of its batch', async () => {
      await withStore(async (store) => {
        const bad = row(1, { day: '2026-02-30x' });
        await assert.rejects(store.append([row(0), bad]));
        assert.deepEqual(await store.query('SELECT count(*) AS n FROM events'), [{ n: 0n }]);
        await store.append([row(0)]);
        assert.deepEqual(await store.query('SELECT count(*) AS n FROM events'), [{ n: 1n }]);
      });
    });

    test('data survives close and reopen; parameters are bound, never pasted', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'svc-events-'));
      try {
        let store = await adapter.open(dir);
        await store.append([row(0, { siteId: "it's" })]);
        await store.close();
        store = await adapter.open(dir);
        assert.deepEqual(await store.query('SELECT page FROM events WHERE site_id = ?', ["it's"]), [{ page: '/p/0' }]);
        assert.deepEqual(await store.query('SELECT page FROM events WHERE site_id = ?', ["x' OR '1'='1"]), []);
        await store.close();
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });
}
