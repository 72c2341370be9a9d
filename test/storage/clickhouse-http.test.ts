// The ClickHouse store's HTTP connection against a private server, through a proxy that misbehaves,
// and against fake servers: answers and settings (totals of no rows too), the server's errors
// (before and during an answer) in its own words and never taken from the rows, errors not sent
// again, a connection the server dropped while idle (sent again once, on a new connection; not a
// reset that comes late), an answer that never comes, idle connections closed, requests under way
// when it closes, the user, database and IPv6 host of the URL; writes with their rows and settings,
// and a server that refuses an insert and closes the connection while its rows are still being sent
// (the write fails, the process goes on).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, request, type Server } from 'node:http';
import { createServer as createNetServer, type Socket } from 'node:net';
import { ClickHouseError, clickHouseErrorOf, ClickHouseHttp, errorEndingAnswer } from '../../src/storage/events/clickhouse-http.js';
import { clickhouseServer } from '../../support/clickhouse.js';

type ProxyStep = 'pass' | 'drop' | 'late-drop' | 'hang';

interface Proxy {
  url: string;
  server: Server;
  /** Connections accepted so far. */
  connections(): number;
  /** Each request's body, in order. */
  bodies: string[];
}

/**
 * An HTTP proxy to the server: `steps` decide each request in order (pass it on; drop its connection
 * unanswered at once, as a server whose idle time ran out, or after 1.2 s; hold it unanswered).
 */
async function proxy(target: string, steps: ProxyStep[]): Promise<Proxy> {
  const upstream = new URL(target);
  let connections = 0;
  const bodies: string[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      bodies.push(body.toString());
      const step = steps.shift() ?? 'pass';
      if (step === 'drop') return req.socket.destroy();
      if (step === 'late-drop') return void setTimeout(() => req.socket.destroy(), 1_200);
      if (step === 'hang') return;
      const forward = request({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers }, (up) => {
        res.writeHead(up.statusCode ?? 500, up.headers);
        up.pipe(res);
      });
      forward.on('error', (err) => res.destroy(err));
      forward.end(body);
    });
  });
  server.on('connection', (socket: Socket) => {
    connections++;
    socket.on('error', () => undefined);
  });
  return { url: `http://127.0.0.1:${await listen(server)}`, server, connections: () => connections, bodies };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Starts `server` on a free port of `host`; its port. */
async function listen(server: Server, host = '127.0.0.1'): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return (server.address() as { port: number }).port;
}

describe('ClickHouse HTTP connection', () => {
  let serverUrl: string;
  let reader: ClickHouseHttp;
  const closing: Array<() => void> = [];
  /** A reader through a new proxy with these steps, closed with the suite. */
  const through = async (steps: ProxyStep[], timeoutMs = 60_000) => {
    const p = await proxy(serverUrl, steps);
    const r = new ClickHouseHttp(new URL(p.url), 'system', timeoutMs);
    closing.push(() => {
      r.close();
      p.server.close();
    });
    return { p, r };
  };

  before(async () => {
    serverUrl = (await clickhouseServer()).url;
    reader = new ClickHouseHttp(new URL(serverUrl), 'system', 60_000);
    closing.push(() => reader.close());
  });
  after(() => {
    for (const close of closing) close();
  });

  test("a statement's answer, with the columns' types, the rows before LIMIT, the totals and the settings given for it alone", async () => {
    const answer = await reader.select('SELECT number % 2 AS n, toString(count()) AS s FROM numbers(5) GROUP BY n WITH TOTALS ORDER BY n LIMIT 1', {});
    assert.deepEqual(answer.meta, [
      { name: 'n', type: 'UInt8' },
      { name: 's', type: 'String' },
    ]);
    assert.deepEqual(answer.data, [[0, '3']]);
    assert.equal(answer.rows_before_limit_at_least, 2);
    assert.deepEqual(answer.totals, [0, '5']);
    // 64-bit integers come as strings, whatever the server's default.
    assert.deepEqual((await reader.select('SELECT toUInt64(18446744073709551615) AS big', {})).data, [['18446744073709551615']]);
    const threads = "SELECT value AS v FROM system.settings WHERE name = 'max_threads'";
    assert.deepEqual((await reader.select(threads, { max_threads: 1 })).data, [['1']]);
    assert.notDeepEqual((await reader.select(threads, {})).data, [['1']], "a statement's settings are its own");
    const text = "SELECT 'tab\\there, quote '' and é' AS t";
    assert.deepEqual((await reader.select(text, {})).data, [["tab\there, quote ' and é"]]);
  });

  test('a statement with totals that groups no rows answers its columns, no rows and its totals', async () => {
    // 26.7 (the chdb library) writes such an answer's totals before its opening; the reader puts them back.
    const answer = await reader.select('SELECT number % 2 AS n, count() AS c FROM numbers(10) WHERE number > 100 GROUP BY n WITH TOTALS ORDER BY n LIMIT 1', {});
    assert.deepEqual(answer.meta, [
      { name: 'n', type: 'UInt8' },
      { name: 'c', type: 'UInt64' },
    ]);
    assert.deepEqual(answer.data, []);
    assert.deepEqual(answer.totals, [0, '0']);
  });

  test("the server's errors in its own words, with their code: refused at once, and met once the answer has begun", async () => {
    await assert.rejects(reader.select('SELEKT 1', {}), (err: unknown) => {
      assert.ok(err instanceof ClickHouseError);
      assert.equal(err.code, '62');
      assert.match(err.message, /^ClickHouse error 62: Syntax error/);
      return true;
    });
    // An answer larger than the server's buffer has begun (status 200) when the error comes; its
    // rows hold words that look like another error, which are not taken for it.
    const spoofing = "SELECT concat('/Code: 159. DB::Exception: \"x\\\\', toString(number)) AS page, throwIf(number = 400000) AS x FROM numbers(1000000)";
    await assert.rejects(reader.select(spoofing, { max_block_size: 1000 }), (err: unknown) => {
      assert.ok(err instanceof ClickHouseError, String(err));
      assert.equal(err.code, '395');
      assert.match(err.message, /^ClickHouse error 395: Value passed to 'throwIf' function is non[ -]zero/);
      assert.ok(err.message.length < 2_100, 'the message holds the error, not the rows');
      return true;
    });
    await assert.rejects(reader.select('SELECT sleepEachRow(1) FROM numbers(3)', { max_execution_time: 1, timeout_overflow_mode: 'throw' }), (err: unknown) => {
      assert.ok(err instanceof ClickHouseError);
      assert.equal(err.code, '159');
      return true;
    });
    // The reader goes on answering on its connections.
    assert.deepEqual((await reader.select('SELECT 1 AS one', {})).data, [[1]]);
  });

  test('both ways a server words an error are read where the text starts with one; words inside an answer\'s strings are not an error', () => {
    const old = clickHouseErrorOf("Code: 60, e.displayText() = DB::Exception: Table svc.nope doesn't exist., e.what() = DB::Exception\n");
    assert.equal(old?.code, '60');
    assert.equal(old?.message, "ClickHouse error 60: Table svc.nope doesn't exist.");
    const later = clickHouseErrorOf('Code: 60. DB::Exception: Table svc.nope does not exist. (UNKNOWN_TABLE) (version 23.8.1.1)');
    assert.equal(later?.code, '60');
    assert.equal(later?.message, 'ClickHouse error 60: Table svc.nope does not exist. (UNKNOWN_TABLE) (version 23.8.1.1)');
    assert.equal(clickHouseErrorOf('{"data": [["/a"], ["Code: 1, x"]]'), null);
    assert.equal(errorEndingAnswer('{"data": [["/Code: 159. a \\" Code: 159. b"], ["Code: 1, "]]'), null);
    const ended = errorEndingAnswer('{"data": [["/Code: 159. \\\\"], ["x"]Code: 395, e.displayText() = DB::Exception: thrown, e.what() = DB::Exception\n');
    assert.equal(ended?.code, '395');
    assert.equal(ended?.message, 'ClickHouse error 395: thrown');
  });

  test("the server's errors are not sent again", async () => {
    const { p, r } = await through([]);
    await assert.rejects(r.select('SELEKT 1', {}), (err: unknown) => err instanceof ClickHouseError && err.code === '62');
    assert.equal(p.bodies.length, 1);
  });

  test('a kept-alive connection dropped unanswered at once is replaced and the statement sent again, once, on a new connection', async () => {
    const { p, r } = await through(['pass', 'drop', 'pass', 'pass', 'drop', 'drop']);
    assert.deepEqual((await r.select('SELECT 1 AS one', {})).data, [[1]]);
    assert.deepEqual((await r.select('SELECT 2 AS two', {})).data, [[2]]);
    assert.equal(p.connections(), 2, 'the second statement went again on a new connection');
    assert.deepEqual(p.bodies, ['SELECT 1 AS one\nFORMAT JSONCompact', 'SELECT 2 AS two\nFORMAT JSONCompact', 'SELECT 2 AS two\nFORMAT JSONCompact']);
    // The retry's connection is its own: the next statement opens one for the pool, kept alive.
    await r.select('SELECT 3', {});
    assert.equal(p.connections(), 3);
    // Dropped on the retry's new connection too: the reader says so rather than trying again.
    await assert.rejects(r.select('SELECT 4', {}), (err: NodeJS.ErrnoException) => {
      assert.equal(err.code, 'ECONNRESET');
      return true;
    });
    assert.equal(p.bodies.length, 6);
    assert.equal(p.connections(), 4);
  });

  test('a kept-alive connection reset a while after the request is not sent again: the server may have been running it', async () => {
    const { p, r } = await through(['pass', 'late-drop']);
    await r.select('SELECT 1', {});
    await assert.rejects(r.select('SELECT 2', {}), (err: NodeJS.ErrnoException) => err.code === 'ECONNRESET');
    assert.equal(p.bodies.length, 2);
  });

  test('an answer that does not come within the timeout fails the read and the reader goes on', async () => {
    const { r } = await through(['hang', 'pass'], 2_000);
    await assert.rejects(r.select('SELECT 1', {}), /ClickHouse sent nothing for 2 s/);
    assert.deepEqual((await r.select('SELECT 4 AS four', {})).data, [[4]]);
  });

  test('a connection idle for 2 s is closed here, before the server closes it; one busy longer stays open', async () => {
    const { p, r } = await through([]);
    await r.select('SELECT 1', {});
    await r.select('SELECT 1', {});
    assert.equal(p.connections(), 1);
    await sleep(2_300);
    await r.select('SELECT 1', {});
    assert.equal(p.connections(), 2);
    assert.deepEqual((await r.select('SELECT sleep(2.5) AS s', {})).data, [[0]]);
    await r.select('SELECT 1', {});
    assert.equal(p.connections(), 2);
  });

  test('closing the reader fails the reads under way, sends none again, and fails later reads at once', async () => {
    const { p, r } = await through([]);
    // Three kept-alive connections, whose resets a reader not closed would take for stale ones.
    await Promise.all([1, 2, 3].map(() => r.select('SELECT 1', {})));
    const reads = [1, 2, 3].map(() => r.select('SELECT sleep(1)', {}));
    await sleep(200);
    r.close();
    for (const read of reads) await assert.rejects(read, /the ClickHouse connection is closed/);
    await assert.rejects(r.select('SELECT 1', {}), /the ClickHouse connection is closed/);
    assert.equal(p.connections(), 3);
    assert.equal(p.bodies.length, 6);
  });

  test('an answer longer than the reader takes fails the read, and the reader goes on', async () => {
    const small = new ClickHouseHttp(new URL(serverUrl), 'system', 60_000, 10_000);
    closing.push(() => small.close());
    await assert.rejects(small.select('SELECT number FROM numbers(100000)', {}), /ClickHouse's answer is longer than 10000 bytes/);
    assert.equal((await small.select('SELECT number FROM numbers(100)', {})).data.length, 100);
  });

  test("a later server's error closing an answer as JSON is the server's error, not an answer", async () => {
    const fake = createServer((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(200).end(JSON.stringify({ meta: [{ name: 'n', type: 'UInt64' }], data: [['1']], exception: 'Code: 395. DB::Exception: thrown. (FUNCTION_THROW_IF_VALUE_IS_NON_ZERO)' })));
    });
    const later = new ClickHouseHttp(new URL(`http://127.0.0.1:${await listen(fake)}`), 'svc', 60_000);
    closing.push(() => {
      later.close();
      fake.close();
    });
    await assert.rejects(later.select('SELECT 1', {}), (err: unknown) => err instanceof ClickHouseError && err.code === '395' && err.message === 'ClickHouse error 395: thrown. (FUNCTION_THROW_IF_VALUE_IS_NON_ZERO)');
  });

  test("the URL's user and database: a wrong password is the server's refusal, the database names unqualified tables", async () => {
    const url = new URL(serverUrl);
    url.username = 'default';
    url.password = 'wrong';
    const refused = new ClickHouseHttp(url, 'system', 60_000);
    closing.push(() => refused.close());
    // WRONG_PASSWORD on 18.16, AUTHENTICATION_FAILED on later servers.
    await assert.rejects(refused.select('SELECT 1', {}), (err: unknown) => err instanceof ClickHouseError && ['193', '516'].includes(err.code));
    const named = await reader.select("SELECT name FROM tables WHERE database = 'system' AND name = 'numbers'", {});
    assert.deepEqual(named.data, [['numbers']]);
  });

  test('an IPv6 host, a user and password as the URL encodes them, and an answer split inside a character', async () => {
    let seen: { authorization?: string; url?: string } = {};
    const answer = Buffer.from(JSON.stringify({ meta: [{ name: 't', type: 'String' }], data: [['é']], rows: 1 }));
    const split = answer.indexOf(Buffer.from('é')) + 1;
    const fake = createServer((req, res) => {
      seen = { authorization: req.headers.authorization, url: req.url };
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.write(answer.subarray(0, split));
        setTimeout(() => res.end(answer.subarray(split)), 20);
      });
    });
    const url = new URL(`http://[::1]:${await listen(fake, '::1')}`);
    url.username = encodeURIComponent('us er');
    url.password = encodeURIComponent('p@ss:wörd/');
    const v6 = new ClickHouseHttp(url, 'svc', 60_000);
    closing.push(() => {
      v6.close();
      fake.close();
    });
    assert.deepEqual((await v6.select('SELECT 1', { max_threads: 1 })).data, [['é']]);
    assert.equal(seen.authorization, `Basic ${Buffer.from('us er:p@ss:wörd/').toString('base64')}`);
    assert.equal(seen.url, '/?database=svc&max_threads=1&output_format_json_quote_64bit_integers=1');
  });

  test('writes: a table made, rows inserted after the statement with a query id, a failed write in the server\'s words', async () => {
    const db = new ClickHouseHttp(new URL(serverUrl), undefined, 60_000);
    closing.push(() => db.close());
    const name = `writes_${process.pid}`;
    await db.execute(`CREATE DATABASE IF NOT EXISTS ${name}`);
    const writer = new ClickHouseHttp(new URL(serverUrl), name, 60_000);
    closing.push(() => writer.close());
    await writer.execute('CREATE TABLE t (n UInt32, s String) ENGINE = MergeTree ORDER BY n');
    await writer.execute('INSERT INTO t (n, s) FORMAT TabSeparated\n1\ttab\\there\n2\té', { query_id: `svc-test-${process.pid}` });
    await writer.execute(`INSERT INTO t FORMAT JSONEachRow\n${JSON.stringify({ n: 3, s: "quote ' \\" })}`);
    assert.deepEqual((await writer.select('SELECT n, s FROM t ORDER BY n', {})).data, [[1, 'tab\there'], [2, 'é'], [3, "quote ' \\"]]);
    await assert.rejects(writer.execute('INSERT INTO missing (n) FORMAT TabSeparated\n1'), (err: unknown) => err instanceof ClickHouseError && err.code === '60');
    await db.execute(`DROP DATABASE ${name}`);
  });

  test('a server that refuses an insert and closes the connection while its rows are being sent fails that write, not the process', async () => {
    let requests = 0;
    // Answers once the first 64 KiB of a request are in, then closes: the rest of the rows meet a closed socket.
    const refusing = createNetServer((socket) => {
      let seen = 0;
      socket.on('error', () => undefined);
      socket.on('data', (chunk: Buffer) => {
        seen += chunk.length;
        if (seen < 65_536 || socket.destroyed) return;
        requests++;
        const words = 'Code: 252, e.displayText() = DB::Exception: Too many parts (300). Merges are processing significantly slower than inserts., e.what() = DB::Exception\n';
        socket.end(`HTTP/1.1 500 Internal Server Error\r\nContent-Length: ${Buffer.byteLength(words)}\r\nConnection: close\r\n\r\n${words}`);
        socket.destroy();
      });
    });
    await new Promise<void>((resolve) => refusing.listen(0, '127.0.0.1', resolve));
    const writer = new ClickHouseHttp(new URL(`http://127.0.0.1:${(refusing.address() as { port: number }).port}`), 'svc', 60_000);
    closing.push(() => {
      writer.close();
      refusing.close();
    });
    const escaped: unknown[] = [];
    const onEscape = (err: unknown) => escaped.push(err);
    process.on('uncaughtException', onEscape);
    try {
      const rows = 'x\t'.repeat(8_000_000);
      for (let i = 0; i < 3; i++) {
        await assert.rejects(writer.execute(`INSERT INTO events (a) FORMAT TabSeparated\n${rows}`), (err: NodeJS.ErrnoException) => {
          // The server's words when its answer came first; the closed socket's error when the write failed first.
          assert.ok((err instanceof ClickHouseError && err.code === '252') || ['EPIPE', 'ECONNRESET'].includes(err.code ?? ''), String(err));
          return true;
        });
      }
      await sleep(200);
    } finally {
      process.off('uncaughtException', onEscape);
    }
    assert.ok(requests >= 3);
    assert.deepEqual(escaped, []);
  });
});
