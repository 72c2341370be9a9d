// What only the ClickHouse adapter promises beyond the EventStore contract: an append retried after
// a lost answer (the rows stored, the caller told it failed) stores its rows once; a batch that
// failed half-way (one month stored, the next not) is completed by its retry, not doubled.
// The answers are lost by a proxy between the store and its private server. A column the spec says
// is repeated is a LowCardinality column, also in a table made before it was. A table of few rows a
// day is partitioned by site and year; one made by month before keeps its months. A select that
// reads few rows runs on one thread. Removing one site's events spares another's arriving meanwhile.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, request, type Server } from 'node:http';
import { ClickHouseEventStore, parseClickHouseUrl } from '../../src/storage/events/clickhouse.js';
import { EVENTS_TABLE, type StoredEvent } from '../../src/storage/events/schema.js';
import type { TableSpec } from '../../src/storage/events/types.js';
import { sql, trusted } from '../../src/sql/sql.js';
import { clickhouseServer, freshDatabaseUrl } from '../../support/clickhouse.js';
import { countTable } from '../helpers/table-specs.js';
import { event as storedRow } from '../../support/events.js';

function event(i: number, day = '2026-01-31'): StoredEvent {
  return storedRow({ siteId: 'site', ts: Date.parse(`${day}T12:00:00Z`) + i, day, visitorId: BigInt(i), sessionId: BigInt(i), sessionStart: true, page: `/p/${i}`, entryPage: null });
}

/** What the proxy does to the next INSERT into events: pass it, store it and lose the answer, or refuse it unsent. */
type InsertFate = 'pass' | 'lose-answer' | 'refuse';

/** An HTTP proxy to the ClickHouse server; `fates` decide the INSERTs into events, in order. */
async function lossyProxy(target: string, fates: InsertFate[]): Promise<{ url: string; server: Server }> {
  const upstream = new URL(target);
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const fate = body.subarray(0, 40).toString().startsWith('INSERT INTO events') ? (fates.shift() ?? 'pass') : 'pass';
      if (fate === 'refuse') {
        res.writeHead(500).end('Code: 999, e.displayText() = DB::Exception: refused by the test proxy, e.what() = DB::Exception');
        return;
      }
      const forward = request({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers }, (up) => {
        const answer: Buffer[] = [];
        up.on('data', (c: Buffer) => answer.push(c));
        up.on('end', () => {
          // The server has stored the rows; the client never hears so.
          if (fate === 'lose-answer') req.socket.destroy();
          else res.writeHead(up.statusCode ?? 500, up.headers).end(Buffer.concat(answer));
        });
      });
      forward.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, server };
}

describe('ClickHouse EventStore', () => {
  let direct: ClickHouseEventStore;
  let databaseUrl: string;
  before(async () => {
    databaseUrl = await freshDatabaseUrl();
    direct = await ClickHouseEventStore.open({ url: databaseUrl });
  });
  after(() => direct.close());

  const count = async () => (await direct.query<{ n: bigint }>(sql`SELECT count() AS n FROM events`))[0]!.n;

  test('the same batch appended twice is stored once; another batch beside it is not mistaken for it', async () => {
    const batch = Array.from({ length: 100 }, (_, i) => event(i));
    await direct.append(batch);
    await direct.append(batch);
    assert.equal(await count(), 100n);
    await direct.append(batch.slice(0, 99));
    assert.equal(await count(), 199n, 'a batch of other rows is a batch of its own');
  });

  test('a retry after a lost answer, and after a batch stored half-way, stores every row once', async () => {
    const { database } = parseClickHouseUrl(databaseUrl);
    const server = await clickhouseServer();
    const fates: InsertFate[] = [];
    const proxy = await lossyProxy(server.url, fates);
    const store = await ClickHouseEventStore.open({ url: `${proxy.url}/${database}` });
    try {
      const before = await count();
      const lost = Array.from({ length: 50 }, (_, i) => event(1000 + i, '2026-02-10'));
      fates.push('lose-answer');
      await assert.rejects(store.append(lost), 'the caller is told the append failed');
      assert.equal(await count(), before + 50n, 'the server stored the rows');
      await store.append(lost);
      assert.equal(await count(), before + 50n, 'the retry stored nothing more');

      // January then February: the first month goes in, the second is refused; the retry adds February only.
      const spanning = [...Array.from({ length: 30 }, (_, i) => event(2000 + i, '2026-01-31')), ...Array.from({ length: 20 }, (_, i) => event(3000 + i, '2026-02-01'))];
      fates.push('pass', 'refuse');
      await assert.rejects(store.append(spanning), /refused by the test proxy/);
      assert.equal(await count(), before + 80n, 'January stored, February not');
      await store.append(spanning);
      assert.equal(await count(), before + 100n);
      const perDay = await direct.query<{ d: string; n: bigint }>(
        sql`SELECT toString(day) AS d, count() AS n FROM events WHERE site_id = ${'site'} AND ts >= ${Date.parse('2026-01-31T12:00:02Z')} GROUP BY day ORDER BY day`,
      );
      assert.deepEqual(perDay, [{ d: '2026-01-31', n: 30n }, { d: '2026-02-01', n: 20n }, { d: '2026-02-10', n: 50n }]);
    } finally {
      await store.close();
      await new Promise((resolve) => proxy.server.close(resolve));
    }
  });

  test('a repeated column is kept as a dictionary, and a table made with it plain is converted with its rows kept', async () => {
    const plain = { name: 'keyed', columns: [{ name: 'site_id', type: 'VARCHAR', nullable: false }, { name: 'day', type: 'DATE', nullable: false }, { name: 'k', type: 'VARCHAR', nullable: false }], dayColumn: 'day', key: [] } as const satisfies TableSpec;
    const repeated = { ...plain, columns: [plain.columns[0], plain.columns[1], { ...plain.columns[2], repeated: true }] } satisfies TableSpec;
    const typeOfK = async () => (await direct.query<{ t: string }>(sql`SELECT type AS t FROM system.columns WHERE database = currentDatabase() AND table = 'keyed' AND name = 'k'`))[0]!.t;
    await direct.createTables([plain]);
    assert.equal(await typeOfK(), 'String');
    await direct.replaceRows(plain, { siteId: 'site', days: { from: '2026-01-01', to: '2026-01-02' } }, sql`SELECT 'site', toDate('2026-01-01'), 'a' UNION ALL SELECT 'site', toDate('2026-01-02'), 'b'`);
    await direct.createTables([repeated]);
    assert.equal(await typeOfK(), 'LowCardinality(String)');
    // Rows replaced through the converted table, and read back as plain strings.
    await direct.replaceRows(repeated, { siteId: 'site', days: { from: '2026-01-02', to: '2026-01-02' } }, sql`SELECT 'site', toDate('2026-01-02'), 'c'`);
    assert.deepEqual(await direct.query(sql`SELECT toString(day) AS d, k FROM keyed ORDER BY d`), [{ d: '2026-01-01', k: 'a' }, { d: '2026-01-02', k: 'c' }]);

    // A repeated key column (the site) cannot be altered: a table made with it plain keeps it so.
    const siteRepeated = { ...plain, columns: [{ ...plain.columns[0], repeated: true }, plain.columns[1], { ...plain.columns[2], repeated: true }] } satisfies TableSpec;
    const typeOfSite = async (table: string) => (await direct.query<{ t: string }>(sql`SELECT type AS t FROM system.columns WHERE database = currentDatabase() AND table = ${table} AND name = 'site_id'`))[0]!.t;
    await direct.createTables([siteRepeated]);
    assert.equal(await typeOfSite('keyed'), 'String');
    const fresh = { ...siteRepeated, name: 'keyed_by_site' } satisfies TableSpec;
    await direct.createTables([fresh]);
    assert.equal(await typeOfSite('keyed_by_site'), 'LowCardinality(String)');
    for (const table of [siteRepeated, fresh]) {
      await direct.replaceRows(table, { siteId: 'site', days: { from: '2026-01-01', to: '2026-01-31' } }, sql`SELECT 'site', toDate('2026-01-03'), 'd' UNION ALL SELECT 'site', toDate('2026-02-01'), 'e'`);
      await direct.replaceRows(table, { siteId: 'other', days: { from: '2026-01-01', to: '2026-01-31' } }, sql`SELECT 'other', toDate('2026-01-03'), 'f'`);
      const rows = await direct.query(sql`SELECT site_id AS s, toString(day) AS d, k FROM ${trusted(table.name)} WHERE site_id = ${'site'} ORDER BY d`);
      assert.deepEqual(rows, [{ s: 'site', d: '2026-01-03', k: 'd' }], table.name);
    }
  });

  test('a select that reads few rows runs on one thread, each select of a union its own', async () => {
    const threads = sql`SELECT value AS v FROM system.settings WHERE name = 'max_threads'`;
    const few = trusted(direct.dialect.fewRowsClause);
    const values = async (statement: ReturnType<typeof sql>) => (await direct.query<{ v: string }>(statement)).map((r) => r.v);
    assert.notDeepEqual(await values(threads), ['1'], 'the test server runs a statement on more than one thread');
    assert.deepEqual(await values(sql`${threads}${few} UNION ALL ${threads}${few}`), ['1', '1']);
  });

  test("removing a site's events spares another site's rows that arrive in the month meanwhile", async () => {
    // One site's events alone in May 2024; another site's row arrives there just after the store has
    // looked at the month (between its look and its removal).
    const gone = Array.from({ length: 5 }, (_, i) => ({ ...event(1000 + i, '2024-05-10'), siteId: 'gone' }));
    const arriving = { ...event(2000, '2024-05-20'), siteId: 'other' };
    await direct.append(gone);
    let arrived = false;
    const racing = Object.assign(Object.create(direct) as ClickHouseEventStore, {
      query: async <T>(statement: Parameters<ClickHouseEventStore['query']>[0]) => {
        const rows = await direct.query<T>(statement);
        if (!arrived && /FROM events\b/.test(statement.text)) {
          arrived = true;
          await direct.append([arriving]);
        }
        return rows;
      },
    });
    await racing.replaceRows(EVENTS_TABLE, { siteId: 'gone', days: { from: '2024-05-01', to: '2024-05-31' } }, null);
    assert.ok(arrived, 'the other row arrived while the removal ran');
    const bySite = await direct.query<{ s: string; n: bigint }>(sql`SELECT site_id AS s, count() AS n FROM events WHERE toYYYYMM(day) = 202405 GROUP BY s ORDER BY s`);
    assert.deepEqual(bySite, [{ s: 'other', n: 1n }]);
  });

  test('a table of few rows a day is partitioned by site and year; one made by month before keeps its months and its replacements', async () => {
    const byMonth = countTable('few');
    const byYear = { ...byMonth, fewRowsADay: true } satisfies TableSpec;
    const partitionKey = async (table: string) => (await direct.query<{ k: string }>(sql`SELECT partition_key AS k FROM system.tables WHERE database = currentDatabase() AND name = ${table}`))[0]!.k;
    const partitions = async (table: string) =>
      (await direct.query<{ p: string }>(sql`SELECT DISTINCT partition AS p FROM system.parts WHERE database = currentDatabase() AND table = ${table} AND active ORDER BY p`)).map((r) => r.p);
    const rows = sql`SELECT 'site', toDate('2025-12-30') + number, number FROM system.numbers LIMIT 40`;
    const read = (table: string) => direct.query<{ d: string; n: bigint }>(sql`SELECT toString(day) AS d, n FROM ${trusted(table)} WHERE site_id = ${'site'} ORDER BY d`);
    const expected = (replaced: string) => Array.from({ length: 40 }, (_, i) => {
      const d = new Date(Date.UTC(2025, 11, 30 + i)).toISOString().slice(0, 10);
      return { d, n: d === replaced ? 99n : BigInt(i) };
    });

    await direct.createTables([{ ...byYear, name: 'few_by_year' }]);
    assert.match(await partitionKey('few_by_year'), /^\(?site_id, toYear\(day\)\)?$/);

    // 'few' is made by month, then a process whose spec says few rows a day opens the database: the table keeps its key.
    await direct.createTables([byMonth]);
    await direct.replaceRows(byMonth, { siteId: 'site', days: { from: '2025-01-01', to: '2026-12-31' } }, rows);
    const later = await ClickHouseEventStore.open({ url: databaseUrl });
    try {
      await later.createTables([byYear]);
      assert.match(await partitionKey('few'), /toYYYYMM\(day\)/);
      await direct.replaceRows({ ...byYear, name: 'few_by_year' }, { siteId: 'site', days: { from: '2025-01-01', to: '2026-12-31' } }, rows);

      for (const [table, store, spec, parts, otherParts] of [
        ['few_by_year', direct, { ...byYear, name: 'few_by_year' }, [`('site',2025)`, `('site',2026)`], [`('other',2026)`]],
        ['few', later, byYear, [`('site',202512)`, `('site',202601)`, `('site',202602)`], [`('other',202601)`]],
      ] as const) {
        await store.replaceRows(spec, { siteId: 'site', days: { from: '2026-01-01', to: '2026-01-01' } }, sql`SELECT 'site', toDate('2026-01-01'), 99`);
        await store.replaceRows(spec, { siteId: 'other', days: { from: '2026-01-01', to: '2026-01-01' } }, sql`SELECT 'other', toDate('2026-01-01'), 1`);
        assert.deepEqual(await read(table), expected('2026-01-01'), table);
        assert.deepEqual(await direct.query(sql`SELECT toString(day) AS d, n FROM ${trusted(table)} WHERE site_id = ${'other'}`), [{ d: '2026-01-01', n: 1n }], table);
        const named = (await partitions(table)).map((p) => p.replace(/\\/g, ''));
        assert.deepEqual(named.filter((p) => p.includes("'site'")), parts, table);
        assert.deepEqual(named.filter((p) => p.includes("'other'")), otherParts, table);
      }
    } finally {
      await later.close();
    }
  });
  test('a table whose key leads its reads is sorted by site, key, then day; one made before keeps its order, its answers and its replacements', async () => {
    const dayFirst = countTable('led');
    const keyFirst = { ...dayFirst, keyLeads: true } satisfies TableSpec;
    const sortingKey = async (table: string) => (await direct.query<{ k: string }>(sql`SELECT sorting_key AS k FROM system.tables WHERE database = currentDatabase() AND name = ${table}`))[0]!.k;
    await direct.createTables([{ ...keyFirst, name: 'led_by_key' }]);
    assert.equal(await sortingKey('led_by_key'), 'site_id, n, day');
    await direct.createTables([dayFirst]);
    const later = await ClickHouseEventStore.open({ url: databaseUrl });
    try {
      await later.createTables([keyFirst]);
      assert.equal(await sortingKey('led'), 'site_id, day, n', 'a table made before keeps its order');
      for (const [table, spec] of [['led_by_key', { ...keyFirst, name: 'led_by_key' }], ['led', keyFirst]] as const) {
        await later.replaceRows(spec, { siteId: 'site', days: { from: '2026-01-01', to: '2026-01-31' } }, sql`SELECT 'site', toDate('2026-01-01') + number % 31, number FROM system.numbers LIMIT 62`);
        await later.replaceRows(spec, { siteId: 'site', days: { from: '2026-01-10', to: '2026-01-10' } }, sql`SELECT 'site', toDate('2026-01-10'), 7`);
        const rows = await direct.query<{ d: string; n: bigint }>(sql`SELECT toString(day) AS d, n FROM ${trusted(table)} WHERE site_id = ${'site'} ORDER BY d, n`);
        const expected = Array.from({ length: 62 }, (_, n) => ({ d: `2026-01-${String((n % 31) + 1).padStart(2, '0')}`, n: BigInt(n) }))
          .filter((row) => row.d !== '2026-01-10')
          .concat({ d: '2026-01-10', n: 7n })
          .sort((a, b) => a.d.localeCompare(b.d) || Number(a.n - b.n));
        assert.deepEqual(rows, expected, `${table}: the day replaced holds its one row, the others theirs`);
      }
    } finally {
      await later.close();
    }
  });
});
