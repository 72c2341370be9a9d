// The ClickHouse reads' HTTP reader against a private server, and through a proxy that misbehaves:
// answers and settings, the server's errors (before and during an answer) in its own words, a
// connection the server dropped while idle (sent again once), an answer that never comes, and the
// user and database of the URL.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, request, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { ClickHouseError, clickHouseErrorOf, ClickHouseHttpReader } from '../../src/storage/events/clickhouse-http.js';
import { clickhouseServer } from '../../support/clickhouse.js';

interface Answer {
  meta: Array<{ name: string; type: string }>;
  data: Array<Record<string, unknown>>;
  rows_before_limit_at_least?: number;
}

type ProxyStep = 'pass' | 'drop' | 'hang';

/**
 * An HTTP proxy to the server, one request at a time per connection: `steps` decide each request in
 * order (pass it on; drop its kept-alive connection unanswered, as a server whose idle time ran out;
 * hold it unanswered). Counts the connections it accepted.
 */
async function proxy(target: string, steps: ProxyStep[]): Promise<{ url: string; server: Server; connections: () => number; bodies: string[] }> {
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
      if (step === 'hang') return;
      const forward = request({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers }, (up) => {
        res.writeHead(up.statusCode ?? 500, up.headers);
        up.pipe(res);
      });
      forward.end(body);
    });
  });
  server.on('connection', (socket: Socket) => {
    connections++;
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, server, connections: () => connections, bodies };
}

describe('ClickHouse HTTP reader', () => {
  let serverUrl: string;
  let reader: ClickHouseHttpReader;
  const closing: Array<() => void> = [];

  before(async () => {
    serverUrl = (await clickhouseServer()).url;
    reader = new ClickHouseHttpReader(new URL(serverUrl), 'system', 60_000);
    closing.push(() => reader.close());
  });
  after(() => {
    for (const close of closing) close();
  });

  test("a statement's answer, with the columns' types and the settings given for it alone", async () => {
    const answer = await reader.json<Answer>('SELECT number AS n, toString(number) AS s FROM numbers(5) ORDER BY n LIMIT 2', {});
    assert.deepEqual(answer.meta, [
      { name: 'n', type: 'UInt64' },
      { name: 's', type: 'String' },
    ]);
    // 64-bit integers come as strings in the JSON format.
    assert.deepEqual(answer.data, [
      { n: '0', s: '0' },
      { n: '1', s: '1' },
    ]);
    assert.equal(answer.rows_before_limit_at_least, 5);
    const threads = "SELECT value AS v FROM system.settings WHERE name = 'max_threads'";
    assert.deepEqual((await reader.json<Answer>(threads, { max_threads: 1 })).data, [{ v: '1' }]);
    assert.notDeepEqual((await reader.json<Answer>(threads, {})).data, [{ v: '1' }], "a statement's settings are its own");
    const text = "SELECT 'tab\\there, quote '' and é' AS t";
    assert.deepEqual((await reader.json<Answer>(text, {})).data, [{ t: "tab\there, quote ' and é" }]);
  });

  test("the server's errors in its own words, with their code: refused at once, and met once the answer has begun", async () => {
    await assert.rejects(reader.json('SELEKT 1', {}), (err: unknown) => {
      assert.ok(err instanceof ClickHouseError);
      assert.equal(err.code, '62');
      assert.match(err.message, /^ClickHouse error 62: Syntax error/);
      return true;
    });
    // An answer larger than the server's buffer has begun (status 200) when the error comes.
    await assert.rejects(reader.json('SELECT throwIf(number = 400000) AS x, toString(number) AS s FROM numbers(1000000)', { max_block_size: 1000 }), (err: unknown) => {
      assert.ok(err instanceof ClickHouseError, String(err));
      assert.equal(err.code, '395');
      assert.match(err.message, /^ClickHouse error 395: Value passed to 'throwIf' function is non zero/);
      return true;
    });
    await assert.rejects(reader.json('SELECT sleepEachRow(1) FROM numbers(3)', { max_execution_time: 1, timeout_overflow_mode: 'throw' }), (err: unknown) => {
      assert.ok(err instanceof ClickHouseError);
      assert.equal(err.code, '159');
      return true;
    });
    // The reader goes on answering on its connections.
    assert.deepEqual((await reader.json<Answer>('SELECT 1 AS one', {})).data, [{ one: 1 }]);
  });

  test('both ways a server words an error are read; text that is not an error is not', () => {
    const old = clickHouseErrorOf('Code: 60, e.displayText() = DB::Exception: Table svc.nope doesn\'t exist., e.what() = DB::Exception\n');
    assert.equal(old?.code, '60');
    assert.equal(old?.message, "ClickHouse error 60: Table svc.nope doesn't exist.");
    const later = clickHouseErrorOf('Code: 60. DB::Exception: Table svc.nope does not exist. (UNKNOWN_TABLE) (version 23.8.1.1)');
    assert.equal(later?.code, '60');
    assert.equal(later?.message, 'ClickHouse error 60: Table svc.nope does not exist. (UNKNOWN_TABLE) (version 23.8.1.1)');
    assert.equal(clickHouseErrorOf('{"data": [{"page": "/code-1"}'), null);
  });

  test('a kept-alive connection dropped unanswered is replaced and the statement sent again, once', async () => {
    const p = await proxy(serverUrl, ['pass', 'drop', 'pass', 'drop', 'drop']);
    const through = new ClickHouseHttpReader(new URL(p.url), 'system', 60_000);
    closing.push(() => {
      through.close();
      p.server.close();
    });
    assert.deepEqual((await through.json<Answer>('SELECT 1 AS one', {})).data, [{ one: 1 }]);
    assert.deepEqual((await through.json<Answer>('SELECT 2 AS two', {})).data, [{ two: 2 }]);
    assert.equal(p.connections(), 2, 'the second statement went again on a new connection');
    assert.deepEqual(p.bodies, ['SELECT 1 AS one\nFORMAT JSON', 'SELECT 2 AS two\nFORMAT JSON', 'SELECT 2 AS two\nFORMAT JSON']);
    // Dropped on the retry's fresh connection too: the reader says so rather than trying forever.
    await assert.rejects(through.json('SELECT 3', {}), (err: NodeJS.ErrnoException) => {
      assert.equal(err.code, 'ECONNRESET');
      return true;
    });
    assert.equal(p.bodies.length, 5);
  });

  test('an answer that does not come within the timeout fails the read and frees its connection', async () => {
    const p = await proxy(serverUrl, ['hang', 'pass']);
    const through = new ClickHouseHttpReader(new URL(p.url), 'system', 300);
    closing.push(() => {
      through.close();
      p.server.close();
    });
    await assert.rejects(through.json('SELECT 1', {}), /ClickHouse did not answer within 0\.3 s/);
    assert.deepEqual((await through.json<Answer>('SELECT 4 AS four', {})).data, [{ four: 4 }]);
  });

  test("the URL's user and database: a wrong password is the server's refusal, the database names unqualified tables", async () => {
    const url = new URL(serverUrl);
    url.username = 'default';
    url.password = 'wrong';
    const refused = new ClickHouseHttpReader(url, 'system', 60_000);
    closing.push(() => refused.close());
    await assert.rejects(refused.json('SELECT 1', {}), (err: unknown) => err instanceof ClickHouseError && err.code === '193');
    const named = await reader.json<Answer>("SELECT name FROM tables WHERE database = 'system' AND name = 'numbers'", {});
    assert.deepEqual(named.data, [{ name: 'numbers' }]);
  });
});
