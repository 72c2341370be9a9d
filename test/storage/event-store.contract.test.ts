// The EventStore contract, written once and run against every adapter (test/helpers/event-stores.ts).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { EVENTS_TABLE, type StoredEvent } from '../../src/storage/events/schema.js';
import { StatementTimeout, type EventStore, type TableSpec } from '../../src/storage/events/types.js';
import { sql, trusted, withParams } from '../../src/sql/sql.js';
import { EVENT_STORE_ADAPTERS as adapters } from '../helpers/event-stores.js';
import { event } from '../../support/events.js';

setFlagsFromString('--expose-gc');
/** A full garbage collection, as `--expose-gc` gives it. */
const collectGarbage = runInNewContext('gc') as () => void;

function row(i: number, overrides: Partial<StoredEvent> = {}): StoredEvent {
  return event({
    siteId: 'site', ts: Date.UTC(2026, 0, 1) + i, day: '2026-01-01', visitorId: -(2n ** 63n) + BigInt(i), sessionId: 2n ** 62n + BigInt(i),
    sessionStart: i === 0, page: `/p/${i}`, hostname: i % 3 ? 'example.org' : null, entryPage: '/p/0', referrer: i % 2 ? 'example.org' : null,
    country: 'FR', region: 'Île-de-France', city: 'Paris', browser: 'Firefox', os: 'Linux', device: 'desktop', screenWidth: i % 3 ? 1280 : null, language: 'fr',
    props: i % 2 ? JSON.stringify({ quote: '"\',\n', emoji: '🦆' }) : null, lcp: i % 2 ? 1234 : null, cls: i % 2 ? 0 : null, ...overrides,
  });
}

/** A table of the kind the read side owns: per site and day, a key and a count. */
const TALLY: TableSpec = {
  name: 'tally',
  columns: [
    { name: 'site_id', type: 'VARCHAR', nullable: false },
    { name: 'day', type: 'DATE', nullable: false },
    { name: 'kind', type: 'VARCHAR', nullable: false },
    { name: 'n', type: 'BIGINT', nullable: false },
    { name: 'note', type: 'VARCHAR', nullable: true },
  ],
  dayColumn: 'day',
  key: ['kind'],
};

type TallyRow = { site_id: string; day: string; kind: string; n: bigint; note: string | null };

/** Rows as a query (the form replaceRows takes), in the table's column order. */
const rowsOf = (rows: ReadonlyArray<[string, string, string, number, string | null]>) =>
  rows.map(([site, day, kind, n, note]) => sql`SELECT ${site}, CAST(${day} AS DATE), ${kind}, ${n}, ${note}`).reduce((a, b) => sql`${a} UNION ALL ${b}`);

const tally = (store: EventStore) =>
  store.query<TallyRow>(sql`SELECT site_id, CAST(day AS VARCHAR) AS day, kind, n, note FROM tally ORDER BY site_id, day, kind`);

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
    test('createTables gives a table made from an earlier spec the columns added since: NULL, or 0 when never NULL', async () => {
      await withStore(async (store) => {
        const earlier: TableSpec = { ...TALLY, columns: TALLY.columns.slice(0, 4) };
        await store.createTables([earlier]);
        await store.appendRows(earlier, [['site', '2026-01-01', 'a', 3]]);
        const extended: TableSpec = { ...TALLY, columns: [...TALLY.columns, { name: 'extra', type: 'BIGINT', nullable: false }] };
        await store.createTables([extended]);
        await store.createTables([extended]); // a second start finds nothing to add
        await store.appendRows(extended, [['site', '2026-01-02', 'b', 4, 'kept', 7]]);
        const rows = await store.query<{ kind: string; note: string | null; extra: unknown }>(sql`SELECT kind, note, extra FROM tally ORDER BY kind`);
        assert.deepEqual(rows.map((r) => [r.kind, r.note, Number(r.extra)]), [['a', null, 0], ['b', 'kept', 7]]);
      });
    });

    test('createTables lets a column its spec now allows to be NULL hold NULL, keeping the rows it holds; sumOfCounts keeps NULL', async () => {
      await withStore(async (store) => {
        await store.createTables([TALLY]);
        await store.appendRows(TALLY, [['site', '2026-01-01', 'a', 3, null]]);
        const unknowing: TableSpec = { ...TALLY, columns: TALLY.columns.map((c) => (c.name === 'n' ? { ...c, nullable: true } : c)) };
        await store.createTables([unknowing]);
        await store.createTables([unknowing]); // a second start finds nothing to change
        await store.appendRows(unknowing, [['site', '2026-01-01', 'b', null, null]]);
        // A replacement builds its rows in a table like the stored one: NULL goes through.
        const incoming: TableSpec = { ...unknowing, name: 'tally_incoming' };
        await store.createTables([incoming]);
        await store.appendRows(incoming, [['site', '2026-01-02', 'b', 4, null], ['site', '2026-01-02', 'c', null, null]]);
        await store.replaceRows(unknowing, { siteId: 'site', days: { from: '2026-01-02', to: '2026-01-02' } }, sql`SELECT site_id, day, kind, n, note FROM tally_incoming`);
        const sums = await store.query<{ kind: string; n: unknown }>(sql`SELECT kind, ${trusted(store.dialect.sumOfCounts('n'))} AS n FROM tally GROUP BY kind ORDER BY kind`);
        assert.deepEqual(sums.map((r) => [r.kind, r.n === null ? null : Number(r.n)]), [['a', 3], ['b', 4], ['c', null]], 'a sum leaves NULL out; NULL where every row is');
      });
    });

    test('a list column holds lists of text as written (order, repeats, every alphabet, empty), by statement only; one added to an earlier table reads empty', async () => {
      await withStore(async (store) => {
        const d = store.dialect;
        const earlier: TableSpec = { ...TALLY, columns: TALLY.columns.slice(0, 4) };
        await store.createTables([earlier]);
        await store.appendRows(earlier, [['s', '2026-01-01', 'old', 1]]);
        const listed: TableSpec = { ...TALLY, columns: [...earlier.columns, { name: 'items', type: 'VARCHAR', nullable: false, list: true }] };
        await store.createTables([listed]);
        const texts = ['/b', '/a', '/b', '/b', "it's \"quoted\"\n", '🦆 ü', ''];
        const list = withParams(`[${texts.map(() => '?').join(', ')}]`, ...texts);
        const day = (day: string) => trusted(d.dateLiteral(day));
        await store.replaceRows(
          listed,
          { siteId: 's', days: { from: '2026-01-02', to: '2026-01-03' } },
          sql`SELECT 's', ${day('2026-01-02')}, 'full', 2, ${list} UNION ALL SELECT 's', ${day('2026-01-03')}, 'empty', 3, ${trusted(d.sessionLists.listSlice("['x']", '1', '0'))}`,
        );
        const rows = await store.query<{ kind: string; items: unknown[] }>(sql`SELECT kind, items FROM tally ORDER BY kind`);
        assert.deepEqual(rows.map((r) => [r.kind, [...r.items].map(String)]), [['empty', []], ['full', texts], ['old', []]]);
        await assert.rejects(store.appendRows(listed, [['s', '2026-01-04', 'a', 1]]), /written by statements/);
        const nullable: TableSpec = { ...listed, name: 'bad_list', columns: [...earlier.columns, { name: 'items', type: 'VARCHAR', nullable: true, list: true }] };
        await assert.rejects(store.createTables([nullable]), /never be NULL/);
      });
    });

    test('keptElseGroupRows: the kept rows of a group, or all its rows where none is kept', async () => {
      await withStore(async (store) => {
        // Group 1 keeps two of its three rows, group 2 keeps none, group 3 keeps its only row; each
        // row's n is bound to a placeholder of the relation.
        const rows: Array<[number, string, number]> = [[1, 'a', 1], [1, 'b', 1], [1, 'x', 0], [2, 'y', 0], [2, 'z', 0], [3, 'c', 1]];
        const relation = `(${rows.map(([unit, k, kept]) => `SELECT ${unit} AS unit, '${k}' AS k, CAST(? AS BIGINT) AS n, ${kept} AS kept`).join(' UNION ALL ')})`;
        const read = withParams(`SELECT k, n FROM (${store.dialect.keptElseGroupRows(relation, ['k', 'n'], 'unit', 'kept')}) r ORDER BY k`, ...rows.map((_, i) => i * 10));
        const found = await store.query<{ k: string; n: unknown }>(read);
        assert.deepEqual(found.map((r) => [r.k, Number(r.n)]), [['a', 0], ['b', 10], ['c', 50], ['y', 30], ['z', 40]]);
      });
    });

    test('idsWhere with unnest: a row per id whose condition holds, none where none does, a NULL condition as false', async () => {
      await withStore(async (store) => {
        // Each row's text is compared with bound values; a NULL text makes its conditions NULL. (Every
        // text a CASE, so that each row's is of one nullable type on both engines.)
        const rows: Array<[number, string | null]> = [[1, 'a'], [2, 'b'], [3, null], [4, 'ab'], [5, 'zz']];
        const relation = rows.map(([n, t]) => `SELECT ${n} AS n, CASE WHEN ${t === null ? '1 = 0' : '1 = 1'} THEN '${t ?? ''}' END AS t`).join(' UNION ALL ');
        const cases = [
          { id: 7, when: `t = ?` },
          { id: 2 ** 40, when: `(t = ? OR ${store.dialect.contains('t')})` },
          { id: 9, when: `n = ?` },
        ];
        const ids = withParams(store.dialect.unnest(store.dialect.idsWhere(cases)), 'a', 'b', 'b', 5);
        const found = await store.query<{ n: unknown; id: unknown }>(sql`SELECT n, id FROM (SELECT n, ${ids} AS id FROM (${trusted(relation)}) r) u ORDER BY n, id`);
        assert.deepEqual(
          found.map((r) => [Number(r.n), Number(r.id)]),
          [[1, 7], [2, 2 ** 40], [4, 2 ** 40], [5, 9]],
        );
        assert.throws(() => store.dialect.idsWhere([{ id: 1.5, when: '1 = 1' }]), /not an integer/);
      });
    });

    test('fewRowsClause ends each select of a union: the same rows, parameters bound in order', async () => {
      await withStore(async (store) => {
        const few = trusted(store.dialect.fewRowsClause);
        const select = (n: number) => sql`SELECT ${n} AS n, ${`text ${n}`} AS t${few}`;
        const found = await store.query<{ n: unknown; t: string }>(sql`SELECT n, t FROM (${select(1)} UNION ALL ${select(2)}) u ORDER BY n`);
        assert.deepEqual(found.map((r) => [Number(r.n), r.t]), [[1, 'text 1'], [2, 'text 2']]);
        assert.deepEqual((await store.query<{ n: unknown }>(sql`SELECT ${3} AS n${few}`)).map((r) => Number(r.n)), [3]);
      });
    });

    test('a read past its deadline is cancelled with StatementTimeout, and every connection reads on', async () => {
      await withStore(async (store) => {
        // Billions of rows: no engine finishes this within the deadline.
        const endless =
          adapter.name === 'clickhouse'
            ? sql`SELECT sum(number * 3) AS n FROM numbers(1000000000000)`
            : sql`SELECT sum(a.range * b.range) AS n FROM range(1000000) a, range(1000000) b`;
        const started = performance.now();
        await assert.rejects(store.query(endless, { deadlineMs: 300 }), (err: unknown) => err instanceof StatementTimeout && err.deadlineMs === 300);
        const took = performance.now() - started;
        assert.ok(took < 10_000, `cancelled in ${Math.round(took)} ms`);
        for (let i = 0; i < 4; i++) {
          const [row] = await store.query<{ n: unknown }>(sql`SELECT 1 + ${i} AS n`, { deadlineMs: 5_000 });
          assert.equal(Number(row?.n), 1 + i, 'the connections answer after the cancel');
        }
      });
    });

    test('visitor days count each day\'s hashes apart, and a page tells its rows before LIMIT and totals where the dialect says so', async () => {
      await withStore(async (store) => {
        const d = store.dialect;
        // The same hashes on two days count twice; the extremes of 64 bits and small values included.
        const hashes = [-(2n ** 63n), 2n ** 63n - 1n, 0n, 1n, 2n, 1n];
        const rows = ['2026-01-01', '2026-01-02', '2026-12-31'].flatMap((day, di) =>
          hashes.map((visitorId, i) => row(di * 10 + i, { day, ts: Date.parse(`${day}T12:00:00Z`) + i, visitorId, page: `/p/${i % 2}` })),
        );
        await store.append(rows);
        const [pairs] = await store.query<{ n: unknown }>(sql`SELECT ${trusted(d.countVisitorDays('day', 'visitor_id'))} AS n FROM events WHERE site_id = 'site'`);
        assert.equal(Number(pairs!.n), 3 * 5);
        const totals = d.groupTotals();
        const page = await store.queryPage<{ k: string; n: unknown }>(
          sql`SELECT page AS k, ${trusted(d.countVisitorDays('day', 'visitor_id'))} AS n FROM events WHERE site_id = 'site'
            GROUP BY k ${trusted(totals ?? '')} HAVING k <> '/p/0' ORDER BY k LIMIT 1 OFFSET 5`,
        );
        assert.deepEqual(page.rows, [], 'past the last key');
        if (totals === null) {
          assert.deepEqual([page.rowsBeforeLimit, page.totals], [null, null]);
        } else {
          assert.equal(page.rowsBeforeLimit, 1, 'the keys HAVING keeps');
          assert.equal(Number(page.totals!.n), 3 * 5, 'totals over every key, HAVING aside');
        }
      });
    });

    test('a batch appended again under its id (the same rows, read back as a replay reads them) is stored once; another batch is stored', async () => {
      await withStore(async (store) => {
        const rows = Array.from({ length: 300 }, (_, i) => row(i));
        await store.append(rows, 'batch-1');
        await store.append(rows.map((r) => ({ ...r })), 'batch-1');
        await store.append([...rows.slice(0, 299), row(299, { page: '/other' })], 'batch-2');
        const [count] = await store.query<{ n: unknown; pages: unknown }>(sql`SELECT count(*) AS n, count(DISTINCT page) AS pages FROM events WHERE site_id = ${'site'}`);
        assert.deepEqual([Number(count!.n), Number(count!.pages)], [600, 301]);
      });
    });

    test('append then read back every column exactly (large batches span several chunks)', async () => {
      await withStore(async (store) => {
        const rows = Array.from({ length: 5000 }, (_, i) => row(i));
        await store.append(rows);
        const back = await store.query<Record<string, any>>(sql`SELECT *, CAST(day AS VARCHAR) AS d FROM events WHERE site_id = ${'site'} ORDER BY ts`);
        assert.equal(back.length, 5000);
        for (const i of [0, 1, 511, 512, 1023, 1024, 1025, 2047, 2048, 4999]) {
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
      const back = await store.query<Record<string, unknown>>(sql`SELECT * FROM events ORDER BY ts`);
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
        assert.deepEqual(await store.query(sql`SELECT count(*) AS n FROM events`), [{ n: 0n }]);
      });
    });

    test('a batch refused part-way stores none of its rows, in events or a table of the read side, even once its garbage is collected', async () => {
      await withStore(async (store) => {
        await store.createTables([TALLY]);
        // Row 700 is refused while the chunk before it waits in the appender, not yet handed over.
        const rows = Array.from({ length: 1000 }, (_, i) => row(i, i === 700 ? { screenWidth: 2 ** 31 } : {}));
        await assert.rejects(store.append(rows, 'refused'));
        await assert.rejects(store.appendRows(TALLY, [['s', '2026-01-01', 'a', 1, null], ['s', '2026-01-01', 'b', 'not a number', null]]));
        // An appender dropped with rows in it would hand them to its connection when collected.
        for (let i = 0; i < 3; i++) {
          collectGarbage();
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        await store.append([row(1000)], 'next');
        await store.appendRows(TALLY, [['t', '2026-01-01', 'a', 3, null]]);
        assert.deepEqual(await store.query(sql`SELECT count(*) AS n FROM events`), [{ n: 1n }]);
        assert.deepEqual((await tally(store)).map((r) => r.site_id), ['t']);
      });
    });

    test('64-bit values come back exact on both sides of every 32-bit boundary', async () => {
      await withStore(async (store) => {
        const instants = [0, 1, 2 ** 31 - 1, 2 ** 31, 2 ** 32 - 1, 2 ** 32, 2 ** 32 + 1, 1_768_435_200_123, 2 ** 53 - 1, -1, -(2 ** 32), -(2 ** 53 - 1)];
        const ids = [0n, -1n, 2n ** 63n - 1n, -(2n ** 63n), 2n ** 32n];
        await store.append(instants.map((ts, i) => row(i, { ts, visitorId: ids[i % ids.length]!, sessionId: -ids[i % ids.length]! - 1n })));
        const back = await store.query<{ ts: bigint; visitor_id: bigint; session_id: bigint }>(sql`SELECT ts, visitor_id, session_id FROM events ORDER BY ts`);
        const expected = instants.map((ts, i) => ({ ts: BigInt(ts), visitor_id: ids[i % ids.length]!, session_id: -ids[i % ids.length]! - 1n })).sort((a, b) => (a.ts < b.ts ? -1 : 1));
        assert.deepEqual(back, expected);
      });
    });

    test('a bulk write is invisible until commit, while ordinary appends go on beside it', async () => {
      await withStore(async (store) => {
          const count = async (siteId: string) => (await store.query<{ n: bigint }>(sql`SELECT count(*) AS n FROM events WHERE site_id = ${siteId}`))[0]!.n;
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
        assert.deepEqual(await store.query(sql`SELECT count(*) AS n FROM events`), [{ n: 0n }]);
        await store.close();
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });

    test('a batch is atomic: a bad row stores nothing of its batch', async () => {
      await withStore(async (store) => {
        const bad = row(1, { day: '2026-02-30x' });
        await assert.rejects(store.append([row(0), bad]));
        assert.deepEqual(await store.query(sql`SELECT count(*) AS n FROM events`), [{ n: 0n }]);
        await store.append([row(0)]);
        assert.deepEqual(await store.query(sql`SELECT count(*) AS n FROM events`), [{ n: 1n }]);
      });
    });

    test('data and the store id survive close and reopen; parameters are bound, never pasted', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'svc-events-'));
      try {
        let store = await adapter.open(dir);
        const id = store.id;
        await withStore(async (other) => assert.notEqual(other.id, id, 'another store has another id'));
        await store.append([row(0, { siteId: "it's" })]);
        await store.close();
        store = await adapter.open(dir);
        assert.equal(store.id, id);
        assert.ok(id.length > 0);
        assert.deepEqual(await store.query(sql`SELECT page FROM events WHERE site_id = ${"it's"}`), [{ page: '/p/0' }]);
        assert.deepEqual(await store.query(sql`SELECT page FROM events WHERE site_id = ${"x' OR '1'='1"}`), []);
        await store.close();
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });

    test('createTables creates what is missing, keeps what exists, and refuses a malformed spec', async () => {
      await withStore(async (store) => {
        await store.createTables([TALLY]);
        await store.replaceRows(TALLY, { siteId: 's', days: { from: '2026-01-01', to: '2026-01-01' } }, rowsOf([['s', '2026-01-01', 'a', 1, null]]));
        await store.createTables([TALLY]);
        assert.equal((await tally(store)).length, 1, 'an existing table keeps its rows');
        const column = (name: string) => TALLY.columns.find((c) => c.name === name)!;
        const refused = [
          { ...TALLY, name: 'bad_site', columns: [{ ...column('site_id'), nullable: true }, ...TALLY.columns.slice(1)] },
          { ...TALLY, name: 'bad_day', dayColumn: 'kind' },
          { ...TALLY, name: 'bad_key', key: ['nowhere'] },
          { ...TALLY, name: 'bad name; DROP TABLE events' },
        ];
        for (const spec of refused) await assert.rejects(store.createTables([spec]), Error, spec.name);
        await assert.rejects(store.query(sql`SELECT * FROM bad_key`), 'nothing of a refused spec is created');
        // A column said never NULL refuses NULL, from a statement or appended; one said nullable holds it.
        // On DuckDB. ClickHouse writes the column's default instead, on 18.16 (no insert_null_as_default)
        // and in replaceRows on 26.7 too (docs/scale-out.md): a gap left open, said in the docs.
        if (adapter.name === 'duckdb') {
          await assert.rejects(store.replaceRows(TALLY, { siteId: 's', days: { from: '2026-01-02', to: '2026-01-02' } }, sql`SELECT 's', ${trusted(store.dialect.dateLiteral('2026-01-02'))}, 'a', NULL, NULL`));
          await assert.rejects(store.appendRows(TALLY, [['s', '2026-01-02', 'a', null, null]]));
        }
        assert.deepEqual(await tally(store), [{ site_id: 's', day: '2026-01-01', kind: 'a', n: 1n, note: null }]);
      });
    });

    test('appendRows adds rows to a table of the read side, values in column order, text kept as sent', async () => {
      await withStore(async (store) => {
        await store.createTables([TALLY]);
        await store.appendRows(TALLY, [['s', '2026-01-02', 'a', 2 ** 40, null], ['s', '2026-01-01', 'b, "quoted"\n🦆', 0, 'x']]);
        await store.appendRows(TALLY, []);
        await store.appendRows(TALLY, [['t', '2026-01-01', 'a', 3, null]]);
        assert.deepEqual((await tally(store)).map((r) => [r.site_id, r.day, r.kind, Number(r.n), r.note]), [
          ['s', '2026-01-01', 'b, "quoted"\n🦆', 0, 'x'], ['s', '2026-01-02', 'a', 2 ** 40, null], ['t', '2026-01-01', 'a', 3, null],
        ]);
        // Appended rows are replaced like any other.
        await store.replaceRows(TALLY, { siteId: 's', days: { from: '2026-01-01', to: '2026-01-31' } }, null);
        assert.deepEqual((await tally(store)).map((r) => r.site_id), ['t']);
        await assert.rejects(store.appendRows(EVENTS_TABLE, [['s']]));
      });
    });

    test('replaceRows replaces one site\'s rows of a range of days, and nothing else', async () => {
      await withStore(async (store) => {
        await store.createTables([TALLY]);
        const all = (site: string) => ({ siteId: site, days: { from: '2026-01-01', to: '2026-01-31' } });
        await store.replaceRows(TALLY, all('s'), rowsOf([['s', '2026-01-01', 'a', 1, 'x'], ['s', '2026-01-02', 'a', 2, null], ['s', '2026-01-02', 'b', 3, null], ['s', '2026-01-03', 'a', 4, null]]));
        await store.replaceRows(TALLY, all('t'), rowsOf([['t', '2026-01-02', 'a', 5, null]]));
        // Rows of the query outside the scope (another site, another day) are dropped.
        await store.replaceRows(
          TALLY,
          { siteId: 's', days: { from: '2026-01-02', to: '2026-01-02' } },
          rowsOf([['s', '2026-01-02', 'c', 6, null], ['t', '2026-01-02', 'z', 7, null], ['s', '2026-01-03', 'z', 8, null]]),
        );
        assert.deepEqual((await tally(store)).map((r) => [r.site_id, r.day, r.kind, Number(r.n)]), [
          ['s', '2026-01-01', 'a', 1], ['s', '2026-01-02', 'c', 6], ['s', '2026-01-03', 'a', 4], ['t', '2026-01-02', 'a', 5],
        ]);
        // A scope narrowed by a column; then removal only (null); then everything up to a day.
        await store.replaceRows(TALLY, { siteId: 's', days: { from: '2026-01-01', to: '2026-01-03' }, where: { kind: 'a' } }, rowsOf([['s', '2026-01-03', 'a', 9, null]]));
        assert.deepEqual((await tally(store)).map((r) => [r.site_id, r.day, r.kind, Number(r.n)]), [
          ['s', '2026-01-02', 'c', 6], ['s', '2026-01-03', 'a', 9], ['t', '2026-01-02', 'a', 5],
        ]);
        await store.replaceRows(TALLY, { siteId: 's', days: { from: '2026-01-03', to: '2026-01-03' } }, null);
        await store.replaceRows(TALLY, { siteId: 't', days: { from: null, to: '2026-01-02' } }, null);
        assert.deepEqual((await tally(store)).map((r) => [r.site_id, r.day, r.kind]), [['s', '2026-01-02', 'c']]);
        await assert.rejects(store.replaceRows(TALLY, { siteId: 's', days: { from: '2026-01-01', to: '2026-01-31' }, where: { nowhere: 'x' } }, null));
      });
    });

    test('replaceRows over a table of few rows a day replaces a range across a year\'s end and keeps the rest of each year', async () => {
      await withStore(async (store) => {
        const daily = { ...TALLY, name: 'tally_daily', fewRowsADay: true } satisfies TableSpec;
        await store.createTables([daily]);
        const days = ['2025-01-15', '2025-12-30', '2025-12-31', '2026-01-01', '2026-01-02', '2026-11-24'];
        const stored = () => store.query<TallyRow>(sql`SELECT site_id, CAST(day AS VARCHAR) AS day, kind, n, note FROM tally_daily ORDER BY site_id, day, kind`);
        const read = async () => (await stored()).map((r) => [r.site_id, r.day, Number(r.n)]);
        for (const site of ['s', 't']) {
          await store.replaceRows(daily, { siteId: site, days: { from: '2025-01-01', to: '2026-12-31' } }, rowsOf(days.map((day, i) => [site, day, 'a', i, null])));
        }
        await store.replaceRows(daily, { siteId: 's', days: { from: '2025-12-31', to: '2026-01-01' } }, rowsOf([['s', '2025-12-31', 'a', 20, null], ['s', '2026-01-01', 'a', 30, null]]));
        const untouched = days.map((day, i) => ['t', day, i]);
        /** Site s's rows of the two days around the year's end: day, kind, n. */
        const yearEnd = async () =>
          (await stored())
            .filter((r) => r.site_id === 's' && (r.day === '2025-12-31' || r.day === '2026-01-01'))
            .map((r) => [r.day, r.kind, Number(r.n)]);
        assert.deepEqual(await read(), [['s', '2025-01-15', 0], ['s', '2025-12-30', 1], ['s', '2025-12-31', 20], ['s', '2026-01-01', 30], ['s', '2026-01-02', 4], ['s', '2026-11-24', 5], ...untouched]);
        // A scope narrowed by a column across the year's end keeps the other keys' rows of both years.
        await store.replaceRows(daily, { siteId: 's', days: { from: '2025-12-31', to: '2026-01-01' } }, rowsOf([['s', '2025-12-31', 'b', 40, null], ['s', '2026-01-01', 'b', 50, null]]));
        await store.replaceRows(daily, { siteId: 's', days: { from: '2025-12-31', to: '2026-01-01' }, where: { kind: 'b' } }, rowsOf([['s', '2026-01-01', 'b', 60, null]]));
        assert.deepEqual(
          await yearEnd(),
          [['2026-01-01', 'b', 60]],
        );
        await store.replaceRows(daily, { siteId: 's', days: { from: '2025-12-31', to: '2026-01-01' } }, rowsOf([['s', '2025-12-31', 'a', 20, null], ['s', '2025-12-31', 'b', 40, null], ['s', '2026-01-01', 'a', 30, null], ['s', '2026-01-01', 'b', 50, null]]));
        await store.replaceRows(daily, { siteId: 's', days: { from: '2025-12-31', to: '2026-01-01' }, where: { kind: 'a' } }, rowsOf([['s', '2025-12-31', 'a', 21, null]]));
        assert.deepEqual(
          await yearEnd(),
          [['2025-12-31', 'a', 21], ['2025-12-31', 'b', 40], ['2026-01-01', 'b', 50]],
        );
        // Removal up to a day: the earlier year whole, the later one from that day on.
        await store.replaceRows(daily, { siteId: 's', days: { from: null, to: '2026-01-01' } }, null);
        assert.deepEqual(await read(), [['s', '2026-01-02', 4], ['s', '2026-11-24', 5], ...untouched]);
      });
    });

    test('replaceRows is all or nothing: a failing query leaves the old rows, readers never see a mix', async () => {
      await withStore(async (store) => {
        await store.createTables([TALLY]);
        const scope = { siteId: 's', days: { from: '2026-01-01', to: '2026-01-01' } };
        const digits = trusted(`(${Array.from({ length: 10 }, (_, i) => `SELECT ${i} AS d`).join(' UNION ALL ')})`);
        const day = trusted(store.dialect.dateLiteral('2026-01-01'));
        // 1000 rows of one day, all worth n (one join per SELECT: ClickHouse 18.16 takes no more).
        const generation = (n: number) =>
          sql`SELECT 's', ${day}, 'k' || CAST(a.d * 100 + bc.d AS VARCHAR), ${n}, NULL FROM ${digits} a
            CROSS JOIN (SELECT b.d * 10 + c.d AS d FROM ${digits} b CROSS JOIN ${digits} c) bc`;
        await store.replaceRows(TALLY, scope, generation(1));
        await assert.rejects(store.replaceRows(TALLY, scope, sql`SELECT 's', ${day}, 'k', CAST('not a number' AS BIGINT), NULL`));
        const seen = () => store.query<{ rows: bigint; total: bigint }>(sql`SELECT count(*) AS rows, sum(n) AS total FROM tally WHERE site_id = ${'s'}`);
        assert.deepEqual(await seen(), [{ rows: 1000n, total: 1000n }]);
        for (let n = 2; n <= 6; n++) {
          const reads = Array.from({ length: 4 }, () => seen());
          await store.replaceRows(TALLY, scope, generation(n));
          for (const [read] of await Promise.all(reads)) {
            assert.equal(read!.rows, 1000n);
            assert.ok(read!.total === BigInt(1000 * n) || read!.total === BigInt(1000 * (n - 1)), `a read saw ${read!.total}`);
          }
        }
      });
    });

    test('replaceTogether changes several tables as one: a failing part leaves every table as it was', async () => {
      await withStore(async (store) => {
        const other: TableSpec = { ...TALLY, name: 'tally_other' };
        await store.createTables([TALLY, other]);
        const scope = { siteId: 's', days: { from: '2026-01-30', to: '2026-02-02' } };
        const both = async () => [await tally(store), await store.query<TallyRow>(sql`SELECT kind, n FROM tally_other ORDER BY kind`)];
        // Two months: ClickHouse swaps a partition of each.
        const rows = (n: number) => rowsOf([['s', '2026-01-31', 'a', n, null], ['s', '2026-02-01', 'b', n, null]]);
        await store.replaceTogether([{ table: TALLY, scope, rows: rows(1) }, { table: other, scope, rows: rows(1) }]);
        const before = await both();
        assert.deepEqual(before[1]!.map((r) => [r.kind, Number(r.n)]), [['a', 1], ['b', 1]]);
        await assert.rejects(store.replaceTogether([{ table: TALLY, scope, rows: rows(2) }, { table: other, scope, rows: sql`SELECT 's', ${trusted(store.dialect.dateLiteral('2026-01-31'))}, 'a', CAST('not a number' AS BIGINT), NULL` }]));
        assert.deepEqual(await both(), before);
        await store.replaceTogether([{ table: TALLY, scope, rows: rows(3) }, { table: other, scope, rows: null }]);
        assert.deepEqual((await tally(store)).map((r) => Number(r.n)), [3, 3]);
        assert.deepEqual((await both())[1], []);
        await assert.rejects(store.replaceTogether([{ table: EVENTS_TABLE, scope, rows: null }]), /append only/, 'events are removed by replaceRows alone');
      });
    });

    test('a scratch table holds rows for the next replaceRows to read', async () => {
      await withStore(async (store) => {
        const scratch: TableSpec = { ...TALLY, name: 'tally_scratch', scratch: true };
        await store.createTables([TALLY, scratch]);
        const scope = { siteId: 's', days: { from: '2026-01-01', to: '2026-01-02' } };
        await store.replaceRows(scratch, scope, rowsOf([['s', '2026-01-01', 'a', 1, null], ['s', '2026-01-02', 'b', 2, 'n']]));
        await store.replaceRows(TALLY, scope, sql`SELECT site_id, day, kind, n * 10, note FROM tally_scratch WHERE site_id = ${'s'}`);
        await store.replaceRows(scratch, scope, null);
        assert.deepEqual((await tally(store)).map((r) => [r.day, r.kind, Number(r.n), r.note]), [['2026-01-01', 'a', 10, null], ['2026-01-02', 'b', 20, 'n']]);
        await store.replaceRows(TALLY, scope, sql`SELECT site_id, day, kind, n, note FROM tally_scratch`);
        assert.deepEqual(await tally(store), [], 'the scratch rows were removed');
      });
    });

    test('the events table is one of the tables: its rows go by site and day', async () => {
      await withStore(async (store) => {
        await store.append([row(0, { day: '2026-01-01' }), row(1, { day: '2026-01-02' }), row(2, { day: '2026-01-03', siteId: 'other' })]);
        await store.replaceRows(EVENTS_TABLE, { siteId: 'site', days: { from: null, to: '2026-01-01' } }, null);
        const left = await store.query<{ site_id: string; day: string }>(sql`SELECT site_id, CAST(day AS VARCHAR) AS day FROM ${trusted(EVENTS_TABLE.name)} ORDER BY ts`);
        assert.deepEqual(left, [{ site_id: 'site', day: '2026-01-02' }, { site_id: 'other', day: '2026-01-03' }]);
      });
    });
  });
}
